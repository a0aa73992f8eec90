import Foundation
import PrismHTTP

/// How a ``PrismWebSocket`` connects, how much it holds, how it notices a dead peer, and how it
/// reconnects.
///
/// ```swift
/// var configuration = PrismWebSocketConfiguration()
/// configuration.subprotocols = ["chat.v2"]
/// configuration.pingInterval = .seconds(20)
/// let socket = PrismWebSocket(url: url, client: client, configuration: configuration)
/// ```
///
/// Every wait (the open timeout, the ping interval, the reconnect delays, the close handshake)
/// is measured on the clock the configuration was made with: the continuous clock, or one a
/// test controls.
public struct PrismWebSocketConfiguration: Sendable {
    /// The subprotocols asked for (`Sec-WebSocket-Protocol`), in order of preference; the server
    /// may choose one (``PrismWebSocketHandshake/subprotocol``). None by default.
    public var subprotocols: [String]
    /// Whether the server must choose one of ``subprotocols``: a server that switches protocols
    /// without choosing one is then refused with `subprotocolRefused`. False by default (as
    /// browsers do). A choice that was not asked for is always refused.
    public var requiresSubprotocol: Bool
    /// Header fields added to the upgrade request, before the client's interceptors and its
    /// authenticator see it.
    public var additionalHeaders: [String: String]
    /// The largest message accepted from the server, in bytes (16 MiB by default): a larger one,
    /// in one frame or in many, ends the socket with `messageTooLarge` (close code 1009) and is
    /// never held in memory whole.
    public var maximumMessageSize: Int
    /// How many messages the socket holds for a consumer that has not read them yet (256 by
    /// default). When they are held, the socket stops reading: the server's sends wait in TCP
    /// (back-pressure), nothing is dropped, and memory stays bounded.
    public var maximumBufferedMessages: Int
    /// How often the client pings the server while connected; nil sends no pings. A ping whose
    /// pong has not come when the next one is due counts the connection as lost (`unresponsive`:
    /// a half-open socket, a peer that stopped), unless the socket had stopped reading for a slow
    /// consumer. Thirty seconds by default.
    public var pingInterval: Duration?
    /// How long the TCP connect, TLS handshake and upgrade may take together before the attempt
    /// counts as failed (ten seconds by default).
    public var openTimeout: Duration
    /// How long the server has to answer the client's close frame before the connection is cut
    /// (five seconds by default).
    public var closeTimeout: Duration
    /// When and how often to connect again after the connection could not open or was lost: each
    /// failed attempt is a `PrismHTTPError` (code `connectionFailed`, method GET; a refused upgrade
    /// is `unacceptableStatus` with its status and `Retry-After`), so `PrismExponentialBackoff`
    /// retries what is transient. The count starts again after a connection that stayed up for
    /// ``stableConnectionInterval``. nil never reconnects.
    public var reconnectPolicy: (any PrismRetryPolicy)?
    /// The server's close codes after which the socket reconnects (by the policy):
    /// ``PrismWebSocketCloseCode/reconnecting`` by default. After `normalClosure` it ends with
    /// ``PrismWebSocketEvent/closed(code:reason:)``; after any other code not in the set, with
    /// `closedByServer`.
    public var reconnectingCloseCodes: Set<PrismWebSocketCloseCode>
    /// How long a connection must stay up to count as good (ten seconds by default): only then
    /// does the reconnect policy's count start again, and may a refused credential be refreshed
    /// again.
    public var stableConnectionInterval: Duration

    /// Sleeps for a duration on the configured clock.
    let sleep: @Sendable (Duration) async throws -> Void

    /// Creates a configuration whose waits use `clock`: the continuous clock if omitted (a test
    /// can pass a clock it controls).
    ///
    /// - Precondition: The durations are not negative, `pingInterval` is above zero, and
    ///   `maximumMessageSize` and `maximumBufferedMessages` are positive.
    public init<C: Clock>(
        subprotocols: [String] = [],
        requiresSubprotocol: Bool = false,
        additionalHeaders: [String: String] = [:],
        maximumMessageSize: Int = 16 << 20,
        maximumBufferedMessages: Int = 256,
        pingInterval: Duration? = .seconds(30),
        openTimeout: Duration = .seconds(10),
        closeTimeout: Duration = .seconds(5),
        reconnectPolicy: (any PrismRetryPolicy)? = Self.defaultReconnectPolicy,
        reconnectingCloseCodes: Set<PrismWebSocketCloseCode> = PrismWebSocketCloseCode.reconnecting,
        stableConnectionInterval: Duration = .seconds(10),
        clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        precondition(
            openTimeout >= .zero && closeTimeout >= .zero && stableConnectionInterval >= .zero,
            "WebSocket timeouts cannot be negative.")
        precondition((pingInterval ?? .seconds(1)) > .zero, "pingInterval must be above zero (or nil).")
        precondition(maximumMessageSize > 0, "maximumMessageSize must be positive.")
        precondition(maximumBufferedMessages > 0, "maximumBufferedMessages must be positive.")
        self.subprotocols = subprotocols
        self.requiresSubprotocol = requiresSubprotocol
        self.additionalHeaders = additionalHeaders
        self.maximumMessageSize = maximumMessageSize
        self.maximumBufferedMessages = maximumBufferedMessages
        self.pingInterval = pingInterval
        self.openTimeout = openTimeout
        self.closeTimeout = closeTimeout
        self.reconnectPolicy = reconnectPolicy
        self.reconnectingCloseCodes = reconnectingCloseCodes
        self.stableConnectionInterval = stableConnectionInterval
        self.sleep = { try await clock.sleep(for: $0) }
    }

    /// Half a second, then doubling up to thirty seconds, with up to half a second of jitter, for
    /// ten attempts in a row.
    public static var defaultReconnectPolicy: any PrismRetryPolicy {
        PrismExponentialBackoff(baseDelay: .milliseconds(500), maxDelay: .seconds(30), maxAttempts: 10)
    }
}
