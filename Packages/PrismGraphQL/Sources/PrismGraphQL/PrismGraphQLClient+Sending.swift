import Foundation
@_spi(PrismInternals) import PrismCache
@_spi(PrismInternals) import PrismHTTP

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
        guard let template else {
            throw PrismGraphQLError(
                code: .invalidEndpoint,
                message: "The endpoint URL must be an absolute http or https URL with a host.",
                url: endpointURL,
                operationName: query.operationName
            )
        }
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
        // POSTs never go through PrismHTTP's HTTP cache; GraphQL caches below, by request.
        networkOptions.cachePolicy = .networkOnly
        if !isMutation, let retryPolicy = options.retryPolicy {
            networkOptions.retryPolicy = QueryRetryPolicy(base: retryPolicy)
        }

        let policy = options.cachePolicy
        guard let cache, !isMutation, policy != .networkOnly, policy != nil || query.cacheInterval != nil else {
            return try await exchange(query, as: type, options: networkOptions).response
        }
        let document = try body(of: query, sendingQuery: true, hash: nil)
        let identity = try await cacheIdentity(template, body: document)
        let key = GraphQLCaching.key(url: endpointURL, body: document, identity: identity)
        let lookup = await cache.lookup(key)
        let cached = lookup.entry.flatMap { entry in
            try? GraphQLResponseDecoding.decode(T.self, from: entry.data, context: context(of: query))
        }
        let storage = Storage(cache: cache, key: key, identity: identity, document: document, ttl: ttl)
        // An answer that no longer decodes is as good as none.
        switch (PrismCachePlan(lookup: cached == nil ? .miss : lookup, policy: policy), cached) {
        case (.serve, let cached?):
            return cached
        case (.serveAndRevalidate, let cached?):
            // The copy that revalidates does not hold the revalidations: when the client goes
            // away they go too, and cancel it.
            var worker = self
            worker.revalidations = nil
            await backgroundRevalidations.start(for: PrismCacheKey(key)) { [worker, networkOptions] in
                _ = try? await worker.fetchAndStore(
                    query, as: type, options: networkOptions, in: storage, inBackground: true)
            }
            return cached
        default:
            return try await fetchAndStore(query, as: type, options: networkOptions, in: storage)
        }
    }

    /// Where and how a query's answer is cached.
    private struct Storage: Sendable {
        var cache: PrismResponseCache
        var key: String
        var identity: String
        var document: Data
        var ttl: Duration
    }

    private func fetchAndStore<T: Decodable & Sendable>(
        _ query: PrismGraphQLQuery,
        as type: T.Type,
        options: PrismRequestOptions,
        in storage: Storage,
        inBackground: Bool = false
    ) async throws -> PrismGraphQLResponse<T> {
        let (response, reply) = try await exchange(query, as: type, options: options)
        guard let entry = GraphQLCaching.entry(for: response, reply: reply, ttl: storage.ttl), let template else {
            return response
        }
        // A background revalidation cancelled with its client stores nothing.
        if inBackground && Task.isCancelled { return response }
        // The credentials may have changed on the way (a refresh, a sign-out): the answer is
        // stored only under the credentials it is known to belong to.
        if (try? await cacheIdentity(template, body: storage.document)) == storage.identity {
            await storage.cache.set(entry, for: storage.key)
        }
        return response
    }

    /// What a cached answer is keyed on besides the document: the client's additional headers,
    /// and the credentials the request carries as it would be sent now (after a
    /// `PrismNetworkAdapter`'s interceptors and authenticator), as a SHA-256.
    private func cacheIdentity(_ template: GraphQLEndpoint.Template, body: Data) async throws -> String {
        var request = try GraphQLEndpoint(template: template, payload: body).makeHTTPRequest()
        if let adapter = networkClient as? PrismNetworkAdapter {
            request = try await adapter.preparedForSending(request)
        }
        var fields = additionalHeaders.map { (name: $0.key.lowercased(), value: $0.value) }
        for field in request.headers where PrismHTTPRedaction.isSensitive(field.name) {
            fields.append((field.name.lowercased(), field.value))
        }
        fields.sort { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        var bytes = Data()
        for field in fields {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(0)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(0)
        }
        return SHA256Hex.digest(of: bytes)
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
                let reply = try await send(
                    requestBody(of: query, sendingQuery: false, hash: sha256), query, options: options)
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
        let reply = try await send(requestBody(of: query, sendingQuery: true, hash: hash), query, options: options)
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

    /// Sends `body` through the network client, as a POST or a GET (``method(of:)``).
    ///
    /// A response with a non-2xx status whose body is a GraphQL response (in either media type)
    /// is returned for decoding, with its status, as GraphQL over HTTP says; any other non-2xx
    /// response is an `unacceptableStatus` error that keeps the status and the body.
    private func send(
        _ body: GraphQLRequestBody, _ query: PrismGraphQLQuery, options: PrismRequestOptions
    ) async throws -> Reply {
        let status = StatusRecorder()
        guard let template else {
            throw PrismGraphQLError(
                code: .invalidEndpoint, message: "The endpoint URL is not valid.", url: endpointURL,
                operationName: query.operationName)
        }
        let endpoint =
            switch method(of: query) {
            case .post: GraphQLEndpoint(template: template, payload: try body.encoded(url: endpointURL))
            case .get: GraphQLEndpoint(template: template, operationItems: try body.queryItems(url: endpointURL))
            }
        let request = GraphQLHTTPRequest(endpoint: endpoint, status: status)
        do {
            let data = try await networkClient.request(on: request, options: options)
            return Reply(body: data, statusCode: status.statusCode)
        } catch let error as PrismHTTPError
            where error.code == .unacceptableStatus
            && GraphQLResponseDecoding.isGraphQLResponse(body: error.body, contentType: error.headers?["Content-Type"])
        {
            return Reply(body: error.body ?? Data(), statusCode: error.statusCode)
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
