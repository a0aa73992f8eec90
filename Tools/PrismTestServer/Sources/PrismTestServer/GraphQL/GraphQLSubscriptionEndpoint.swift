// Foundation, not FoundationEssentials: messages are read with JSONSerialization.
import Foundation
import GraphQL
import HTTPTypes
import HummingbirdWebSocket
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// GraphQL subscriptions over WebSocket on `/graphql` (and `/graphql/ws`), by the
/// `graphql-transport-ws` protocol (graphql-ws's PROTOCOL.md), against the test schema:
///
/// ```graphql
/// type Subscription {
///   taskAdded: TaskItem!                    # every task mutation addTask(title:) adds
///   counter(to: Int!, intervalMs: Int): Int! # 1...to, one every intervalMs, then complete
///   failingSubscription: Int                # refused: an error message
/// }
/// ```
///
/// The upgrade needs the subprotocol `graphql-transport-ws`. The server enforces the protocol as
/// graphql-ws does: a second `connection_init` closes with 4429, `subscribe` before the
/// acknowledgement with 4401, an id in use with 4409, a message that is not one with 4400.
/// Flags in the URL's query make it check or break things on demand:
///
/// - `requireToken=1`: the `connection_init` payload must carry `Authorization: Bearer <current
///   token>` (``PrismTestServer/currentToken``), else the socket is closed with 4403 Forbidden.
/// - `close=<code>`: after `connection_init`, close with that code instead of acknowledging.
/// - `dropAfterAck=<code>[,<code>...]`: acknowledge, then close at once: the n-th connection with
///   the n-th code of the list, cycling (a server that drops every socket it accepts).
/// - `serverPing=1`: send a `ping` right after `connection_ack`.
/// - `silent=1`: never answer a `ping` (a link that died without closing).
/// - `violation=`: `noAck` (never acknowledge), `nextBeforeAck` (a `next` instead of the
///   acknowledgement), and after the acknowledgement `unknownType` (`{"type": "surprise"}`),
///   `unknownID` (a `next` for id 999), `binary` (a binary message), `invalidJSON`, `oversized`
///   (a 64 KiB message in 4 KiB frames).
///
/// ``PrismTestServer/graphQLSubscriptionStatistics`` says what it saw;
/// ``PrismTestServer/dropGraphQLSubscriptionSockets()`` cuts every socket without a close frame.
struct GraphQLSubscriptionEndpoint: Sendable {
    let state: ServerState

    static let subprotocol = "graphql-transport-ws"

    /// What the URL's query asks of one connection.
    struct Flags: Sendable {
        var requireToken: Bool
        var closeCode: Int?
        var dropAfterAck: [Int]
        var serverPing: Bool
        var silent: Bool
        var violation: String?

        init(_ query: [String: String]) {
            requireToken = query["requireToken"] == "1"
            closeCode = query["close"].flatMap { Int($0) }.flatMap { (1000...4999).contains($0) ? $0 : nil }
            dropAfterAck = (query["dropAfterAck"] ?? "").split(separator: ",").compactMap { Int($0) }
                .filter { (1000...4999).contains($0) }
            serverPing = query["serverPing"] == "1"
            silent = query["silent"] == "1"
            violation = query["violation"]
        }
    }

    /// Whether a request upgrades to a subscriptions socket: its path is `/graphql` or
    /// `/graphql/ws` and it asks for `graphql-transport-ws`.
    func shouldUpgrade(
        _ request: HTTPRequest, channel: any Channel
    ) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        let target = RequestTarget(request.path ?? "/")
        guard target.path == "/graphql" || target.path == "/graphql/ws" else { return .dontUpgrade }
        let protocols = request.headerFields[values: .secWebSocketProtocol]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard protocols.contains(Self.subprotocol) else { return .dontUpgrade }
        let flags = Flags(RequestTarget.queryDictionary(target.query))
        let state = self.state
        var headers: [String: String] = [:]
        for field in request.headerFields {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        state.withValues { [headers] in $0.graphQLSubscriptions.upgradeHeaders.append(headers) }
        return .upgrade([.secWebSocketProtocol: Self.subprotocol]) { inbound, outbound, _ in
            let socket = state.openGraphQLSocket(channel)
            let session = GraphQLSubscriptionSession(state: state, flags: flags, outbound: outbound, number: socket)
            defer {
                session.cancelAll()
                state.closeGraphQLSocket(socket)
            }
            try await session.run(inbound)
        }
    }
}

/// One subscriptions socket on the server side.
final class GraphQLSubscriptionSession: Sendable {
    let state: ServerState
    let flags: GraphQLSubscriptionEndpoint.Flags
    let outbound: WebSocketOutboundWriter
    /// The connection's number: 1 for the server's first.
    let number: Int
    private let running = NIOLockedValueBox<[String: Task<Void, Never>]>([:])

    init(state: ServerState, flags: GraphQLSubscriptionEndpoint.Flags, outbound: WebSocketOutboundWriter, number: Int) {
        self.state = state
        self.flags = flags
        self.outbound = outbound
        self.number = number
    }

    func cancelAll() {
        let tasks = running.withLockedValue { running in
            defer { running.removeAll() }
            return Array(running.values)
        }
        for task in tasks { task.cancel() }
    }

    /// Reads messages until the client closes, or the server does (on demand, or for a
    /// violation).
    func run(_ inbound: WebSocketInboundStream) async throws {
        var initialized = false
        var acknowledged = false
        var authorization: String?
        for try await message in inbound.messages(maxSize: 1 << 20) {
            guard case .text(let text) = message else {
                return try await close(4400, "Binary messages are not allowed")
            }
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let type = object["type"] as? String
            else { return try await close(4400, "Invalid message") }
            // A ping is recorded once its pong is written: what the client reads next comes after it.
            if type != "ping" { state.withValues { $0.graphQLSubscriptions.messageTypes.append(type) } }
            switch type {
            case "connection_init":
                guard !initialized else { return try await close(4429, "Too many initialisation requests") }
                initialized = true
                let payload = object["payload"] as? [String: Any] ?? [:]
                let payloadText =
                    (try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
                    .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                state.withValues { $0.graphQLSubscriptions.initPayloads.append(payloadText) }
                authorization = payload["Authorization"] as? String
                if flags.requireToken {
                    let (token, valid) = state.withValues { ("token-\($0.tokenNumber)", $0.tokenIsValid) }
                    guard valid, authorization == "Bearer \(token)" else { return try await close(4403, "Forbidden") }
                }
                if let code = flags.closeCode { return try await close(code, "Closed on demand") }
                switch flags.violation {
                case "noAck": continue
                case "nextBeforeAck":
                    try await send(#"{"id":"1","type":"next","payload":{"data":{"counter":1}}}"#)
                    continue
                default: break
                }
                acknowledged = true
                try await send(#"{"type":"connection_ack"}"#)
                if !flags.dropAfterAck.isEmpty {
                    let code = flags.dropAfterAck[(number - 1) % flags.dropAfterAck.count]
                    return try await close(code, "Dropped after the acknowledgement")
                }
                if flags.serverPing { try await send(#"{"type":"ping"}"#) }
                try await violateAfterAcknowledgement()
            case "ping":
                if !flags.silent { try await send(#"{"type":"pong"}"#) }
                state.withValues { $0.graphQLSubscriptions.messageTypes.append(type) }
            case "pong":
                break
            case "subscribe":
                guard acknowledged else { return try await close(4401, "Unauthorized") }
                guard let id = object["id"] as? String, !id.isEmpty,
                    let payload = object["payload"] as? [String: Any], let query = payload["query"] as? String
                else { return try await close(4400, "Invalid subscribe message") }
                var variables: [String: Map] = [:]
                if let members = payload["variables"] as? [String: Any],
                    let data = try? JSONSerialization.data(withJSONObject: members)
                {
                    variables = (try? JSONDecoder().decode([String: Map].self, from: data)) ?? [:]
                }
                let operationName = payload["operationName"] as? String
                let inUse = running.withLockedValue { $0[id] != nil }
                guard !inUse else { return try await close(4409, "Subscriber for \(id) already exists") }
                let authorization = authorization
                let task = Task {
                    await self.subscribe(
                        id: id, query: query, operationName: operationName, variables: variables,
                        authorization: authorization)
                }
                running.withLockedValue { $0[id] = task }
            case "complete":
                guard let id = object["id"] as? String else { return try await close(4400, "Invalid complete message") }
                state.withValues { $0.graphQLSubscriptions.completedIDs.append(id) }
                let task = running.withLockedValue { $0.removeValue(forKey: id) }
                task?.cancel()
            default:
                return try await close(4400, "Unknown message type \(type)")
            }
        }
    }

    private func violateAfterAcknowledgement() async throws {
        switch flags.violation {
        case "unknownType":
            try await send(#"{"type":"surprise"}"#)
        case "unknownID":
            try await send(#"{"id":"999","type":"next","payload":{"data":{"counter":1}}}"#)
        case "binary":
            try await outbound.write(.binary(ByteBuffer(string: #"{"type":"ping"}"#)))
        case "invalidJSON":
            try await send("this is not JSON")
        case "oversized":
            // 64 KiB in sixteen frames of 4 KiB: each frame is small, the message is not.
            try await outbound.withTextMessageWriter { write in
                try await write(#"{"type":"pong","padding":""#)
                for _ in 0..<16 { try await write(String(repeating: "x", count: 4_096)) }
                try await write(#""}"#)
            }
        default:
            break
        }
    }

    /// Runs one subscription: `next` for every event, then `complete`; `error` when it is
    /// refused. Cancelled when the client completes it (nothing more is sent).
    private func subscribe(
        id: String, query: String, operationName: String?, variables: [String: Map], authorization: String?
    ) async {
        state.withValues {
            $0.graphQLSubscriptions.activeSubscriptions += 1
            $0.graphQLSubscriptions.subscriptionsStarted += 1
        }
        defer {
            state.withValues { $0.graphQLSubscriptions.activeSubscriptions -= 1 }
            _ = running.withLockedValue { $0.removeValue(forKey: id) }
        }
        let context = GraphQLRequestContext(
            state: state, variables: variables, authorization: authorization,
            operationNumber: state.nextGraphQLExecution())
        do {
            let result = try await GraphQLTestSchema.schema.subscribe(
                request: query, resolver: GraphQLTestSchema.resolver, context: context, variables: variables,
                operationName: operationName)
            switch result {
            case .failure(let errors):
                try await sendError(id: id, errors.errors)
            case .success(let stream):
                for try await event in stream {
                    var message = ByteBuffer(string: #"{"id":"#)
                    JSONValue.writeString(id, into: &message)
                    message.writeString(#","type":"next","payload":"#)
                    var body = GraphQLJSON.body(of: event, phase: .execution)
                    message.writeBuffer(&body)
                    message.writeString("}")
                    try await send(String(buffer: message))
                }
                if !Task.isCancelled { try await send(Self.message(type: "complete", id: id)) }
            }
        } catch is CancellationError {
        } catch let error as GraphQLError {
            try? await sendError(id: id, [error])
        } catch {
            try? await sendError(id: id, [GraphQLError(message: "\(error)", locations: [])])
        }
    }

    private func sendError(id: String, _ errors: [GraphQLError]) async throws {
        guard !Task.isCancelled else { return }
        var message = ByteBuffer(string: #"{"id":"#)
        JSONValue.writeString(id, into: &message)
        message.writeString(#","type":"error","payload":"#)
        var payload = GraphQLJSON.errors(errors)
        message.writeBuffer(&payload)
        message.writeString("}")
        try await send(String(buffer: message))
    }

    private static func message(type: String, id: String) -> String {
        var message = ByteBuffer(string: #"{"id":"#)
        JSONValue.writeString(id, into: &message)
        message.writeString(#","type":""# + type + #""}"#)
        return String(buffer: message)
    }

    private func send(_ text: String) async throws {
        try await outbound.write(.text(text))
    }

    private func close(_ code: Int, _ reason: String) async throws {
        try await outbound.close(WebSocketErrorCode(codeNumber: code), reason: reason)
    }
}

extension ServerState {
    /// Counts and registers an accepted subscriptions socket; returns its number.
    func openGraphQLSocket(_ channel: any Channel) -> Int {
        self.withValues { values in
            values.graphQLSubscriptions.connections += 1
            let number = values.graphQLSubscriptions.connections
            values.graphQLSubscriptions.openSockets[number] = channel
            return number
        }
    }

    func closeGraphQLSocket(_ number: Int) {
        _ = self.withValues { $0.graphQLSubscriptions.openSockets.removeValue(forKey: number) }
    }
}
