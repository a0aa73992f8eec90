import Foundation
import PrismHTTP
import PrismSupport

/// One WebSocket of a client's subscriptions, as the driver holds it: what it writes goes
/// through ``send(_:)`` and ``close(code:reason:)``, in order, and everything it sees (opened,
/// each message, how it ended) is posted to the driver as an event. It decides nothing: the
/// state machine does.
final class SubscriptionSocket: Sendable {
    /// What the socket's writer sends.
    enum Outgoing: Sendable {
        case text(String)
        /// A close frame with this code and reason; the connection ends after it.
        case close(code: Int, reason: String)
    }

    let number: Int
    let settings: SubscriptionSettings
    let post: AsyncStream<SubscriptionDriver.Input>.Continuation
    let outgoing: AsyncStream<Outgoing>
    private let writer: AsyncStream<Outgoing>.Continuation
    private let state = PrismLocked(State())

    /// A socket that opens nothing yet (``open(number:settings:post:)`` opens one; a test drives
    /// the write queue alone).
    init(number: Int, settings: SubscriptionSettings, post: AsyncStream<SubscriptionDriver.Input>.Continuation) {
        self.number = number
        self.settings = settings
        self.post = post
        (outgoing, writer) = AsyncStream<Outgoing>.makeStream()
    }

    /// Opens socket `number` in a task of its own: prepare, connect, upgrade, `connection_init`,
    /// then read until it ends.
    static func open(
        number: Int, settings: SubscriptionSettings, post: AsyncStream<SubscriptionDriver.Input>.Continuation
    ) -> SubscriptionSocket {
        let socket = SubscriptionSocket(number: number, settings: settings, post: post)
        let task = Task { await socket.run() }
        socket.state.withLock { $0.task = task }
        return socket
    }

    /// Queues `text`. At most one pong waits to be written: a server that floods pings while not
    /// reading cannot fill memory with answers.
    func send(_ text: String) {
        if text == GraphQLTransportWS.pong {
            let queued = state.withLock { state -> Bool in
                defer { state.pongQueued = true }
                return state.pongQueued
            }
            if queued { return }
        }
        writer.yield(.text(text))
    }

    /// Called by the writer as it writes a pong.
    func pongWritten() {
        state.withLock { $0.pongQueued = false }
    }

    /// Sends a close frame; the connection ends after it.
    func close(code: Int, reason: String) {
        writer.yield(.close(code: code, reason: reason))
        writer.finish()
    }

    /// Gives up opening the socket.
    func abandon() {
        state.withLock { $0.abandoned = true }
        abort()
    }

    /// The driver is gone (so is the client): close whatever stage the socket is in.
    func shutDown() {
        close(code: 1000, reason: "")
        abandon()
    }

    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Reports `event` to the driver.
    func report(_ event: SubscriptionStateMachine.Event) {
        post.yield(.event(event))
    }

    /// The socket's mutable parts, behind its lock.
    private struct State {
        var task: Task<Void, Never>?
        var pongQueued = false
        var abandoned = false
        /// Closes the connection being opened (the transport's own abort).
        var abort: (@Sendable () -> Void)?
    }

    /// Closes the connection being opened, or the open one.
    private func abort() {
        state.withLock { $0.abort }?()
    }

    /// Sets what ``abandon()`` calls; called at once when the socket was already abandoned.
    func onAbort(_ abort: @escaping @Sendable () -> Void) {
        let abandoned = state.withLock { state -> Bool in
            state.abort = abort
            return state.abandoned
        }
        if abandoned { abort() }
    }
}
