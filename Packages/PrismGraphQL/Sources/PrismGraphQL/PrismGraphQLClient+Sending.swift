import Foundation
import PrismCache
import PrismHTTP

extension PrismGraphQLClient {
    /// A body as it arrived, with the status it arrived with when known.
    struct Reply {
        var body: Data
        var statusCode: Int?
    }

    /// The cache, the persisted-query exchange and the decoding of one operation.
    func perform<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        as type: T.Type,
        options: PrismRequestOptions
    ) async throws -> PrismGraphQLResponse<T> {
        let isMutation = query.isMutation
        var networkOptions = options
        // POSTs never go through PrismHTTP's HTTP cache; GraphQL caches below, by request.
        networkOptions.cachePolicy = .networkOnly
        if !isMutation, let retryPolicy = options.retryPolicy {
            networkOptions.retryPolicy = QueryRetryPolicy(base: retryPolicy)
        }

        let policy = options.cachePolicy
        guard let cache, !isMutation, policy != .networkOnly, policy != nil || query.cacheInterval != nil else {
            return try await exchange(query, as: type, options: networkOptions).response
        }
        let key = try GraphQLCaching.key(url: endpointURL, body: body(of: query, sendingQuery: true, hash: nil))
        let lookup = await cache.lookup(key)
        let cached = lookup.entry.flatMap { entry in
            try? GraphQLResponseDecoding.decode(T.self, from: entry.data, context: context(of: query))
        }
        if let cached {
            switch (lookup, policy) {
            case (.fresh, _), (.stale, .cacheFirst?):
                return cached
            case (.stale, .staleWhileRevalidate?):
                Task { [self] in
                    _ = try? await fetchAndStore(query, as: type, options: networkOptions, key: key, cache: cache)
                }
                return cached
            default:
                break
            }
        }
        return try await fetchAndStore(query, as: type, options: networkOptions, key: key, cache: cache)
    }

    private func fetchAndStore<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        as type: T.Type,
        options: PrismRequestOptions,
        key: String,
        cache: PrismResponseCache
    ) async throws -> PrismGraphQLResponse<T> {
        let (response, reply) = try await exchange(query, as: type, options: options)
        if let entry = GraphQLCaching.entry(for: response, reply: reply, cacheInterval: query.cacheInterval) {
            await cache.set(entry, for: key)
        }
        return response
    }

    /// Sends the operation (as a persisted-query hash first when enabled) and decodes the answer.
    private func exchange<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        as type: T.Type,
        options: PrismRequestOptions
    ) async throws -> (response: PrismGraphQLResponse<T>, reply: Reply) {
        var hash: String?
        if usesAutomaticPersistedQueries && persistedQuerySupport.isSupported {
            let sha256 = PersistedQueries.hash(of: query.query)
            hash = sha256
            let outcome: PersistedQueries.Outcome?
            do {
                let reply = try await post(body(of: query, sendingQuery: false, hash: sha256), query, options: options)
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
            }
        }
        let reply = try await post(body(of: query, sendingQuery: true, hash: hash), query, options: options)
        let response = try GraphQLResponseDecoding.decode(T.self, from: reply.body, context: context(of: query, reply))
        return (response, reply)
    }

    /// The JSON body of `query`.
    private func body(of query: PrismGraphQLQuery, sendingQuery: Bool, hash: String?) throws(PrismGraphQLError) -> Data
    {
        try GraphQLRequestBody(
            query: sendingQuery ? query.query : nil,
            operationName: query.operationName,
            variables: query.variables,
            persistedQueryHash: hash
        ).encoded(url: endpointURL)
    }

    /// POSTs `body` through the network client.
    private func post(_ body: Data, _ query: PrismGraphQLQuery, options: PrismRequestOptions) async throws -> Reply {
        let status = StatusRecorder()
        let request = GraphQLHTTPRequest(endpoint: GraphQLEndpoint(template: template, payload: body), status: status)
        do {
            let data = try await networkClient.request(on: request, options: options)
            return Reply(body: data, statusCode: status.statusCode)
        } catch let error as PrismHTTPError {
            throw graphQLError(from: error, query: query)
        } catch let error as PrismGraphQLError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw PrismGraphQLError(
                code: .requestFailed,
                message: "The request failed: \(error)",
                url: endpointURL,
                operationName: query.operationName,
                underlying: error
            )
        }
    }

    private func graphQLError(from error: PrismHTTPError, query: PrismGraphQLQuery) -> PrismGraphQLError {
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

    private func context(of query: PrismGraphQLQuery, _ reply: Reply? = nil) -> GraphQLResponseDecoding.Context {
        GraphQLResponseDecoding.Context(
            url: endpointURL, operationName: query.operationName, statusCode: reply?.statusCode)
    }
}
