import Foundation
import PrismHTTP

/// What the server sends on a socket, read by the state machine: the acknowledgement, pings, and
/// the messages of each subscription, routed by id; anything the protocol does not allow closes
/// the socket with 4004 and will end every subscription.
extension SubscriptionStateMachine {
    mutating func received(_ inbound: Inbound, on socket: Int) -> [Action] {
        switch phase {
        case .initializing(socket), .ready(socket): break
        default: return []  // a socket on its way out
        }
        let acknowledged = phase == .ready(socket: socket)
        switch inbound {
        case .next(let id, _), .error(let id, _), .complete(let id):
            if !acknowledged {
                return protocolViolation("The server sent a message for id \(id) before connection_ack.", socket)
            }
        case .acknowledged, .ping, .pong, .invalid:
            break
        }
        switch inbound {
        case .acknowledged:
            guard !acknowledged else { return [] }
            phase = .ready(socket: socket)
            var actions: [Action] = [
                .cancel(.acknowledgement(socket: socket)),
                .log(Log(message: "GraphQL subscriptions: connection acknowledged")),
                .schedule(.stable(socket: socket), settings.stableInterval),
            ]
            if let interval = settings.keepAliveInterval {
                actions.append(.schedule(.keepAlive(socket: socket), interval))
            }
            guard !subscribers.isEmpty else { return actions + becameUnused() }
            for (_, subscriber) in subscribers.sorted(by: { Int($0.key) ?? 0 < Int($1.key) ?? 0 }) {
                actions.append(.send(socket: socket, subscriber.message))
            }
            return actions
        case .ping:
            return [.send(socket: socket, GraphQLTransportWS.pong)]
        case .pong:
            awaitingPong = false
            return []
        case .next(let id, let message):
            switch route(id) {
            case .active: return [.deliver(id: id, message: message)]
            case .ended: return []
            case .unknown:
                return protocolViolation("The server sent next for id \(id), which the client never used.", socket)
            }
        case .error(let id, let errors):
            switch route(id) {
            case .active:
                guard let errors else {
                    return protocolViolation(
                        "The server sent an error message whose payload is not a list of GraphQL errors.", socket)
                }
                let operation = subscribers.removeValue(forKey: id)?.operationName
                let messages = errors.map(\.description).joined(separator: "; ")
                let error = PrismGraphQLError(
                    code: .graphQLErrors, message: "The server ended the subscription with errors: \(messages)",
                    url: settings.endpointURL, operationName: operation, errors: errors)
                return [
                    .finish(id: id, error),
                    .log(Log(message: "GraphQL subscription \(id) ended by the server with errors")),
                ] + (subscribers.isEmpty ? becameUnused() : [])
            case .ended: return []
            case .unknown:
                return protocolViolation("The server sent error for id \(id), which the client never used.", socket)
            }
        case .complete(let id):
            switch route(id) {
            case .active:
                subscribers[id] = nil
                return [
                    .finish(id: id, nil), .log(Log(message: "GraphQL subscription \(id) completed by the server")),
                ] + (subscribers.isEmpty ? becameUnused() : [])
            case .ended: return []
            case .unknown:
                return protocolViolation("The server sent complete for id \(id), which the client never used.", socket)
            }
        case .invalid(let reason):
            return protocolViolation(reason, socket)
        }
    }

    enum Route { case active, ended, unknown }

    func route(_ id: String) -> Route {
        if subscribers[id] != nil { return .active }
        if let number = Int(id), String(number) == id, number >= 1, number <= lastID { return .ended }
        return .unknown
    }

    /// The server broke the protocol: the socket is closed with 4004 (graphql-ws's Bad
    /// response) and every subscription will fail.
    mutating func protocolViolation(_ message: String, _ socket: Int) -> [Action] {
        closeForFailure(
            violation(message, closeCode: nil), socket: socket, code: GraphQLTransportWS.ClientClose.badResponse,
            reason: "Bad response")
            + [.log(Log(warning: true, message: "GraphQL subscriptions: protocol violation by the server, closing"))]
    }

    mutating func closeForFailure(_ error: PrismGraphQLError, socket: Int, code: Int, reason: String)
        -> [Action]
    {
        phase = .closing(socket: socket)
        closeReason = .failure(error)
        return cancelSocketTimers(socket) + [.close(socket: socket, code: code, reason: reason)]
    }
}
