import Foundation
import Logging
@_spi(PrismInternals) import PrismHTTP
import PrismSupport

/// What a socket's connections share with the socket: where they report to the driver, the queue
/// their messages go to, and which of them is open for the app's sends.
struct WebSocketContext: Sendable {
    let url: URL
    let client: any PrismNetworkClient
    let configuration: PrismWebSocketConfiguration
    let queue: EventQueue
    let post: AsyncStream<WebSocketStateMachine.Event>.Continuation
    let current: PrismLocked<WebSocketSession?>

    var logger: Logger? { client.logger }
    var redactedURL: String { PrismHTTPRedaction.redact(url) }
}

/// One connection of a ``PrismWebSocket``: prepare the upgrade request, open, then read until it
/// ends, delivering messages to the queue and reporting to the driver (opened, each pong, the
/// end). It decides nothing: the state machine does.
final class WebSocketSession: Sendable {
    let number: Int
    let context: WebSocketContext
    private let state = PrismLocked(State())

    private struct State {
        var task: Task<Void, Never>?
        var aborted = false
        /// Closes what is being opened, or the open channel.
        var abort: (@Sendable () -> Void)?
        /// Writes a frame on the open connection.
        var write: (@Sendable (Outgoing) async throws -> Void)?
        /// Whether the client has sent its close frame.
        var closeSent = false
        /// The app's pings waiting for their pongs, by payload.
        var pings: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var lastPing: UInt64 = 0
        /// Whether the connection ended (a ping then fails at once).
        var ended = false
    }

    /// What the app and the driver write.
    enum Outgoing: Sendable {
        case message(PrismWebSocketMessage)
        case ping(UInt64)
        case close(PrismWebSocketCloseCode, reason: String)
    }

    init(number: Int, context: WebSocketContext) {
        self.number = number
        self.context = context
    }

    /// Opens connection `number` in a task of its own.
    static func start(number: Int, context: WebSocketContext) -> WebSocketSession {
        let session = WebSocketSession(number: number, context: context)
        let task = Task { await session.run() }
        session.state.withLock { $0.task = task }
        return session
    }

    /// Abandons the connection at whatever stage it is: the open fails, or the reading ends.
    func abort() {
        let (abort, task) = state.withLock { state in
            state.aborted = true
            state.write = nil
            return (state.abort, state.task)
        }
        abort?()
        task?.cancel()
    }

    var isAborted: Bool { state.withLock { $0.aborted } }

    /// Sets what ``abort()`` calls; calls it at once when the session was already aborted.
    func onAbort(_ abort: @escaping @Sendable () -> Void) {
        let aborted = state.withLock { state -> Bool in
            state.abort = abort
            return state.aborted
        }
        if aborted { abort() }
    }

    /// Writes `outgoing` on the open connection.
    ///
    /// - Throws: `notConnected` when the connection is not open (or no longer).
    func write(_ outgoing: Outgoing) async throws(PrismWebSocketError) {
        let write = state.withLock { state -> (@Sendable (Outgoing) async throws -> Void)? in
            guard !state.closeSent else { return nil }
            if case .close = outgoing { state.closeSent = true }
            return state.write
        }
        guard let write else { throw notConnected() }
        do {
            try await write(outgoing)
        } catch {
            var failure = notConnected()
            failure.message = "The message could not be written: the connection was lost."
            failure.underlying = error
            throw failure
        }
    }

    /// Sets the writer of the open connection (nil once it ends).
    func setWriter(_ write: (@Sendable (Outgoing) async throws -> Void)?) {
        state.withLock { state in
            state.write = state.aborted ? nil : write
        }
    }

    var closeSent: Bool { state.withLock { $0.closeSent } }

    /// The payloads of the app's pings have their top bit set; the keep-alive's do not.
    static let appPing: UInt64 = 1 << 63

    /// Sends a ping of the app's and waits for its pong.
    func ping() async throws {
        let id = state.withLock { state -> UInt64 in
            state.lastPing &+= 1
            return Self.appPing | state.lastPing
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ended = state.withLock { state -> Bool in
                    if state.ended || Task.isCancelled { return true }
                    state.pings[id] = continuation
                    return false
                }
                if ended { return continuation.resume(throwing: notConnected()) }
                Task {
                    do {
                        try await write(.ping(id))
                    } catch {
                        state.withLock { $0.pings.removeValue(forKey: id) }?.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            state.withLock { $0.pings.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    /// A pong came with `payload`: the app's ping that carried it, if any, is answered.
    func pongReceived(_ payload: UInt64?) {
        guard let payload else { return }
        state.withLock { $0.pings.removeValue(forKey: payload) }?.resume()
    }

    /// The connection ended: the app's pings still waiting fail.
    func ended() {
        let waiting = state.withLock { state in
            state.ended = true
            defer { state.pings = [:] }
            return Array(state.pings.values)
        }
        for ping in waiting { ping.resume(throwing: notConnected()) }
    }

    func notConnected() -> PrismWebSocketError {
        PrismWebSocketError(
            code: .notConnected, message: "No WebSocket connection is open: nothing was sent.", url: context.url)
    }

    func report(_ event: WebSocketStateMachine.Event) {
        context.post.yield(event)
    }

    func log(_ message: @autoclosure () -> String, metadata: Logger.Metadata = [:]) {
        guard let logger = context.logger else { return }
        var metadata = metadata
        metadata["url"] = "\(context.redactedURL)"
        logger.debug("\(message())", metadata: metadata)
    }
}
