import Foundation
import PrismHTTP

/// How a ``PrismGraphQLClient`` runs subscriptions: where its WebSocket goes, what its
/// `connection_init` carries, how long it waits, and how it reconnects.
///
/// ```swift
/// var subscriptions = PrismGraphQLSubscriptionConfiguration()
/// subscriptions.connectionParameters = ["clientVersion": "2.1"]
/// subscriptions.keepAliveInterval = .seconds(15)
/// let graphql = PrismGraphQLClient(endpointURL: url, networkClient: http, subscriptions: subscriptions)
/// ```
///
/// Every wait (the acknowledgement timeout, the keep-alive interval, the reconnect delays, the
/// linger) is measured on the clock the configuration was made with: the continuous clock, or
/// one a test controls, given to
/// ``init(url:connectionParameters:connectionAckTimeout:keepAliveInterval:reconnectPolicy:linger:maximumMessageSize:maximumBufferedEvents:stableConnectionInterval:clock:)``.
public struct PrismGraphQLSubscriptionConfiguration: Sendable {
    /// The WebSocket URL; nil (the default) derives it from the client's endpoint: `http` becomes
    /// `ws`, `https` becomes `wss`, host, port, path and query kept.
    public var url: URL?
    /// Members added to the `connection_init` payload. The credential the client's
    /// authenticator (or its `additionalHeaders`) gives, `Authorization` say, is added beside
    /// them under its header name, and wins over a parameter of the same name.
    public var connectionParameters: [String: PrismGraphQLValue]
    /// How long the server has to answer `connection_init` with `connection_ack`; after it,
    /// every subscription fails with `connectionAckTimeout`. Ten seconds by default.
    public var connectionAckTimeout: Duration
    /// How often the client sends a `ping` while connected; nil sends none. A ping whose `pong`
    /// has not come back when the next one is due counts as a lost connection (the client
    /// reconnects). Fifteen seconds by default.
    public var keepAliveInterval: Duration?
    /// When and how often to reconnect after the socket is lost (a transport failure, a close
    /// that does not rule out trying again, a missed `pong`): each attempt is a failure whose
    /// error is a `PrismHTTPError` with code `connectionFailed` and method GET, so
    /// `PrismExponentialBackoff` retries it. The count of attempts starts again after a
    /// connection that stayed up for ``stableConnectionInterval``. nil never reconnects: every
    /// subscription then fails.
    public var reconnectPolicy: (any PrismRetryPolicy)?
    /// How long the socket stays open after its last subscription ends, so that a subscription
    /// started soon after reuses it. Zero (the default) closes it at once.
    public var linger: Duration
    /// The largest message the client accepts from the server, in bytes (1 MiB by default): a
    /// message sent in frames that add up to more ends every subscription with
    /// `subscriptionProtocolViolation`; a single larger frame is refused by the WebSocket layer,
    /// which closes the connection, and counts as a lost socket (reconnected as the policy says).
    /// Nothing larger is ever held in memory.
    public var maximumMessageSize: Int

    /// How many events one subscription holds for a consumer that has not read them yet (1,000 by
    /// default): one more ends that subscription with `consumerTooSlow` (the events held are still
    /// delivered first) and completes it on the server, so that a server that sends faster than
    /// the app reads cannot fill memory.
    public var maximumBufferedEvents: Int
    /// How long an acknowledged socket must stay up to count as a good connection (ten seconds by
    /// default): only then does the reconnect policy's count of attempts start again, and may the
    /// credentials be refreshed again after a close that refuses them. A server that acknowledges
    /// and drops the socket at once, forever, runs out the policy, and gets one refresh.
    public var stableConnectionInterval: Duration

    /// Sleeps for a duration on the configured clock.
    let sleep: @Sendable (Duration) async throws -> Void

    /// Creates a configuration whose waits use `clock`: the continuous clock if omitted (a test
    /// can pass a clock it controls).
    ///
    /// - Precondition: The durations are not negative, and `maximumMessageSize` and
    ///   `maximumBufferedEvents` are positive.
    public init<C: Clock>(
        url: URL? = nil,
        connectionParameters: [String: PrismGraphQLValue] = [:],
        connectionAckTimeout: Duration = .seconds(10),
        keepAliveInterval: Duration? = .seconds(15),
        reconnectPolicy: (any PrismRetryPolicy)? = Self.defaultReconnectPolicy,
        linger: Duration = .zero,
        maximumMessageSize: Int = 1 << 20,
        maximumBufferedEvents: Int = 1_000,
        stableConnectionInterval: Duration = .seconds(10),
        clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        precondition(connectionAckTimeout >= .zero && linger >= .zero, "Subscription timeouts cannot be negative.")
        precondition((keepAliveInterval ?? .seconds(1)) > .zero, "keepAliveInterval must be above zero (or nil).")
        precondition(maximumMessageSize > 0, "maximumMessageSize must be positive.")
        precondition(maximumBufferedEvents > 0, "maximumBufferedEvents must be positive.")
        precondition(stableConnectionInterval >= .zero, "stableConnectionInterval cannot be negative.")
        self.url = url
        self.connectionParameters = connectionParameters
        self.connectionAckTimeout = connectionAckTimeout
        self.keepAliveInterval = keepAliveInterval
        self.reconnectPolicy = reconnectPolicy
        self.linger = linger
        self.maximumMessageSize = maximumMessageSize
        self.maximumBufferedEvents = maximumBufferedEvents
        self.stableConnectionInterval = stableConnectionInterval
        self.sleep = { try await clock.sleep(for: $0) }
    }

    /// Half a second, then doubling up to thirty seconds, with up to half a second of jitter, for
    /// ten attempts in a row.
    public static var defaultReconnectPolicy: any PrismRetryPolicy {
        PrismExponentialBackoff(baseDelay: .milliseconds(500), maxDelay: .seconds(30), maxAttempts: 10)
    }
}
