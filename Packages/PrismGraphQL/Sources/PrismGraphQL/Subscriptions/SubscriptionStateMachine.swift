import Foundation
import PrismHTTP

/// Everything a client's subscription connection knows, as one value: which socket is in which
/// phase, who is subscribed, whether the server acknowledged and answers pings, how many
/// reconnect attempts ran and whether the credentials were refreshed. It takes an ``Event``
/// (something happened) and returns the ``Action``s to carry out; it never waits, opens or
/// writes anything itself. ``SubscriptionDriver`` feeds it from one task.
///
/// | phase | socket opened | acknowledged | socket lost | timer | last subscriber gone |
/// |---|---|---|---|---|---|
/// | idle | - | - | - | - | - |
/// | connecting | send init, initializing | - | lost: reconnect, refresh or fail | acknowledgement: abandon (lost) | abandon, idle |
/// | initializing | - | subscribe all, ready | lost | acknowledgement: close 4504, fail all | close, closing |
/// | ready | - | (ignored) | lost | keep-alive: ping, or lost without pong; stable: attempts start again | linger, then close, closing |
/// | waiting | - | - | - | reconnect: connecting | cancel, idle |
/// | refreshing | - | - | - | - | (the refresh ends first) |
/// | closing | - | - | idle, or connecting if someone subscribed meanwhile | - | - |
///
/// A socket that fails for good (a protocol violation, a refusal, the policy gave up) ends every
/// subscription with the error; the machine is idle again and the next subscription opens a new
/// socket.
struct SubscriptionStateMachine {
    /// What the machine needs of the configuration.
    struct Settings {
        var endpointURL: URL
        var webSocketURL: URL?
        var acknowledgementTimeout: Duration
        var keepAliveInterval: Duration?
        var stableInterval: Duration
        var linger: Duration
        var reconnectPolicy: (any PrismRetryPolicy)?
    }

    /// One subscription: its `subscribe` message and operation name.
    struct Subscriber: Equatable {
        var message: String
        var operationName: String?
    }

    enum Phase: Equatable {
        case idle
        /// TCP, TLS and the upgrade of `socket` under way; the acknowledgement timer runs.
        case connecting(socket: Int)
        /// `socket` is open and `connection_init` sent; the acknowledgement timer runs.
        case initializing(socket: Int)
        /// `socket` is acknowledged: subscriptions are sent on it.
        case ready(socket: Int)
        /// The client closes `socket` (nothing subscribed, or it failed): waiting for it to end.
        case closing(socket: Int)
        /// Waiting to reconnect.
        case waiting
        /// Waiting for the credentials to be refreshed.
        case refreshing
    }

    enum Timer: Hashable {
        case acknowledgement(socket: Int)
        case keepAlive(socket: Int)
        case stable(socket: Int)
        case reconnect
        case linger
    }

    /// What the server sent on a socket, parsed (``GraphQLTransportWS/parse(_:)``).
    enum Inbound: Equatable {
        case acknowledged
        case ping
        case pong
        case next(id: String, message: Data)
        /// An `error` message; nil errors when its payload is not a list of GraphQL errors.
        case error(id: String, errors: [PrismGraphQLResponseError]?)
        case complete(id: String)
        /// Something the protocol does not allow, and why.
        case invalid(String)
    }

    /// Why a socket could not be opened.
    enum OpenFailure {
        /// The upgrade request could not be prepared (the network client threw): for good.
        case preparation(PrismGraphQLError)
        /// The upgrade was answered with this status.
        case refused(status: Int)
        /// The server upgraded without choosing `graphql-transport-ws`.
        case subprotocol(String?)
        /// The socket was abandoned (by the acknowledgement timer, or because nothing is
        /// subscribed any more).
        case abandoned
        /// Anything else on the way: no connection, TLS, a reset.
        case transport(PrismHTTPError)
    }

    /// How an open socket ended.
    enum SocketEnd {
        /// The server's close frame, with its code.
        case closed(code: Int?)
        /// The connection ended without a close frame, or failed (a reset, a read error).
        case dropped(PrismHTTPError)
        /// The WebSocket layer refused what the server sent (a frame too large, a bad frame).
        case protocolError(String)
    }

    enum Event {
        case subscribed(id: String, Subscriber)
        /// The client's stream of `id` ended (finished, cancelled).
        case unsubscribed(id: String)
        /// An event of `id` could not be delivered (it did not decode, the consumer is behind).
        case deliveryFailed(id: String, PrismGraphQLError)
        case socketOpened(socket: Int, credential: String?)
        case socketOpenFailed(socket: Int, OpenFailure)
        case received(socket: Int, Inbound)
        case socketEnded(socket: Int, SocketEnd)
        case timerFired(Timer)
        /// The credentials were renewed (`true`), or there was nothing to renew (`false`), or
        /// renewing failed.
        case refreshed(Result<Bool, any Error>)
    }

    enum Action {
        /// Prepare the upgrade request through the network client, open `socket`, send
        /// `connection_init`, then report what the server sends.
        case open(socket: Int)
        /// Give up opening `socket` (close its channel).
        case abandon(socket: Int)
        case send(socket: Int, String)
        case close(socket: Int, code: Int, reason: String)
        case schedule(Timer, Duration)
        case cancel(Timer)
        case deliver(id: String, message: Data)
        /// End the stream of `id`: normally with nil, else with the error.
        case finish(id: String, PrismGraphQLError?)
        case refresh(credential: String?)
        case log(Log)
    }

    /// A log line, at `.debug` unless it says `.warning`.
    struct Log: Equatable {
        var warning = false
        var message: String
        var metadata: [String: String] = [:]
    }

    let settings: Settings
    var phase = Phase.idle
    var subscribers: [String: Subscriber] = [:]
    /// The highest id a subscription got: a message for an id up to it whose subscription ended
    /// crossed the client's `complete`, and is dropped.
    var lastID = 0
    var lastSocket = 0
    /// Consecutive sockets lost: starts again after a stable one.
    var attempt = 0
    /// Whether the credentials were refreshed since the last stable socket.
    var refreshed = false
    /// The current socket: its credential, and what happened on it.
    var credential: String?
    var awaitingPong = false
    var stable = false
    var upgradeTimedOut = false
    /// Why the client closes the current socket, when it is not because nothing is subscribed:
    /// a failure that ends every subscription, or a loss to reconnect from.
    var closeReason: CloseReason?
    /// The refusal a refresh answers: it stands when the refresh fails or renews nothing.
    var pendingRefusal: PrismGraphQLError?

    enum CloseReason {
        case failure(PrismGraphQLError)
        case lost(PrismHTTPError)
    }

    init(settings: Settings) {
        self.settings = settings
    }

    // MARK: Events

    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .subscribed(let id, let subscriber): subscribed(id, subscriber)
        case .unsubscribed(let id): removed(id, completing: true, finish: nil)
        case .deliveryFailed(let id, let error): removed(id, completing: true, finish: error)
        case .socketOpened(let socket, let credential): opened(socket, credential: credential)
        case .socketOpenFailed(let socket, let failure): openFailed(socket, failure)
        case .received(let socket, let inbound): received(inbound, on: socket)
        case .socketEnded(let socket, let end): ended(socket, end)
        case .timerFired(let timer): fired(timer)
        case .refreshed(let result): refreshFinished(result)
        }
    }

    mutating func subscribed(_ id: String, _ subscriber: Subscriber) -> [Action] {
        subscribers[id] = subscriber
        if let number = Int(id) { lastID = max(lastID, number) }
        var actions: [Action] = [.cancel(.linger)]
        switch phase {
        case .idle: actions += connect()
        case .ready(let socket): actions.append(.send(socket: socket, subscriber.message))
        // Sent when the socket is acknowledged (a closing one is followed by a new one).
        case .connecting, .initializing, .closing, .waiting, .refreshing: break
        }
        return actions
    }

    /// Removes `id` (the client's stream ended, or its event could not be delivered): the server
    /// is told with `complete` when it knows it, and the stream is finished when `finish` says.
    mutating func removed(_ id: String, completing: Bool, finish error: PrismGraphQLError?) -> [Action] {
        guard subscribers.removeValue(forKey: id) != nil else { return [] }
        var actions: [Action] = []
        if completing, case .ready(let socket) = phase {
            actions.append(.send(socket: socket, GraphQLTransportWS.complete(id: id)))
        }
        if let error { actions.append(.finish(id: id, error)) }
        actions.append(.log(Log(message: "GraphQL subscription \(id) completed by the client")))
        return actions + (subscribers.isEmpty ? becameUnused() : [])
    }

    /// Nothing is subscribed any more: after the linger, the socket is closed.
    mutating func becameUnused() -> [Action] {
        if settings.linger > .zero, case .ready = phase { return [.schedule(.linger, settings.linger)] }
        return closeUnused()
    }

    mutating func closeUnused() -> [Action] {
        guard subscribers.isEmpty else { return [] }
        switch phase {
        case .ready(let socket), .initializing(let socket):
            phase = .closing(socket: socket)
            closeReason = nil
            return cancelSocketTimers(socket) + [.close(socket: socket, code: 1000, reason: "")]
        case .connecting(let socket):
            phase = .closing(socket: socket)
            closeReason = nil
            return [.cancel(.acknowledgement(socket: socket)), .abandon(socket: socket)]
        case .waiting:
            phase = .idle
            return [.cancel(.reconnect)]
        case .idle, .closing, .refreshing:
            return []
        }
    }

    // MARK: Sockets

    /// Opens the next socket; the acknowledgement timer runs from its first byte.
    mutating func connect() -> [Action] {
        lastSocket += 1
        let socket = lastSocket
        phase = .connecting(socket: socket)
        credential = nil
        awaitingPong = false
        stable = false
        upgradeTimedOut = false
        closeReason = nil
        return [.open(socket: socket), .schedule(.acknowledgement(socket: socket), settings.acknowledgementTimeout)]
    }

    mutating func opened(_ socket: Int, credential: String?) -> [Action] {
        guard case .connecting(socket) = phase else { return [] }
        self.credential = credential
        phase = .initializing(socket: socket)
        return []
    }

    mutating func openFailed(_ socket: Int, _ failure: OpenFailure) -> [Action] {
        guard phase == .connecting(socket: socket) || phase == .closing(socket: socket) else { return [] }
        var actions: [Action] = [.cancel(.acknowledgement(socket: socket))]
        if case .closing = phase {
            // Abandoned because nothing is subscribed (or someone subscribed again meanwhile).
            phase = .idle
            return actions + (subscribers.isEmpty ? [] : connect())
        }
        switch failure {
        case .preparation(let error):
            actions += failAll(error)
        case .refused(let status):
            var refusal = PrismGraphQLError(
                code: .subscriptionRejected,
                message: "The server refused the subscriptions' WebSocket upgrade with HTTP \(status).",
                url: settings.endpointURL)
            refusal.statusCode = status
            switch status {
            case 401, 403:
                actions += unauthorized(refusal)
            case 408, 429, 500...599:
                actions += lost(
                    PrismHTTPError(
                        code: .unacceptableStatus, message: refusal.message, url: settings.webSocketURL,
                        method: .get, statusCode: status))
            default:
                actions += failAll(refusal)
            }
        case .subprotocol(let chosen):
            actions += failAll(
                violation(
                    "The server upgraded without choosing the \(GraphQLTransportWS.subprotocol) subprotocol (it chose "
                        + "\(chosen.map { "\"\($0)\"" } ?? "none")).", closeCode: nil))
        case .abandoned where upgradeTimedOut:
            actions += lost(
                PrismHTTPError(
                    code: .timedOut,
                    message:
                        "The server did not answer the subscriptions' WebSocket upgrade within \(settings.acknowledgementTimeout).",
                    url: settings.webSocketURL, method: .get))
        case .abandoned:
            phase = .idle
            if !subscribers.isEmpty { actions += connect() }
        case .transport(let error):
            actions += lost(error)
        }
        return actions
    }

    mutating func ended(_ socket: Int, _ end: SocketEnd) -> [Action] {
        switch phase {
        case .initializing(socket), .ready(socket), .closing(socket): break
        default: return []
        }
        let actions = cancelSocketTimers(socket)
        if case .closing = phase {
            switch closeReason {
            case .failure(let error): return actions + failAll(error)
            case .lost(let error): return actions + lost(error)
            case nil:
                phase = .idle
                return actions + (subscribers.isEmpty ? [] : connect())
            }
        }
        switch end {
        case .dropped(let error):
            return actions + lost(error)
        case .protocolError(let message):
            return actions + failAll(violation(message, closeCode: nil))
        case .closed(let code):
            guard let code else {
                return actions + lost(lostError("The server closed the subscriptions' WebSocket without a close code."))
            }
            switch GraphQLTransportWS.meaning(ofClose: code) {
            case .reconnect:
                return actions + lost(lostError("The server closed the subscriptions' WebSocket (code \(code))."))
            case .protocolViolation:
                return actions
                    + failAll(
                        violation(
                            "The server closed the WebSocket with code \(code): the protocol exchange went wrong.",
                            closeCode: code))
            case .rejected:
                var error = PrismGraphQLError(
                    code: .subscriptionRejected,
                    message: "The server refused the subscriptions' connection (close code \(code)).",
                    url: settings.endpointURL)
                error.closeCode = code
                return actions + failAll(error)
            case .unauthorized:
                var error = PrismGraphQLError(
                    code: .subscriptionRejected,
                    message: "The server refused the subscriptions' credentials (close code \(code)).",
                    url: settings.endpointURL)
                error.closeCode = code
                return actions + unauthorized(error)
            }
        }
    }

    func cancelSocketTimers(_ socket: Int) -> [Action] {
        [
            .cancel(.acknowledgement(socket: socket)), .cancel(.keepAlive(socket: socket)),
            .cancel(.stable(socket: socket)),
        ]
    }

    // MARK: Timers

    mutating func fired(_ timer: Timer) -> [Action] {
        switch timer {
        case .acknowledgement(let socket):
            switch phase {
            case .connecting(socket):
                upgradeTimedOut = true
                return [.abandon(socket: socket)]
            case .initializing(socket):
                let timeout = PrismGraphQLError(
                    code: .connectionAckTimeout,
                    message:
                        "The server did not acknowledge connection_init within \(settings.acknowledgementTimeout).",
                    url: settings.endpointURL)
                return closeForFailure(
                    timeout, socket: socket, code: GraphQLTransportWS.ClientClose.acknowledgementTimeout,
                    reason: "Connection acknowledgement timeout")
            default:
                return []
            }
        case .keepAlive(let socket):
            guard case .ready(socket) = phase, let interval = settings.keepAliveInterval else { return [] }
            guard !awaitingPong else {
                phase = .closing(socket: socket)
                closeReason = .lost(lostError("The server did not answer a ping."))
                return cancelSocketTimers(socket) + [
                    .close(socket: socket, code: 1001, reason: "No pong"),
                    .log(
                        Log(
                            warning: true,
                            message: "GraphQL subscriptions: no pong within \(interval), closing the socket")),
                ]
            }
            awaitingPong = true
            return [.send(socket: socket, GraphQLTransportWS.ping), .schedule(.keepAlive(socket: socket), interval)]
        case .stable(let socket):
            if case .ready(socket) = phase { stable = true }
            return []
        case .reconnect:
            guard phase == .waiting else { return [] }
            guard !subscribers.isEmpty else {
                phase = .idle
                return []
            }
            return connect()
        case .linger:
            return closeUnused()
        }
    }

}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
    }
}
