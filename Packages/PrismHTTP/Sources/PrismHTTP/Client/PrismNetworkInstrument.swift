/// What a client tells an instrument: each attempt that goes out and how it ended, and each look
/// in the response cache. The PrismTelemetry product's instruments conform (swift-metrics counters
/// and timers, swift-distributed-tracing spans); an app can write its own.
///
/// ```swift
/// struct CountAttempts: PrismNetworkInstrument {
///     let count: @Sendable (String) -> Void
///     func attemptStarting(_ request: inout PrismHTTPRequest, resendCount: Int) -> (any PrismNetworkAttempt)? {
///         count(request.method.rawValue)
///         return nil
///     }
/// }
/// let client = PrismNetworkAdapter(instruments: [CountAttempts { print("sent a \($0)") }])
/// ```
///
/// An attempt is one request on the wire, as OpenTelemetry's HTTP client spans count them: a retry
/// is an attempt of its own (`resendCount` 1, 2, ...), and so is the request sent again after the
/// authenticator refreshed its credentials; redirects the transport follows are inside one
/// attempt. Every way a request goes out reports (whole responses, uploads, streams, downloads,
/// PrismGraphQL's operations); an answer from the cache is no attempt, only a lookup.
///
/// The calls come from the task that sends, synchronously: an instrument keeps them short and
/// never blocks. A client with no instrument pays one check of an empty array per attempt.
public protocol PrismNetworkInstrument: Sendable {
    /// An attempt is about to go out: `request` as the transport will send it, after the
    /// interceptors, the authenticator and the checks. The instrument may add header fields (a
    /// trace context: `traceparent`); they are not checked again, so they must be valid. Returns
    /// what hears how the attempt ends, or nil.
    func attemptStarting(_ request: inout PrismHTTPRequest, resendCount: Int) -> (any PrismNetworkAttempt)?

    /// The response cache was consulted for `request`, with `outcome`.
    func cacheLookedUp(_ request: PrismHTTPRequest, outcome: PrismCacheLookupOutcome)

    /// Runs `body`, an operation made of requests (a GraphQL query or mutation), inside whatever
    /// the instrument wraps it in: a tracing instrument runs it in a span, so that the
    /// operation's attempts are its children.
    func around<T: Sendable>(_ operation: PrismNetworkOperation, _ body: () async throws -> T) async throws -> T
}

extension PrismNetworkInstrument {
    /// Nothing: an instrument that watches attempts only.
    public func cacheLookedUp(_ request: PrismHTTPRequest, outcome: PrismCacheLookupOutcome) {}

    /// `body`, as it is.
    public func around<T: Sendable>(_ operation: PrismNetworkOperation, _ body: () async throws -> T)
        async throws -> T
    {
        try await body()
    }
}

extension Array where Element == any PrismNetworkInstrument {
    /// `body` inside every instrument's ``PrismNetworkInstrument/around(_:_:)``, the first
    /// outermost.
    public func around<T: Sendable>(_ operation: PrismNetworkOperation, _ body: () async throws -> T)
        async throws -> T
    {
        try await around(operation, from: startIndex, body)
    }

    private func around<T: Sendable>(
        _ operation: PrismNetworkOperation, from index: Int, _ body: () async throws -> T
    ) async throws -> T {
        guard index < endIndex else { return try await body() }
        return try await self[index].around(operation) { try await around(operation, from: index + 1, body) }
    }
}

/// An operation made of requests, which instruments may wrap (``PrismNetworkInstrument/around(_:_:)``).
public struct PrismNetworkOperation: Sendable, Hashable {
    /// What speaks it: `graphql`.
    public var system: String
    /// Its type in that system: `query`, `mutation`.
    public var type: String
    /// Its name, when it has one (a GraphQL operation's name).
    public var name: String?

    /// An operation of `system`, of `type`, called `name`.
    public init(system: String, type: String, name: String? = nil) {
        self.system = system
        self.type = type
        self.name = name
    }
}

/// One attempt that an instrument watches: told once how it ended.
public protocol PrismNetworkAttempt: Sendable {
    /// The attempt was answered: the whole response (a stream's and a download's head only, its
    /// body still to come).
    func answered(_ response: PrismHTTPResponse)

    /// The attempt failed: no answer (a ``PrismHTTPError``, or a `CancellationError`).
    func failed(_ error: any Error)
}

/// What a look in the response cache found.
public enum PrismCacheLookupOutcome: String, Sendable, Hashable, CaseIterable {
    /// A response that can be used was there, and served without asking the server.
    case hit
    /// A stale response was served, and is revalidated in the background (`staleWhileRevalidate`).
    case staleHit
    /// A stored response is being revalidated with the server before it is used (its validators
    /// sent).
    case revalidation
    /// Nothing usable was stored: the server is asked.
    case miss
}
