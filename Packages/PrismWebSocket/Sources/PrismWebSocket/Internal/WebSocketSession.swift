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
