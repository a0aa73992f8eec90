import Foundation
import Logging
import PrismCache

/// The request pipeline: every request, whichever way it comes in, crosses these stages in this
/// order, each named once.
///
/// | stage | function | what it does |
/// |---|---|---|
/// | 1. build | ``build(_:options:)`` | the endpoint's request, with the options' headers and timeout |
/// | 2. intercept | ``prepare(built:options:cacheInterval:revalidating:)`` | every interceptor, in order |
/// | 3. authorize | same | the authenticator's credentials |
/// | 4. validate | same | URL, header names and values, timeout: once per attempt, the last step before the transport |
/// | 5. look up and plan | ``deliver(_:decodedBy:transaction:)`` | the cache, keyed on the prepared request (credentials included), and the plan (``PrismCacheTransaction``) |
/// | 6. fetch | ``fetch(_:revalidating:)`` | the retry loop: each ``attempt(_:revalidating:open:)`` goes out through the ``TransportChannel`` (the transport follows redirects), refreshes refused credentials once |
/// | 7. store | ``deliver(_:decodedBy:transaction:)`` (``PrismCacheTransaction/store(_:)``) | the response, under the key of the request as finally sent |
/// | 8. decode | ``value(of:for:)`` | the status checked, the body decoded (or the decoded value kept beside a cache hit) |
///
/// Ways in: ``request(on:options:)`` (1-8), ``send(_:)`` and ``send(_:options:)`` (2-7),
/// ``upload(_:body:progress:)`` (2-4 and 6, one attempt, never cached),
/// ``responses(on:cachePolicy:options:)`` (1-5, then 6-8), and PrismGraphQL through
/// ``prepare(_:options:)`` and ``send(_:)``. Each attempt is prepared (stages 2-4) exactly once:
/// the first uses the preparation the lookup was keyed on, each later one (a retry, the resend
/// after a refresh) is prepared again from ``PrismPreparedRequest/original``.
///
/// Nothing waits where nothing needs to: a client with no interceptor and no authenticator
/// prepares without a suspension (``prepareNow(built:options:cacheInterval:)``), and a fresh hit
/// whose decoded value is kept beside it is served at once (``freshValue(_:for:)``), the
/// same checks as stages 5 and 8 make; whatever else the lookup found goes on to stage 5 with it.
/// The internal stages are `nonisolated(nonsending)`: they run on their caller's executor, with
/// no hop between stages. So are the fetch down to the transport (the retry loop, the attempt,
/// the ``TransportChannel``, redirects, and the AsyncHTTPClient transport's exchange): a plain
/// `async` function checks at its entry whether it must switch executors, which takes the task's
/// status lock, once per call.
extension PrismNetworkAdapter {
    // MARK: Ways in

    /// Sends `request` with `options`, validates the status and decodes the body.
    public func request<Request: PrismNetworkRequest>(
        on request: Request,
        options: PrismRequestOptions
    ) async throws -> Request.Response {
        let built = try build(request.endpoint, options: options)
        let decoding = DecodedReuse.identity(of: Request.self)
        let prepared: PrismPreparedRequest
        var transaction: PrismCacheTransaction?
        if let now = try prepareNow(built: built.request, options: options, cacheInterval: built.cacheInterval) {
            // A fresh hit with the value kept beside it goes from stage 2 to 8 without a
            // suspension; whatever else the lookup found, stage 5 goes on with it.
            if let decoding, let cache = cache(for: now) {
                let lookup = PrismCacheTransaction(now, in: cache, key: now.cacheKey, decodedBy: decoding)
                if let value = freshValue(lookup, for: request) { return value }
                transaction = lookup
            }
            prepared = now
        } else {
            prepared = try await prepare(
                built: built.request, options: options, cacheInterval: built.cacheInterval, fromEndpoint: true)
        }
        let delivery = try await deliver(prepared, decodedBy: decoding, transaction: transaction)
        return try await value(of: delivery, for: request)
    }

    /// Sends `request` with `options`, validates the status and decodes the body; returns the
    /// value with the response's source, age, status and headers.
    public func response<Request: PrismNetworkRequest>(
        on request: Request,
        options: PrismRequestOptions = PrismRequestOptions()
    ) async throws -> PrismNetworkResponse<Request.Response> {
        let built = try build(request.endpoint, options: options)
        let prepared = try await prepare(
            built: built.request, options: options, cacheInterval: built.cacheInterval, fromEndpoint: true)
        let delivery = try await deliver(prepared, decodedBy: DecodedReuse.identity(of: Request.self))
        let value = try await value(of: delivery, for: request)
        return PrismNetworkResponse(value: value, response: delivery.response)
    }

    /// Sends `prepared` through the cache and the network; the response whatever its status.
    public func send(_ prepared: PrismPreparedRequest) async throws -> PrismHTTPResponse {
        try await deliver(prepared, decodedBy: nil).response
    }

    /// Uploads `body` with `prepared`, reporting the bytes sent so far to `progress`: one attempt
    /// (after a 401 the authenticator refreshes and the body is sent again, once), never cached.
    public func upload(
        _ prepared: PrismPreparedRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse {
        try body.validate()
        return try await attempt(prepared, revalidating: nil) { [channel] request, resendCount in
            try await channel.upload(request, resendCount: resendCount, body: body, progress: progress)
        }.answer
    }

    /// Renews the credentials identified by `credential` with the authenticator; false when the
    /// client has none.
    public func refreshCredentials(replacing credential: String?) async throws -> Bool {
        guard let authenticator else { return false }
        try await authenticator.refresh(replacing: credential)
        return true
    }

    // MARK: 1. Build

    /// What stage 1 makes of an endpoint: a struct, not a tuple, so that the generic ways in
    /// copy it with code made for it rather than through runtime metadata.
    struct Built: Sendable {
        var request: PrismHTTPRequest
        var cacheInterval: Duration?
    }

    /// The endpoint as a request with `options` applied, and its cache interval, checked.
    func build(_ endpoint: some PrismNetworkEndpoint, options: PrismRequestOptions) throws -> Built {
        // Its headers are checked with the rest, last, by prepare.
        let base: BaseURL?
        switch self.base {
        case .success(let parts)?: base = parts
        case .failure(let error)? where endpoint.host.isEmpty: throw error
        default: base = nil
        }
        var built = Built(
            request: try endpoint.makeHTTPRequest(checkingHeaders: false, base: base).applying(options))
        // Not `map` with a closure: it would capture (and copy) the request on every call.
        if let seconds = endpoint.cacheInterval {
            built.cacheInterval = try RequestValidation.cacheInterval(seconds: seconds, url: built.request.url)
        }
        return built
    }

    // MARK: 2-4. Intercept, authorize, validate

    /// `request` with `options` applied, adapted by every interceptor, with credentials, checked.
    public func prepare(_ request: PrismHTTPRequest, options: PrismRequestOptions) async throws
        -> PrismPreparedRequest
    {
        try await prepare(built: request.applying(options), options: options)
    }

    /// Stages 2 to 4 for one attempt: the interceptors, the authenticator, and the checks, last,
    /// so that whatever an interceptor, the authenticator or a cached validator (`revalidating`'s
    /// `ETag`) put in the request is checked before any transport sees it.
    nonisolated(nonsending) func prepare(
        built: PrismHTTPRequest,
        options: PrismRequestOptions,
        cacheInterval: Duration? = nil,
        revalidating entry: PrismCacheEntry? = nil,
        fromEndpoint: Bool = false
    ) async throws -> PrismPreparedRequest {
        var adapted = built
        for interceptor in interceptors { adapted = try await interceptor.adapt(adapted) }
        guard let authenticator else {
            return try validated(
                adapted, built: built, credential: nil, options: options, cacheInterval: cacheInterval,
                revalidating: entry, fromEndpoint: fromEndpoint)
        }
        let authorized: (PrismHTTPRequest, String?)
        do {
            authorized = try await authenticator.authorize(adapted)
        } catch let error as PrismHTTPError {
            logFailure(error, of: adapted)
            throw error
        }
        return try validated(
            authorized.0, built: built, credential: authorized.1, options: options, cacheInterval: cacheInterval,
            revalidating: entry, fromEndpoint: fromEndpoint)
    }

    /// Stages 2 to 4 without a suspension, for a client with no interceptor and no
    /// authenticator (nothing to wait for); nil for any other client.
    func prepareNow(built: PrismHTTPRequest, options: PrismRequestOptions, cacheInterval: Duration?) throws
        -> PrismPreparedRequest?
    {
        guard interceptors.isEmpty, authenticator == nil else { return nil }
        return try validated(
            built, built: built, credential: nil, options: options, cacheInterval: cacheInterval, revalidating: nil,
            fromEndpoint: true)
    }

    /// Stage 4, the last step of a preparation: the cached validators added, then the checks.
    private func validated(
        _ adapted: PrismHTTPRequest,
        built: PrismHTTPRequest,
        credential: String?,
        options: PrismRequestOptions,
        cacheInterval: Duration?,
        revalidating entry: PrismCacheEntry?,
        fromEndpoint: Bool
    ) throws -> PrismPreparedRequest {
        let request = entry.map { adapted.conditional(revalidating: $0) } ?? adapted
        do {
            // A URL an endpoint built (stage 1 checks scheme, host, port and path) that no
            // interceptor changed is not parsed again.
            try RequestValidation.validate(request, urlChecked: fromEndpoint && request.url == built.url)
        } catch {
            logFailure(error, of: request)
            throw error
        }
        var prepared = PrismPreparedRequest(original: built, request: request, credential: credential, options: options)
        prepared.cacheInterval = cacheInterval
        prepared.isFromEndpoint = fromEndpoint
        return prepared
    }

    // MARK: 5-7. Look up, fetch, store

    /// The cache, then the network: the request's ``PrismCacheTransaction`` looks it up and
    /// plans; a cache hit comes back as the entry (with the value `decodedBy` kept beside it, if
    /// there is one), a fetched response is stored as HTTP and the policy allow.
    ///
    /// `transaction` is the one a lookup of `prepared` already made, if one was made.
    nonisolated(nonsending) func deliver(
        _ prepared: PrismPreparedRequest, decodedBy decoding: ObjectIdentifier?,
        transaction made: PrismCacheTransaction? = nil
    ) async throws -> Delivery {
        let transaction: PrismCacheTransaction
        if let made {
            transaction = made
        } else if let cache = cache(for: prepared) {
            transaction = PrismCacheTransaction(prepared, in: cache, key: prepared.cacheKey, decodedBy: decoding)
        } else {
            return .network(try await fetch(prepared, revalidating: nil).response, slot: nil)
        }
        if !channel.instruments.isEmpty { noteLookup(of: prepared.request, transaction.plan) }
        switch transaction.plan {
        case .serve(let entry, let source):
            if let logger, source == .cache {
                logger.debug("cache hit", metadata: ["url": "\(PrismHTTPRedaction.redact(prepared.request.url))"])
            }
            return transaction.serving(entry, source)
        case .serveAndRevalidate(let entry, let source):
            await revalidateInBackground(entry, of: prepared, in: transaction)
            return transaction.serving(entry, source)
        case .revalidate(let entry):
            return try await revalidate(entry, of: prepared, in: transaction)
        case .fetch:
            let exchange = try await fetch(prepared, revalidating: nil)
            return .network(exchange.response, slot: await transaction.store(exchange))
        case .notCached:
            return .network(PrismHTTPResponse.notCached(prepared.request), slot: nil)
        case .unavailable:
            throw PrismHTTPError(
                code: .notCached,
                message: "Nothing usable is cached for this request, and its cache policy (cacheOnly) never asks "
                    + "the server.",
                url: prepared.request.url, method: prepared.request.method)
        }
    }

    /// Tells the instruments what a look in the cache for `request` found, by its `plan`.
    func noteLookup(of request: PrismHTTPRequest, _ plan: PrismCacheTransaction.Plan) {
        let outcome: PrismCacheLookupOutcome
        switch plan {
        case .serve(_, let source): outcome = source == .network ? .miss : .hit
        case .serveAndRevalidate: outcome = .staleHit
        case .revalidate: outcome = .revalidation
        case .fetch, .notCached, .unavailable: outcome = .miss
        }
        for instrument in channel.instruments { instrument.cacheLookedUp(request, outcome: outcome) }
    }

    /// The cache `prepared` goes through: nil when the client has none, the policy is
    /// `networkOnly`, or the request is not one a cache keeps (RFC 9111 §2).
    func cache(for prepared: PrismPreparedRequest) -> PrismResponseCache? {
        guard let cache, prepared.options.cachePolicy != .networkOnly, prepared.request.isCacheable
        else { return nil }
        return cache
    }

    /// Stages 5 and 8 of a fresh hit that needs nothing but the value kept beside it: that value,
    /// when the transaction found a fresh entry it serves, the request asks for all of the body,
    /// and `request` accepts the entry's status; else nil.
    func freshValue<Request: PrismNetworkRequest>(_ transaction: PrismCacheTransaction, for request: Request)
        -> Request.Response?
    {
        guard let entry = transaction.freshEntry, let value = transaction.decoded as? Request.Response,
            entry.byteRange(for: transaction.request) == nil,
            request.accepts(statusCode: entry.statusCode)
        else { return nil }
        if !channel.instruments.isEmpty {
            for instrument in channel.instruments { instrument.cacheLookedUp(transaction.request, outcome: .hit) }
        }
        if let logger {
            logger.debug(
                "cache hit", metadata: ["url": "\(PrismHTTPRedaction.redact(transaction.request.url))"])
        }
        return value
    }

    // MARK: 6. Fetch: the retry loop

    /// The network, retried as the options' retry policy says: a transient status (408, 429,
    /// 5xx) counts as a failed attempt; when the attempts are spent the last response is an error
    /// that lists them. The first attempt sends `prepared` as it is (conditionally, when
    /// `revalidating` an entry with validators); each later one is prepared again.
    nonisolated(nonsending) func fetch(_ prepared: PrismPreparedRequest, revalidating entry: PrismCacheEntry?)
        async throws -> Exchange
    {
        let conditional = entry.flatMap { $0.canRevalidate ? $0 : nil }
        var first = prepared
        if let conditional {
            var request = prepared.request.conditional(revalidating: conditional)
            try RequestValidation.validateHeaders(request.headers, url: request.url)
            request.timeout = prepared.request.timeout
            first = PrismPreparedRequest(
                original: prepared.original, request: request, credential: prepared.credential,
                options: prepared.options)
        }
        return try await retrying(
            prepared, first: first, revalidating: conditional,
            attempt: {
                try await self.attempt($0, resendCount: $1, revalidating: conditional, open: self.channel.send).exchange
            },
            response: \.response, discard: { _ in })
    }

    /// The retry loop for any kind of answer (an exchange, a stream): `attempt` runs with
    /// `first`, then, while the options' retry policy (or the client's) allows, with `prepared`
    /// prepared again. A transient status (408, 429, 5xx) counts as a failed attempt, its answer
    /// `discard`ed; when the attempts are spent the last is an error that lists them.
    nonisolated(nonsending) func retrying<Answer>(
        _ prepared: PrismPreparedRequest,
        first: PrismPreparedRequest,
        revalidating conditional: PrismCacheEntry?,
        attempt: nonisolated(nonsending) (PrismPreparedRequest, _ resendCount: Int) async throws -> Answer,
        response: (Answer) -> PrismHTTPResponse,
        discard: (Answer) -> Void
    ) async throws -> Answer {
        guard let retryPolicy = prepared.options.retryPolicy ?? self.retryPolicy, retryPolicy.maxAttempts > 1 else {
            return try await attempt(first, 0)
        }
        var pending: PrismPreparedRequest? = first
        // How many times the request went out before this attempt.
        var sent = 0
        return try await Retrying.run(policy: retryPolicy, sleep: sleep) {
            let current: PrismPreparedRequest
            defer { sent += 1 }
            if let next = pending {
                current = next
                pending = nil
            } else {
                current = try await self.prepare(
                    built: prepared.original, options: prepared.options, revalidating: conditional,
                    fromEndpoint: prepared.isFromEndpoint)
            }
            let answer = try await attempt(current, sent)
            let status = response(answer)
            let failure = PrismHTTPError.unacceptable(status, method: current.request.method)
            if !status.isSuccess, PrismRetryFailure(error: failure).isTransient {
                discard(answer)
                throw failure
            }
            return answer
        }
    }

    /// One attempt: `prepared` through `open` (the channel: a whole response, an upload, a
    /// stream's head), and when the authenticator says the credentials were refused, a refresh,
    /// a new preparation and one more (the refused answer discarded unread). The exchange is the
    /// answer's head with the request as finally sent.
    nonisolated(nonsending) func attempt<Answer: TransportAnswer>(
        _ prepared: PrismPreparedRequest,
        resendCount: Int = 0,
        revalidating entry: PrismCacheEntry?,
        open: nonisolated(nonsending) (PrismHTTPRequest, _ resendCount: Int) async throws -> Answer
    ) async throws -> (answer: Answer, exchange: Exchange) {
        var sent = prepared.request
        var requestTime = Exchange.now()
        var answer = try await open(sent, resendCount)
        if let authenticator, authenticator.isAuthenticationFailure(answer.head) {
            answer.discard()
            sent = try await refreshed(prepared, by: authenticator, revalidating: entry).request
            requestTime = Exchange.now()
            answer = try await open(sent, resendCount + 1)
        }
        let exchange = Exchange(response: answer.head, sent: sent, requestTime: requestTime)
        // An unsafe method answered without an error invalidates what is stored for its target
        // (RFC 9111 §4.4), for every credential.
        if let cache, exchange.invalidates {
            let urls = exchange.invalidatedURLs.map(\.absoluteString)
            await cache.removeAll { PrismCacheKey.isStoredResponse($0, ofAny: urls) }
        }
        return (answer, exchange)
    }

    /// `prepared` again after `authenticator` refreshed the credentials it was refused with.
    func refreshed(
        _ prepared: PrismPreparedRequest, by authenticator: any PrismAuthenticator, revalidating entry: PrismCacheEntry?
    ) async throws -> PrismPreparedRequest {
        do {
            try await authenticator.refresh(replacing: prepared.credential)
        } catch let error as PrismHTTPError {
            logFailure(error, of: prepared.request)
            throw error
        }
        return try await prepare(
            built: prepared.original, options: prepared.options, revalidating: entry,
            fromEndpoint: prepared.isFromEndpoint)
    }
}
