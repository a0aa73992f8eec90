import Foundation
@_spi(PrismInternals) import PrismHTTP
import PrismSupport

/// A WebSocket client on a network client's pipeline: the upgrade request goes through the
/// client's interceptors and authenticator, the connection uses its TLS settings and pins, and
/// what happens is logged with its logger, secrets redacted.
///
/// ```swift
/// let socket = PrismWebSocket(url: URL(string: "wss://chat.example.com/live")!, client: client)
/// Task {
///     for try await event in socket.events {
///         if case .message(.text(let text)) = event { print(text) }
///     }
/// }
/// try await socket.send(.text("hello"))
/// socket.close()
/// ```
///
/// Reading ``events`` opens the socket. A connection that is lost (no close frame, a ping left
/// unanswered, a server going away) is opened again as the configuration's reconnect policy
/// says; ``events`` reports each `disconnected` and `connected` between the messages, and goes on.
/// It ends after ``close(code:reason:)`` or the server's normal close, and throws a
/// ``PrismWebSocketError`` when the socket ends otherwise. Cancelling the task that reads it
/// closes the socket (`goingAway`).
///
/// Messages wait for the app in a bounded buffer
/// (``PrismWebSocketConfiguration/maximumBufferedMessages``); while it is full the socket stops
/// reading and the server's sends wait in TCP. ``send(_:)-(PrismWebSocketMessage)`` returns once the message is handed to
/// the connection, waiting while the connection cannot take more.
public final class PrismWebSocket: Sendable {
    /// The socket's URL (`ws`, `wss`; `http` and `https` are taken as `ws` and `wss`).
    public let url: URL
    /// How it connects, holds, pings and reconnects.
    public let configuration: PrismWebSocketConfiguration

    private let client: any PrismNetworkClient
    private let queue: EventQueue
    private let current = PrismLocked<WebSocketSession?>(nil)
    private let driver = PrismLocked(Driver())

    private struct Driver {
        var post: AsyncStream<WebSocketStateMachine.Event>.Continuation?
        var started = false
        var closed = false
    }

    /// Creates a socket to `url` whose upgrade request `client` prepares (its interceptors,
    /// authenticator, TLS settings and logger). Nothing opens until ``events`` is read.
    public init(
        url: URL, client: any PrismNetworkClient, configuration: PrismWebSocketConfiguration = .init()
    ) {
        self.url = WebSocketURL.derived(from: url) ?? url
        self.client = client
        self.configuration = configuration
        let driver = self.driver
        self.queue = EventQueue(limit: configuration.maximumBufferedMessages) {
            driver.withLock { $0.post }?.yield(.closeRequested(code: .goingAway, reason: ""))
        }
    }

    deinit {
        driver.withLock { $0.post }?.yield(.closeRequested(code: .goingAway, reason: ""))
    }

    /// Everything the socket reports, in order: each connection, each message, each lost
    /// connection and the close. Reading it opens the socket; read it from one task.
    public var events: Events { Events(socket: self) }

    /// The events of a ``PrismWebSocket``.
    public struct Events: AsyncSequence, Sendable {
        /// What the socket reports.
        public typealias Element = PrismWebSocketEvent
        let socket: PrismWebSocket

        /// An iterator over the socket's events (read them from one task).
        public func makeAsyncIterator() -> Iterator {
            Iterator(socket: socket)
        }

        /// Reads the socket's events.
        public struct Iterator: AsyncIteratorProtocol {
            let socket: PrismWebSocket

            /// The next event; nil once the socket closed normally, or when the reading task is
            /// cancelled.
            ///
            /// - Throws: The ``PrismWebSocketError`` that ended the socket.
            public mutating func next() async throws -> PrismWebSocketEvent? {
                socket.start()
                return try await socket.queue.next()
            }
        }
    }

    /// Sends `message` on the open connection, once the connection can take it.
    ///
    /// - Throws: ``PrismWebSocketError`` with code `notConnected` while no connection is open
    ///   (before the first, or between a lost one and the next: watch ``events`` for
    ///   `connected`), or `closed` after the socket ended. Nothing is sent then.
    public func send(_ message: PrismWebSocketMessage) async throws(PrismWebSocketError) {
        if driver.withLock({ $0.closed }) {
            throw PrismWebSocketError(code: .closed, message: "The WebSocket was closed: nothing was sent.", url: url)
        }
        guard let session = current.withLock({ $0 }) else {
            throw PrismWebSocketError(
                code: .notConnected, message: "No WebSocket connection is open: nothing was sent.", url: url)
        }
        try await session.write(.message(message))
    }

    /// Sends `text` as a text message (see ``send(_:)-(PrismWebSocketMessage)``).
    public func send(_ text: String) async throws(PrismWebSocketError) {
        try await send(.text(text))
    }

    /// Sends `data` as a binary message (see ``send(_:)-(PrismWebSocketMessage)``).
    public func send(_ data: Data) async throws(PrismWebSocketError) {
        try await send(.binary(data))
    }

    /// Sends a ping and returns when its pong comes back: a round trip to the server, or a check
    /// that it still answers. (The socket also pings on its own, every
    /// ``PrismWebSocketConfiguration/pingInterval``.)
    ///
    /// - Throws: ``PrismWebSocketError`` with code `notConnected` when no connection is open or
    ///   the connection ends before the pong, `closed` after the socket ended;
    ///   `CancellationError` when the calling task is cancelled first.
    public func ping() async throws {
        if driver.withLock({ $0.closed }) {
            throw PrismWebSocketError(code: .closed, message: "The WebSocket was closed: no ping was sent.", url: url)
        }
        guard let session = current.withLock({ $0 }) else {
            throw PrismWebSocketError(
                code: .notConnected, message: "No WebSocket connection is open: no ping was sent.", url: url)
        }
        try await session.ping()
    }

    /// Closes the socket: sends a close frame with `code` and `reason` (at most 120 bytes of it)
    /// on an open connection, and ends ``events`` with ``PrismWebSocketEvent/closed(code:reason:)``
    /// once the server answers (or after ``PrismWebSocketConfiguration/closeTimeout``). A
    /// connection being opened or waited for is abandoned. Later sends throw `closed`.
    public func close(code: PrismWebSocketCloseCode = .normalClosure, reason: String = "") {
        let post = driver.withLock { driver in
            driver.closed = true
            return driver.post
        }
        if let post {
            post.yield(.closeRequested(code: code, reason: reason))
        } else {
            queue.append(.closed(code: code, reason: reason))
            queue.finish(nil)
        }
    }

    /// Starts the driver, once.
    private func start() {
        let continuation = driver.withLock { driver -> AsyncStream<WebSocketStateMachine.Event>.Continuation? in
            guard !driver.started, !driver.closed else { return nil }
            driver.started = true
            let (events, continuation) = AsyncStream<WebSocketStateMachine.Event>.makeStream()
            driver.post = continuation
            let context = WebSocketContext(
                url: url, client: client, configuration: configuration, queue: queue, post: continuation,
                current: current)
            Task { await WebSocketDriver(context: context).run(events) }
            return continuation
        }
        continuation?.yield(.start)
    }
}
