import Foundation
import PrismHTTP

/// Why a ``PrismWebSocket`` ended, or why a message could not be sent: a code, a message, and
/// what the server said (its status, header fields and close code) where it said something.
///
/// ```swift
/// do {
///     for try await event in socket.events { ... }
/// } catch where error.code == .upgradeRefused {
///     print(error.statusCode ?? 0)
/// }
/// ```
public struct PrismWebSocketError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added: switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// The URL is not an absolute `ws`, `wss`, `http` or `https` URL with a host. Nothing was
        /// sent.
        public static let invalidURL = Code("invalidURL")
        /// The upgrade request could not be prepared: an interceptor or the authenticator threw,
        /// or the request failed the client's checks (``PrismWebSocketError/underlying``).
        public static let requestFailed = Code("requestFailed")
        /// The TLS settings could not be used, or the server's key did not pass the host's pins
        /// (``PrismWebSocketError/underlying`` is the `PrismHTTPError`).
        public static let tlsFailed = Code("tlsFailed")
        /// The server answered the upgrade with another status than 101 (see
        /// ``PrismWebSocketError/statusCode`` and ``PrismWebSocketError/headers``), and the reconnect
        /// policy did not try again.
        public static let upgradeRefused = Code("upgradeRefused")
        /// The server chose a subprotocol that was not asked for, or none when one was required.
        public static let subprotocolRefused = Code("subprotocolRefused")
        /// The connection could not be opened, or was lost (no close frame, or an unresponsive
        /// peer: see ``PrismWebSocketError/message``), and the reconnect policy gave up.
        public static let connectionLost = Code("connectionLost")
        /// The server answered no ping within ``PrismWebSocketConfiguration/pingInterval``: the
        /// connection counts as lost (half-open) and is closed.
        public static let unresponsive = Code("unresponsive")
        /// The server closed the socket with a code that does not call for a reconnection
        /// (``PrismWebSocketError/closeCode``, ``PrismWebSocketError/closeReason``).
        public static let closedByServer = Code("closedByServer")
        /// The server sent a message larger than ``PrismWebSocketConfiguration/maximumMessageSize``;
        /// the client closed the connection with 1009 without holding it.
        public static let messageTooLarge = Code("messageTooLarge")
        /// The server broke the WebSocket protocol (a masked frame, a bad opcode, a fragmented
        /// control frame, text that is not UTF-8...); the client closed the connection with 1002.
        public static let protocolViolation = Code("protocolViolation")
        /// A message was sent while no connection is open (before the first, or between a lost one
        /// and the next). Nothing was sent.
        public static let notConnected = Code("notConnected")
        /// A message was sent after the socket ended (closed, or failed for good). Nothing was sent.
        public static let closed = Code("closed")
        /// There is no WebSocket connection here: on watchOS (Apple's TN3135), or in a build
        /// without Prism's `WebSocketSubscriptions` trait.
        public static let unavailable = Code("unavailable")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What happened, in words.
    public var message: String
    /// The socket's URL.
    public var url: URL?
    /// The status of a refused upgrade.
    public var statusCode: Int?
    /// The header fields of a refused upgrade (`Retry-After`, `WWW-Authenticate`, ...).
    public var headers: PrismHTTPHeaders?
    /// The code of the server's close frame, when it sent one.
    public var closeCode: PrismWebSocketCloseCode?
    /// The reason of the server's close frame ("" when none).
    public var closeReason: String?
    /// The error underneath (a `PrismHTTPError`, a SwiftNIO error...).
    public var underlying: (any Error)?

    /// Creates an error.
    public init(
        code: Code,
        message: String,
        url: URL? = nil,
        statusCode: Int? = nil,
        headers: PrismHTTPHeaders? = nil,
        closeCode: PrismWebSocketCloseCode? = nil,
        closeReason: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.closeCode = closeCode
        self.closeReason = closeReason
        self.underlying = underlying
    }

    /// The code, the message, the status or close code, and the URL (its credentials redacted).
    public var description: String {
        var text = "PrismWebSocketError.\(code): \(message)"
        if let statusCode { text += " (status \(statusCode))" }
        if let closeCode {
            text += " (close code \(closeCode)\(closeReason.map { $0.isEmpty ? "" : ": \($0)" } ?? ""))"
        }
        if let url { text += " [\(PrismHTTPRedaction.redact(url))]" }
        return text
    }
}
