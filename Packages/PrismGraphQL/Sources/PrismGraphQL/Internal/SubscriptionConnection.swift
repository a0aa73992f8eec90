import Foundation
import Logging
import PrismHTTP

/// The one WebSocket a client's subscriptions share, multiplexed by id.
///
/// The first subscription starts a session (a task that connects, and reconnects as the policy
/// says while subscriptions remain); each later one is sent on the acknowledged socket, or when
/// the next socket is acknowledged. The last one to end closes the socket (after the linger).
/// State lives behind a lock, so that a stream's termination handler, which cannot wait, can
/// send `complete` at once and in order.
final class SubscriptionConnection: @unchecked Sendable {
    /// One subscription: its `subscribe` message, and where its events go.
    struct Subscriber: Sendable {
        var operationName: String?
        /// The `subscribe` message, sent on every socket that is acknowledged while it lasts.
        var message: String
        /// Yields a `next` message's bytes; returns an error when its payload does not decode.
        var next: @Sendable (Data) -> PrismGraphQLError?
        /// Ends the stream: normally with nil, else with the error.
        var finish: @Sendable (PrismGraphQLError?) -> Void
    }

    /// What the socket's writer sends.
    enum Outgoing: Sendable {
        case text(String)
        /// Close with this code and reason (the exchange failed: a violation, a timeout).
        case close(code: Int, reason: String)
        /// Close normally: nothing is subscribed any more.
        case finish
    }

    /// Where a message for an id goes.
    enum Route {
        case active(Subscriber)
        /// An id the client used, whose subscription ended (a message that crossed `complete`).
        case ended
        /// An id the client never used.
        case unknown
    }

    private struct State {
        var subscribers: [String: Subscriber] = [:]
        var lastID = 0
        var session: Task<Void, Never>?
        /// The writer of the acknowledged socket, and that socket's number.
        var outgoing: (socket: Int, continuation: AsyncStream<Outgoing>.Continuation)?
        var lingering: Task<Void, Never>?
        var sockets = 0
    }

    let settings: SubscriptionSettings
    private let lock = NSLock()
    private var state = State()

    init(settings: SubscriptionSettings) {
        self.settings = settings
    }

    var logger: Logger? { settings.logger }

    // MARK: Subscribers

    /// A new subscription id: "1", "2", ...
    func makeID() -> String {
        lock.withLock {
            state.lastID += 1
            return String(state.lastID)
        }
    }

    /// Adds a subscription: sends it on the acknowledged socket, or starts a session.
    func add(_ id: String, _ subscriber: Subscriber) {
        lock.withLock {
            state.subscribers[id] = subscriber
            state.lingering?.cancel()
            state.lingering = nil
            if let outgoing = state.outgoing {
                outgoing.continuation.yield(.text(subscriber.message))
            }
            if state.session == nil { startSessionLocked() }
        }
        logger?.debug(
            "GraphQL subscription \(id) started",
            metadata: ["operation": "\(subscriber.operationName ?? "-")"])
    }

    /// Ends subscription `id` from the client's side (its stream was cancelled or finished):
    /// sends `complete` when the server knows it.
    func remove(_ id: String) {
        let removed = lock.withLock { () -> Bool in
            guard state.subscribers.removeValue(forKey: id) != nil else { return false }
            state.outgoing?.continuation.yield(.text(GraphQLTransportWS.complete(id: id)))
            if state.subscribers.isEmpty { scheduleIdleCloseLocked() }
            return true
        }
        if removed { logger?.debug("GraphQL subscription \(id) completed by the client") }
    }

    /// Removes subscription `id` because the server ended it (`complete`, `error`) or its event
    /// did not decode (`sendComplete`), and returns it.
    func end(_ id: String, sendComplete: Bool) -> Subscriber? {
        lock.withLock {
            guard let subscriber = state.subscribers.removeValue(forKey: id) else { return nil }
            if sendComplete { state.outgoing?.continuation.yield(.text(GraphQLTransportWS.complete(id: id))) }
            if state.subscribers.isEmpty { scheduleIdleCloseLocked() }
            return subscriber
        }
    }

    /// Where a message for `id` goes.
    func route(_ id: String) -> Route {
        lock.withLock {
            if let subscriber = state.subscribers[id] { return .active(subscriber) }
            if let number = Int(id), String(number) == id, number >= 1, number <= state.lastID { return .ended }
            return .unknown
        }
    }

    /// Ends every subscription with `error` (its operation name filled in).
    func failAll(_ error: PrismGraphQLError) {
        let subscribers = lock.withLock { () -> [Subscriber] in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers {
            var error = error
            error.operationName = subscriber.operationName
            subscriber.finish(error)
        }
    }

    // MARK: Sockets

    /// A number for the next socket.
    func nextSocket() -> Int {
        lock.withLock {
            state.sockets += 1
            return state.sockets
        }
    }

    /// Socket `socket` is acknowledged: it becomes the writer of every message, and every
    /// subscription is sent on it (again, after a reconnect). Returns false when nothing is
    /// subscribed any more (the socket is then closed).
    func acknowledged(socket: Int, _ continuation: AsyncStream<Outgoing>.Continuation) -> Bool {
        lock.withLock {
            guard !state.subscribers.isEmpty else {
                continuation.yield(.finish)
                return false
            }
            state.outgoing = (socket, continuation)
            for (_, subscriber) in state.subscribers.sorted(by: { Int($0.key) ?? 0 < Int($1.key) ?? 0 }) {
                continuation.yield(.text(subscriber.message))
            }
            return true
        }
    }

    /// Socket `socket` is gone: nothing is written to it any more.
    func socketEnded(_ socket: Int) {
        lock.withLock {
            if state.outgoing?.socket == socket {
                state.outgoing?.continuation.finish()
                state.outgoing = nil
            }
        }
    }

    /// Whether the session should stop: nothing is subscribed. It then forgets the session (a
    /// cancelled session that still has subscribers hands them to a new one).
    func sessionShouldEnd(cancelled: Bool) -> Bool {
        lock.withLock {
            guard state.subscribers.isEmpty || cancelled else { return false }
            state.session = nil
            state.outgoing = nil
            if !state.subscribers.isEmpty { startSessionLocked() }
            return true
        }
    }

    /// Whether anything is subscribed.
    var hasSubscribers: Bool {
        lock.withLock { !state.subscribers.isEmpty }
    }

    private func startSessionLocked() {
        state.session = Task { await SubscriptionSession(connection: self).run() }
    }

    /// Closes the socket after the linger, if nothing was subscribed meanwhile.
    private func scheduleIdleCloseLocked() {
        let linger = settings.configuration.linger
        guard linger > .zero else { return closeIdleLocked() }
        let sleep = settings.configuration.sleep
        state.lingering?.cancel()
        state.lingering = Task { [weak self] in
            do { try await sleep(linger) } catch { return }
            guard let self else { return }
            self.lock.withLock { self.closeIdleLocked() }
        }
    }

    private func closeIdleLocked() {
        guard state.subscribers.isEmpty, let session = state.session else { return }
        if let outgoing = state.outgoing {
            // Acknowledged: close the socket normally; the session ends when it has closed.
            outgoing.continuation.yield(.finish)
            state.outgoing = nil
        } else {
            // Connecting, or waiting to reconnect: stop.
            session.cancel()
        }
    }
}
