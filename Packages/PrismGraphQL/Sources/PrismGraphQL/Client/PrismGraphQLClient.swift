import Foundation
@_spi(PrismInternals) import PrismCache
import PrismHTTP

/// Sends GraphQL queries and mutations to one endpoint and decodes their typed responses, and
/// runs subscriptions over one WebSocket (``subscribe(_:as:)``).
///
/// ```swift
/// let graphql = PrismGraphQLClient(
///     endpointURL: URL(string: "https://api.example.com/graphql")!,
///     additionalHeaders: ["Authorization": "Bearer \(token)"]
/// )
/// let response: PrismGraphQLResponse<UserData> = try await graphql.execute(query)
/// ```
///
/// Every operation is an HTTP POST of `{"query", "operationName", "variables"}` with
/// `Content-Type: application/json`, or for queries a GET with those members in the URL
/// (``queryMethod``, ``PrismGraphQLQuery/httpMethod``), as the GraphQL-over-HTTP specification
/// says, with `Accept: application/graphql-response+json, application/json;q=0.9`, sent through
/// a PrismHTTP `PrismNetworkClient`: give the client a
/// `PrismNetworkAdapter` of your own (``init(endpointURL:additionalHeaders:networkClient:automaticPersistedQueries:queryMethod:subscriptions:)``)
/// and its interceptors, authenticator, transport and logging apply to GraphQL too; pass
/// `PrismRequestOptions` to ``execute(_:options:)->PrismGraphQLResponse<T>`` for a retry policy, a cache
/// policy, a timeout or extra headers.
///
/// ## Errors
/// GraphQL errors are data: a response with `errors` (with or without partial `data`) is
/// returned, not thrown, whatever its HTTP status: a server that answers a failed request or a
/// `"data": null` with a 4xx and a GraphQL body (`application/graphql-response+json` or
/// `application/json`) gives the app its errors, with the status in
/// ``PrismGraphQLResponse/statusCode``. A non-2xx status whose body is not a GraphQL response (a
/// proxy's error page), a body that is not a GraphQL response, data that does not decode into
/// the expected type and a request that never got an answer throw a ``PrismGraphQLError`` that
/// keeps the status, the body and the URL.
///
/// ## Retries
/// A query only reads, so a retry policy retries it as it would a GET (`PrismExponentialBackoff`
/// retries transient failures); a mutation is retried only by a policy that retries
/// non-idempotent requests.
///
/// ## Caching
/// POST responses carry no HTTP caching, so query responses are cached by the client itself, in
/// ``cache``, keyed by the endpoint, the exact request (document, operation, variables), the
/// client's `additionalHeaders`, and the credentials the request carries as it is sent (after a
/// `PrismNetworkAdapter`'s interceptors and authenticator: a digest of `Authorization`, `Cookie`
/// and every header PrismHTTP treats as secret), so that one user's answer is never served to
/// another:
/// with no cache policy, a query with a ``PrismGraphQLQuery/cacheInterval`` is served from the
/// cache while fresh; `.cacheFirst` returns any cached response, fresh or not;
/// `.staleWhileRevalidate` returns it and refreshes a stale one in the background;
/// `.cacheThenNetwork` returns a fresh one, else fetches; `.networkOnly` neither reads nor
/// stores. Only responses without errors are stored, and never those of mutations. A query has
/// at most one background refresh at a time; one that fails keeps the stale response, and one
/// still running when the client (its last copy) goes away is cancelled and stores nothing.
///
/// ## Automatic persisted queries
/// With `automaticPersistedQueries: true` the client sends the SHA-256 of the document in
/// `extensions.persistedQuery` instead of the document (Apollo's protocol, which saves upload
/// bytes for large documents). When the server answers `PersistedQueryNotFound`, the client
/// sends the document with the hash so that the server registers it; when it answers
/// `PersistedQueryNotSupported`, the client sends documents in full from then on.
public struct PrismGraphQLClient: Sendable {
    /// The GraphQL endpoint every operation is posted to.
    public let endpointURL: URL
    /// Header fields sent with every operation (`Content-Type` is always `application/json`).
    public let additionalHeaders: [String: String]
    /// What sends the requests: its interceptors, authenticator and transport apply.
    public let networkClient: any PrismNetworkClient
    /// Where query responses are cached; `nil` caches nothing.
    public let cache: PrismResponseCache?
    /// Whether operations are sent as persisted-query hashes first.
    public let usesAutomaticPersistedQueries: Bool
    /// How queries are sent unless one says otherwise (``PrismGraphQLQuery/httpMethod``);
    /// mutations are always POSTs. See ``PrismGraphQLHTTPMethod``.
    public let queryMethod: PrismGraphQLHTTPMethod
    /// How subscriptions run: their WebSocket URL, `connection_init` parameters, timeouts and
    /// reconnection. See ``subscribe(_:as:)``.
    public let subscriptionConfiguration: PrismGraphQLSubscriptionConfiguration
    /// Where the answers of typed operations are normalized (each object one record, shared by
    /// every operation that shows it), and what ``watch(_:policy:)`` and ``fetch(_:policy:)`` read;
    /// nil (the default) normalizes nothing. Set with ``normalizing(into:)``.
    public internal(set) var normalizedCache: PrismGraphQLNormalizedCache?

    /// The endpoint's parts, or nil when `endpointURL` cannot be one (every operation then
    /// fails with ``PrismGraphQLError/Code-swift.struct/invalidEndpoint``).
    let template: GraphQLEndpoint.Template?
    let persistedQuerySupport = PersistedQueries.Support()
    /// The WebSocket the client's subscriptions share (copies of the client share it too).
    let subscriptionConnection: SubscriptionConnection

    /// The `staleWhileRevalidate` revalidations running in the background; `nil` in the copy of
    /// the client that runs one (which must not keep them, and so the client, alive).
    var revalidations: PrismBackgroundRevalidations? = PrismBackgroundRevalidations()

    /// The `staleWhileRevalidate` revalidations running in the background, one per cache key;
    /// cancelled when the client (its last copy) goes away. A test awaits them.
    var backgroundRevalidations: PrismBackgroundRevalidations {
        revalidations ?? PrismBackgroundRevalidations()
    }

    /// Creates a client that sends through a new `PrismNetworkAdapter` (the
    /// platform's default transport) and caches in a cache of its own (500 responses).
    ///
    /// - Parameters:
    ///   - endpointURL: The GraphQL endpoint, an absolute `http` or `https` URL (else every
    ///     operation throws `invalidEndpoint`).
    ///   - additionalHeaders: Header fields sent with every operation (`Authorization`, say).
    ///   - automaticPersistedQueries: Whether to send documents as persisted-query hashes first.
    ///   - queryMethod: How queries are sent (mutations are always POSTs).
    ///   - subscriptions: How subscriptions run (their WebSocket, timeouts, reconnection).
    /// An `endpointURL` that is not an absolute `http` or `https` URL with a host does not trap:
    /// every operation then throws ``PrismGraphQLError`` with code `invalidEndpoint`.
    public init(
        endpointURL: URL,
        additionalHeaders: [String: String] = [:],
        automaticPersistedQueries: Bool = false,
        queryMethod: PrismGraphQLHTTPMethod = .post,
        subscriptions: PrismGraphQLSubscriptionConfiguration = PrismGraphQLSubscriptionConfiguration()
    ) {
        self.init(
            endpointURL: endpointURL,
            additionalHeaders: additionalHeaders,
            networkClient: PrismNetworkAdapter(cache: nil),
            cache: PrismResponseCache(maxSize: 500, maxBytes: PrismResponseCache.defaultMaxBytes),
            automaticPersistedQueries: automaticPersistedQueries,
            queryMethod: queryMethod,
            subscriptions: subscriptions
        )
    }

    /// Creates a client that sends through `networkClient`, and caches in its cache (a
    /// `PrismNetworkAdapter`'s `cache`), if it has one.
    ///
    /// ```swift
    /// let http = PrismNetworkAdapter(interceptors: [PrismInterceptor.headers(["X-App": "demo"])])
    /// let graphql = PrismGraphQLClient(endpointURL: url, networkClient: http)
    /// ```
    ///
    /// An `endpointURL` that is not an absolute `http` or `https` URL with a host does not trap:
    /// every operation then throws ``PrismGraphQLError`` with code `invalidEndpoint`.
    public init(
        endpointURL: URL,
        additionalHeaders: [String: String] = [:],
        networkClient: any PrismNetworkClient,
        automaticPersistedQueries: Bool = false,
        queryMethod: PrismGraphQLHTTPMethod = .post,
        subscriptions: PrismGraphQLSubscriptionConfiguration = PrismGraphQLSubscriptionConfiguration()
    ) {
        self.init(
            endpointURL: endpointURL,
            additionalHeaders: additionalHeaders,
            networkClient: networkClient,
            cache: networkClient.cache,
            automaticPersistedQueries: automaticPersistedQueries,
            queryMethod: queryMethod,
            subscriptions: subscriptions
        )
    }

    /// Creates a client that sends through `networkClient` and caches query responses in
    /// `cache` (`nil` caches nothing).
    ///
    /// An `endpointURL` that is not an absolute `http` or `https` URL with a host does not trap:
    /// every operation then throws ``PrismGraphQLError`` with code `invalidEndpoint`.
    public init(
        endpointURL: URL,
        additionalHeaders: [String: String] = [:],
        networkClient: any PrismNetworkClient,
        cache: PrismResponseCache?,
        automaticPersistedQueries: Bool = false,
        queryMethod: PrismGraphQLHTTPMethod = .post,
        subscriptions: PrismGraphQLSubscriptionConfiguration = PrismGraphQLSubscriptionConfiguration()
    ) {
        self.endpointURL = endpointURL
        self.additionalHeaders = additionalHeaders
        self.networkClient = networkClient
        self.cache = cache
        self.usesAutomaticPersistedQueries = automaticPersistedQueries
        self.queryMethod = queryMethod
        self.subscriptionConfiguration = subscriptions
        self.template = GraphQLEndpoint.Template(url: endpointURL, additionalHeaders: additionalHeaders)
        self.subscriptionConnection = SubscriptionConnection(
            settings: SubscriptionSettings(
                endpointURL: endpointURL,
                additionalHeaders: additionalHeaders,
                networkClient: networkClient,
                configuration: subscriptions
            )
        )
    }

    // MARK: Executing

    /// Sends `query` (a query or a mutation) with `options` and decodes its response.
    ///
    /// ```swift
    /// let response: PrismGraphQLResponse<UserData> = try await graphql.execute(
    ///     query,
    ///     options: PrismRequestOptions(timeout: .seconds(5), retryPolicy: PrismExponentialBackoff())
    /// )
    /// ```
    ///
    /// - Returns: The response: data, errors, or both (GraphQL errors are not thrown).
    /// - Throws: ``PrismGraphQLError`` for a non-2xx status, a body that is not a GraphQL
    ///   response, data that does not decode as `T`, or a request that got no answer;
    ///   `CancellationError` when the task is cancelled.
    public func execute<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        options: PrismRequestOptions = PrismRequestOptions()
    ) async throws -> PrismGraphQLResponse<T> {
        try await perform(query, as: T.self, options: options)
    }

    /// Sends `query` and decodes its data as `type`.
    ///
    /// ```swift
    /// let user = try await graphql.execute(query, as: UserData.self).requireData().user
    /// ```
    public func execute<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        as type: T.Type,
        options: PrismRequestOptions = PrismRequestOptions()
    ) async throws -> PrismGraphQLResponse<T> {
        try await perform(query, as: type, options: options)
    }

    /// Sends `query`, retrying failed attempts as `retryPolicy` says (a query as if it were a
    /// GET; a mutation only if the policy retries non-idempotent requests).
    public func execute<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        retryPolicy: some PrismRetryPolicy
    ) async throws -> PrismGraphQLResponse<T> {
        try await perform(query, as: T.self, options: PrismRequestOptions(retryPolicy: retryPolicy))
    }

    /// Sends `query` using the cache as `cachePolicy` says (see Caching above).
    public func execute<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        cachePolicy: PrismCachePolicy
    ) async throws -> PrismGraphQLResponse<T> {
        try await perform(query, as: T.self, options: PrismRequestOptions(cachePolicy: cachePolicy))
    }
}
