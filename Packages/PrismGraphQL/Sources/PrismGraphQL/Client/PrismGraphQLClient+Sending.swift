import Foundation
@_spi(PrismInternals) import PrismCache
@_spi(PrismInternals) import PrismHTTP

extension PrismGraphQLClient {
    /// A body as it arrived, with the status it arrived with and the request as it was sent.
    struct Reply {
        var body: Data
        var statusCode: Int?
        /// The response's headers (empty when unknown).
        var headers: PrismHTTPHeaders = [:]
        /// The request as the network client finally sent it (its credentials refreshed or not).
        var sent: PrismHTTPRequest?
    }

    /// The first request of an operation, prepared by the network client (interceptors,
    /// authenticator, checks) once: the cache is keyed on its headers, and the first attempt
    /// sends it as it is.
    ///
    /// A class, handed from function to function by reference: as a struct, the prepared request
    /// (two requests and their options) was copied and destroyed field by field each time, about
    /// 5% of a query's client-side time (`--filter "graphql pipeline"`).
    final class FirstRequest: Sendable {
        let prepared: PrismPreparedRequest
        /// The persisted-query hash it carries instead of the document, if any.
        let hash: String?

        init(prepared: PrismPreparedRequest, hash: String?) {
            self.prepared = prepared
            self.hash = hash
        }
    }

    /// One operation, inside the network client's instruments (a tracing instrument's span,
    /// whose children its attempts are), when it has any.
    func perform<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        as type: T.Type,
        options: PrismRequestOptions
    ) async throws -> PrismGraphQLResponse<T> {
        let instruments = networkClient.instruments
        guard !instruments.isEmpty else { return try await performed(query, as: type, options: options) }
        let operation = PrismNetworkOperation(
            system: "graphql", type: query.isMutation ? "mutation" : "query", name: query.operationName)
        return try await instruments.around(operation) { try await performed(query, as: type, options: options) }
    }

    /// The cache, the persisted-query exchange and the decoding of one operation.
    func performed<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        as type: T.Type,
        options: PrismRequestOptions
    ) async throws -> PrismGraphQLResponse<T> {
        guard let template else { throw invalidEndpoint(query) }
        let ttl = try GraphQLCaching.ttl(query)
        let isMutation = query.isMutation
        if isMutation && query.httpMethod == .get {
            throw PrismGraphQLError(
                code: .invalidOperation,
                message:
                    "A mutation is never sent as GET (it could be replayed by caches and links); it is sent as POST.",
                url: endpointURL,
                operationName: query.operationName
            )
        }
        var networkOptions = options
        // GraphQL answers are cached below, by operation, not by PrismHTTP's HTTP cache.
        networkOptions.cachePolicy = .networkOnly
        if !isMutation, let retryPolicy = options.retryPolicy {
            networkOptions.retryPolicy = QueryRetryPolicy(base: retryPolicy)
        }
        let first = try await firstRequest(query, template: template, options: networkOptions)

        let policy = options.cachePolicy
        guard let cache, !isMutation, policy != .networkOnly, policy != nil || query.cacheInterval != nil else {
            return try await exchange(query, as: type, first: first, options: networkOptions).response
        }
        let document = try body(of: query, sendingQuery: true, hash: nil)
        let url = endpointURL
        let rules = PrismCacheTransaction.Rules.operation {
            GraphQLCaching.key(url: url, document: document, request: $0)
        }
        var transaction = PrismCacheTransaction(
            operation: first.prepared, rules: rules, policy: policy, in: cache,
            key: rules.key(of: first.prepared.request))
        // An answer that no longer decodes is as good as none (one that varies on a header this
        // request sends differently the transaction already counts as none).
        var cached: PrismGraphQLResponse<T>?
        if let entry = transaction.found {
            cached = try? GraphQLResponseDecoding.decode(T.self, from: entry.data, context: context(of: query))
            if cached == nil { transaction.discardFound() }
        }
        switch (transaction.plan, cached) {
        case (.serve, let cached?):
            return cached
        case (.serveAndRevalidate, let cached?):
            // The copy that revalidates does not hold the revalidations: when the client goes
            // away they go too, and cancel it. It prepares its request again when it runs.
            var worker = self
            worker.revalidations = nil
            await backgroundRevalidations.start(for: transaction.key) { [worker, networkOptions, transaction, ttl] in
                _ = try? await worker.fetchAndStore(
                    query, as: type, first: nil, options: networkOptions, in: transaction, ttl: ttl, inBackground: true)
            }
            return cached
        case (.unavailable, _):
            throw PrismGraphQLError(
                code: .requestFailed,
                message:
                    "Nothing usable is cached for this query, and the cache policy (cacheOnly) never asks the server.",
                url: endpointURL, operationName: query.operationName,
                underlying: PrismHTTPError(code: .notCached, message: "Nothing usable is cached.", url: endpointURL))
        default:
            return try await fetchAndStore(
                query, as: type, first: first, options: networkOptions, in: transaction, ttl: ttl)
        }
    }

    /// Fetches the operation's answer and stores it through `transaction`, when it has data and
    /// no errors. A background revalidation cancelled with its client stores nothing.
    private func fetchAndStore<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        as type: T.Type,
        first: FirstRequest?,
        options: PrismRequestOptions,
        in transaction: PrismCacheTransaction,
        ttl: Duration,
        inBackground: Bool = false
    ) async throws -> PrismGraphQLResponse<T> {
        let (response, reply) = try await exchange(query, as: type, first: first, options: options)
        guard response.data != nil, !response.hasErrors, let sent = reply.sent else { return response }
        if inBackground && Task.isCancelled { return response }
        await transaction.store(
            body: reply.body, statusCode: reply.statusCode ?? 200, headers: reply.headers, sent: sent, ttl: ttl)
        return response
    }

    /// The operation's first request, prepared: with the persisted-query hash instead of the
    /// document when the client sends hashes first (and the server has not said it cannot).
    private func firstRequest(
        _ query: PrismGraphQLQuery, template: GraphQLEndpoint.Template, options: PrismRequestOptions
    ) async throws -> FirstRequest {
        let hash =
            usesAutomaticPersistedQueries && persistedQuerySupport.isSupported
            ? PersistedQueries.hash(of: query.query) : nil
        let body = requestBody(of: query, sendingQuery: hash == nil, hash: hash)
        return FirstRequest(prepared: try await prepare(body, query, template: template, options: options), hash: hash)
    }

    /// Sends the operation (as a persisted-query hash first when `first` carries one) and
    /// decodes the answer. `first` is sent as it is; any other request is prepared when sent.
    private func exchange<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        as type: T.Type,
        first: FirstRequest?,
        options: PrismRequestOptions
    ) async throws -> (response: PrismGraphQLResponse<T>, reply: Reply) {
        guard let template else { throw invalidEndpoint(query) }
        var first = first
        if first == nil { first = try await firstRequest(query, template: template, options: options) }
        var hash = first?.hash
        if let sha256 = hash, let persisted = first?.prepared {
            first = nil
            let outcome: PersistedQueries.Outcome?
            do {
                let reply = try await send(persisted, query)
                let response = try GraphQLResponseDecoding.decode(
                    T.self, from: reply.body, context: context(of: query, reply))
                outcome = PersistedQueries.outcome(of: response.errors)
                if outcome == nil { return (response, reply) }
            } catch let error as PrismGraphQLError where PersistedQueries.outcome(of: error.errors) != nil {
                outcome = PersistedQueries.outcome(of: error.errors)
            }
            if outcome == .notSupported {
                persistedQuerySupport.markUnsupported()
                hash = nil
            } else {
                hash = sha256
            }
        }
        let reply: Reply
        if let first {
            reply = try await send(first.prepared, query)
        } else {
            let prepared = try await prepare(
                requestBody(of: query, sendingQuery: true, hash: hash), query, template: template, options: options)
            reply = try await send(prepared, query)
        }
        let response = try GraphQLResponseDecoding.decode(T.self, from: reply.body, context: context(of: query, reply))
        return (response, reply)
    }

    /// The JSON body of `query`.
    func body(of query: PrismGraphQLQuery, sendingQuery: Bool, hash: String?) throws(PrismGraphQLError) -> Data {
        try requestBody(of: query, sendingQuery: sendingQuery, hash: hash).encoded(url: endpointURL)
    }

    /// The members of `query`'s request.
    private func requestBody(of query: PrismGraphQLQuery, sendingQuery: Bool, hash: String?) -> GraphQLRequestBody {
        GraphQLRequestBody(
            query: sendingQuery ? query.query : nil,
            operationName: query.operationName,
            variables: query.variables,
            persistedQueryHash: hash
        )
    }

    /// How `query` is sent: a mutation always as POST, a query as it asks or as the client does.
    func method(of query: PrismGraphQLQuery) -> PrismGraphQLHTTPMethod {
        query.isMutation ? .post : (query.httpMethod ?? queryMethod)
    }

    /// `body` as an HTTP request (a POST, or a GET: ``method(of:)``), prepared by the network
    /// client: its interceptors, authenticator and checks.
    private func prepare(
        _ body: GraphQLRequestBody, _ query: PrismGraphQLQuery, template: GraphQLEndpoint.Template,
        options: PrismRequestOptions
    ) async throws -> PrismPreparedRequest {
        do {
            switch method(of: query) {
            case .post:
                let payload = try body.encoded(url: endpointURL)
                // The POST the template built once, with this operation's body: its URL and
                // headers are checked again, once, by prepare.
                if var post = template.post {
                    post.body = payload
                    return try await networkClient.prepare(post, options: options)
                }
                return try await networkClient.prepare(
                    try GraphQLEndpoint(template: template, payload: payload).makeHTTPRequest(), options: options)
            case .get:
                let endpoint = GraphQLEndpoint(
                    template: template, operationItems: try body.queryItems(url: endpointURL))
                return try await networkClient.prepare(try endpoint.makeHTTPRequest(), options: options)
            }
        } catch let error as PrismGraphQLError {
            throw error
        } catch {
            throw translated(error, query: query)
        }
    }

    /// Sends `prepared` through the network client.
    ///
    /// A response with a non-2xx status whose body is a GraphQL response (in either media type)
    /// is returned for decoding, with its status, as GraphQL over HTTP says; any other non-2xx
    /// response is an `unacceptableStatus` error that keeps the status and the body.
    private func send(_ prepared: PrismPreparedRequest, _ query: PrismGraphQLQuery) async throws -> Reply {
        let response: PrismHTTPResponse
        do {
            response = try await networkClient.send(prepared)
        } catch let error as PrismHTTPError
            where error.code == .unacceptableStatus
            && GraphQLResponseDecoding.isGraphQLResponse(body: error.body, contentType: error.headers?["Content-Type"])
        {
            // A transient status that a retry policy gave up on, with a GraphQL body.
            return Reply(
                body: error.body ?? Data(), statusCode: error.statusCode, headers: error.headers ?? [:], sent: nil)
        } catch {
            throw translated(error, query: query)
        }
        guard
            response.isSuccess
                || GraphQLResponseDecoding.isGraphQLResponse(
                    body: response.body, contentType: response.headers["Content-Type"])
        else {
            throw graphQLError(
                from: PrismHTTPError.unacceptable(response, method: prepared.request.method), query: query)
        }
        return Reply(
            body: response.body, statusCode: response.statusCode, headers: response.headers,
            sent: response.request ?? prepared.request)
    }

    /// `error` as this client throws it: a ``PrismGraphQLError`` (cancellation stays itself).
    func translated(_ error: any Error, query: PrismGraphQLQuery) -> any Error {
        switch error {
        case let error as PrismHTTPError: graphQLError(from: error, query: query)
        case is PrismGraphQLError, is CancellationError: error
        default:
            PrismGraphQLError(
                code: .requestFailed,
                message: "The request failed: \(error)",
                url: endpointURL,
                operationName: query.operationName,
                underlying: error
            )
        }
    }

    func invalidEndpoint(_ query: PrismGraphQLQuery) -> PrismGraphQLError {
        PrismGraphQLError(
            code: .invalidEndpoint,
            message: "The endpoint URL must be an absolute http or https URL with a host.",
            url: endpointURL,
            operationName: query.operationName
        )
    }

    func graphQLError(from error: PrismHTTPError, query: PrismGraphQLQuery) -> PrismGraphQLError {
        let isStatus = error.code == .unacceptableStatus
        let message =
            isStatus
            ? "The server answered \(error.statusCode.map(String.init) ?? "an error") instead of a GraphQL response."
            : "The request failed: \(error.message)"
        return PrismGraphQLError(
            code: isStatus ? .unacceptableStatus : .requestFailed,
            message: message,
            url: error.url ?? endpointURL,
            operationName: query.operationName,
            statusCode: error.statusCode,
            headers: error.headers,
            body: error.body,
            errors: GraphQLResponseDecoding.errors(in: error.body),
            underlying: error
        )
    }

    func context(of query: PrismGraphQLQuery, _ reply: Reply? = nil) -> GraphQLResponseDecoding.Context {
        GraphQLResponseDecoding.Context(
            url: endpointURL, operationName: query.operationName, statusCode: reply?.statusCode)
    }
}
