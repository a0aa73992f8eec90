import Foundation
import Logging
@_spi(PrismInternals) import PrismCache

/// The client that ships with Prism: builds requests from endpoints, runs interceptors and the
/// authenticator, caches responses, sends through a transport, validates and decodes.
///
/// ```swift
/// let client = PrismNetworkAdapter()
/// let user = try await client.request(on: GetUserRequest(login: "octocat"))
/// ```
///
/// `PrismNetworkAdapter()` uses the platform's default transport (AsyncHTTPClient on Linux,
/// URLSession elsewhere), a response cache of 500 entries and 32 MiB, and no interceptors or
/// logging.
///
/// ## Caching
/// GET responses go through ``cache`` as HTTP says (`Cache-Control: max-age`, `no-cache`,
/// `must-revalidate`, `no-store`, `Vary`; `ETag` and `Last-Modified` revalidated with
/// `If-None-Match` and `If-Modified-Since`, a `304` refreshing the entry and returning its body),
/// with the endpoint's `cacheInterval` as the time to live of a 2xx when it has one. A
/// ``PrismRequestOptions`` cache policy changes that per request; ``responses(on:cachePolicy:options:)``
/// streams the cached value, then the fresh one.
///
/// Entries are keyed on the request as it is sent, after the interceptors and the
/// authenticator, credentials included (a digest of `Authorization`, `Cookie` and every header
/// ``PrismHTTPRedaction`` treats as secret): a response to one user or token is never served to
/// another. A response that says `no-cache` or `must-revalidate` is never served stale without
/// asking the server, whatever the policy. A `staleWhileRevalidate` hit revalidates in the
/// background, once per entry at a time; a revalidation still running when the client goes
/// away is cancelled. Call `cache?.removeAll()` when the user signs out.
///
/// Beside a cached body the client keeps the value decoded from it, so that a hit of the same
/// request type returns it without decoding, when the decode depends on nothing but the body
/// and the type: the default ``PrismEntity`` decode, or a request type that says so with
/// ``PrismNetworkRequest/decodedResponseReuse``. A request type that decodes differently is
/// never handed another's value.
///
/// ## Errors
/// A status the request does not accept (non-2xx by default) throws a ``PrismHTTPError`` that
/// keeps the status, headers and body; so does a body that does not decode (with the key and
/// type), and every transport failure. Headers with control characters, a URL that is not
/// `http` or `https`, and a timeout or cache interval that is not a sensible number of seconds
/// are errors before anything is sent. Cancelling the task cancels the request and throws
/// `CancellationError`.
///
/// ## Logging
/// With a `logger`, every exchange is logged at `.debug` and every failure at `.warning`: the
/// URL with its credentials redacted, redacted headers, the status, and for a failure only its
/// code. No credential, query secret, header value of a secret header or error text reaches a
/// log line.
public final class PrismNetworkAdapter: PrismNetworkClient {
    /// Sends the requests.
    public let transport: any PrismHTTPTransport

    /// The transport's TLS settings, which PrismGraphQL's subscription socket applies too.
    public var tlsConfiguration: PrismTLSConfiguration? { transport.configuration.tls }
    /// Caches GET responses; `nil` caches nothing.
    public let cache: PrismResponseCache?
    /// Adapt every request, in order, before it is sent.
    public let interceptors: [any PrismRequestInterceptor]
    /// Adds credentials and refreshes them after a 401.
    public let authenticator: (any PrismAuthenticator)?
    /// Logs each request and its outcome, with credentials redacted; `nil` logs nothing.
    public let logger: Logger?
    /// How a request is retried when its options give no policy; nil sends once.
    public let retryPolicy: (any PrismRetryPolicy)?
    /// What hears of each attempt and each look in the cache (metrics, tracing).
    public var instruments: [any PrismNetworkInstrument] { channel.instruments }
    /// The URL endpoints without a host are relative to: its scheme, host and port, and its
    /// path before theirs (`https://api.example.com/v2` and an endpoint path `/users` make
    /// `https://api.example.com/v2/users`). An endpoint with a host ignores it.
    public let baseURL: URL?
    /// `baseURL`'s parts, or why it cannot be one (every relative endpoint then fails with it).
    let base: Result<BaseURL, PrismHTTPError>?
    /// Waits between retry attempts (the continuous clock unless a test gave another).
    let sleep: @Sendable (Duration) async throws -> Void
    /// The time since the client was made, on the clock `sleep` waits on: how long an event
    /// stream's connection lived.
    let retryNow: @Sendable () -> Duration
    /// The transport and the logger as the pipeline reaches them, chosen once (see
    /// ``TransportChannel``).
    let channel: TransportChannel
    /// The `staleWhileRevalidate` revalidations running in the background, one per cache key;
    /// cancelled when the client goes away. A test awaits them.
    let backgroundRevalidations = PrismBackgroundRevalidations()

    /// The transport `PrismNetworkAdapter()` uses: AsyncHTTPClient on Linux, URLSession on
    /// Apple platforms, and everywhere when Prism is built without its `AsyncHTTPClient`
    /// package trait.
    public static var defaultTransport: any PrismHTTPTransport {
        defaultTransport(configuration: .default)
    }

    /// The transport `PrismNetworkAdapter()` uses, configured with `configuration`: what an app
    /// writes instead of choosing a transport by `canImport`, which can say yes for a module that
    /// something else in the build graph compiled while Prism itself was built without it.
    ///
    /// ```swift
    /// let client = PrismNetworkAdapter(
    ///     transport: PrismNetworkAdapter.defaultTransport(configuration: .init(requestTimeout: .seconds(15))))
    /// ```
    ///
    /// The choice follows Prism's `AsyncHTTPClient` package trait (and the platform), not
    /// whether the module can be imported.
    public static func defaultTransport(configuration: PrismTransportConfiguration) -> any PrismHTTPTransport {
        // A trait's condition, not `canImport`: AsyncHTTPClient may be importable because
        // another package in the graph built it while this one was built without the trait.
        #if AsyncHTTPClient && os(Linux)
        PrismAsyncHTTPClientTransport(configuration: configuration)
        #else
        PrismURLSessionTransport(configuration: configuration)
        #endif
    }

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: What sends requests; the platform default if omitted.
    ///   - cache: The response cache; pass `nil` to cache nothing.
    ///   - interceptors: Adapt every request before it is sent, in order.
    ///   - authenticator: Adds credentials and refreshes them after a 401.
    ///   - logger: Logs requests (at `.debug`) and failures (at `.warning`), secrets redacted.
    ///   - retryPolicy: How every request is retried unless its options say otherwise
    ///     (``PrismRequestOptions/retryPolicy``; ``PrismNoRetry`` opts one out); nil for no retry.
    ///   - baseURL: What endpoints without a host are relative to (see ``baseURL``). One that is
    ///     not an http or https URL with a host, or that has a query, makes every such endpoint
    ///     fail with `invalidURL`, saying why.
    ///   - retryClock: What retries wait on: the continuous clock if omitted (a test can pass a
    ///     clock it controls).
    ///   - instruments: What hears of each attempt and each look in the cache, for metrics and
    ///     tracing (``PrismNetworkInstrument``; the PrismTelemetry product has two).
    public init<C: Clock>(
        transport: any PrismHTTPTransport = PrismNetworkAdapter.defaultTransport,
        cache: PrismResponseCache? = PrismResponseCache(maxSize: 500),
        interceptors: [any PrismRequestInterceptor] = [],
        authenticator: (any PrismAuthenticator)? = nil,
        logger: Logger? = nil,
        retryPolicy: (any PrismRetryPolicy)? = nil,
        baseURL: URL? = nil,
        retryClock: C = ContinuousClock(),
        instruments: [any PrismNetworkInstrument] = []
    ) where C.Duration == Duration {
        self.baseURL = baseURL
        self.base = baseURL.map(BaseURL.parse)
        self.transport = transport
        self.cache = cache
        self.interceptors = interceptors
        self.authenticator = authenticator
        self.logger = logger
        self.retryPolicy = retryPolicy
        self.sleep = { try await retryClock.sleep(for: $0) }
        let start = retryClock.now
        self.retryNow = { start.duration(to: retryClock.now) }
        self.channel = TransportChannel(transport, logger: logger, instruments: instruments)
    }

    /// A client with `other`'s parts and background revalidations of its own: one of `other`'s
    /// runs on it, so as not to keep `other` alive.
    init(partsOf other: PrismNetworkAdapter) {
        self.transport = other.transport
        self.cache = other.cache
        self.interceptors = other.interceptors
        self.authenticator = other.authenticator
        self.logger = other.logger
        self.retryPolicy = other.retryPolicy
        self.baseURL = other.baseURL
        self.base = other.base
        self.sleep = other.sleep
        self.retryNow = other.retryNow
        self.channel = other.channel
    }
}

extension PrismNetworkAdapter {
    /// Logs `error` at `.warning`, as ``TransportChannel/logFailure(_:of:)`` says.
    func logFailure(_ error: PrismHTTPError, of request: PrismHTTPRequest) {
        channel.logFailure(error, of: request)
    }
}
