import Foundation
import PrismCache
import PrismGraphQL
@_spi(PrismInternals) import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// PrismHTTP's request pipeline as PrismGraphQL and any app see it: each attempt is prepared
/// (interceptors, authenticator, checks) exactly once, hit or miss, for HTTP and GraphQL alike,
/// and a network client of one's own gets what the adapter gets.
@Suite("One pipeline: each attempt prepared once, for HTTP and GraphQL; any network client gets caching and uploads")
struct PipelineSeamTests {
    /// Counts the calls of an interceptor (which adds `X-Tenant`) and of an authenticator (which
    /// adds a bearer token).
    struct Stages {
        let intercepted = LockedBox(0)
        let authorized = LockedBox(0)

        var interceptor: PrismInterceptor {
            PrismInterceptor { [intercepted] request in
                intercepted.mutate { $0 += 1 }
                var request = request
                request.headers["X-Tenant"] = "acme"
                return request
            }
        }

        var authenticator: CountingAuthenticator { CountingAuthenticator(count: authorized) }

        /// (interceptor calls, authenticator calls)
        var counts: (Int, Int) { (intercepted.wrappedValue, authorized.wrappedValue) }

        func adapter(cache: PrismResponseCache? = nil) -> PrismNetworkAdapter {
            PrismNetworkAdapter(cache: cache, interceptors: [interceptor], authenticator: authenticator)
        }
    }

    struct CountingAuthenticator: PrismAuthenticator {
        let count: LockedBox<Int>

        func authorize(_ request: PrismHTTPRequest) async throws -> (request: PrismHTTPRequest, credential: String?) {
            count.mutate { $0 += 1 }
            var request = request
            request.headers["Authorization"] = "Bearer counted"
            return (request, "counted")
        }

        func refresh(replacing credential: String?) async throws {}
    }

    struct OperationNumberData: Decodable, Sendable, Equatable {
        var operationNumber: Int
    }

    static var number: PrismGraphQLQuery {
        var query = PrismGraphQLQuery(query: "query Number { operationNumber }")
        query.cacheInterval = 60
        return query
    }

    let fast = PrismExponentialBackoff(
        baseDelay: .milliseconds(5), maxDelay: .milliseconds(50), maxAttempts: 4, jitter: .milliseconds(5))

    // MARK: Each attempt prepared once

    @Test("an HTTP GET runs the interceptor and the authenticator once on a miss and once on a hit")
    func httpHitOrMiss() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let stages = Stages()
            let client = stages.adapter(cache: PrismResponseCache(maxSize: 10))
            let request = PrismHTTPRequest(url: server.url("/cache/stages?max-age=60"))
            let miss = try await client.send(request)
            #expect(stages.counts == (1, 1))
            let hit = try await client.send(request)
            #expect(stages.counts == (2, 2))
            #expect(hit.body == miss.body)
            #expect(server.hits("/cache/stages") == 1)
            // The response names the request as sent: adapted and authorized.
            #expect(miss.request?.headers["X-Tenant"] == "acme")
            #expect(miss.request?.headers["Authorization"] == "Bearer counted")
        }
    }

    @Test("a retried HTTP GET is prepared once per attempt")
    func httpRetries() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let stages = Stages()
            let response = try await stages.adapter().send(
                PrismHTTPRequest(url: server.url("/flaky/stages?failures=2&status=503")),
                options: PrismRequestOptions(retryPolicy: fast))
            #expect(response.statusCode == 200)
            #expect(server.flakyAttempts("stages") == 3)
            #expect(stages.counts == (3, 3))
        }
    }

    @Test("a cached GraphQL query runs the interceptor and the authenticator once on a miss and once on a hit")
    func graphQLHitOrMiss() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let stages = Stages()
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql"), networkClient: stages.adapter(),
                cache: PrismResponseCache(maxSize: 10))
            let first = try await graphql.execute(Self.number, as: OperationNumberData.self).requireData()
            #expect(stages.counts == (1, 1))
            let second = try await graphql.execute(Self.number, as: OperationNumberData.self).requireData()
            #expect(second == first)
            #expect(stages.counts == (2, 2))
            #expect(server.graphQLStatistics.executed == 1)
        }
    }

    @Test("a retried GraphQL query is prepared once per attempt")
    func graphQLRetries() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let stages = Stages()
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql/flaky/stages?failures=2&status=503"),
                networkClient: stages.adapter(), cache: nil)
            let response = try await graphql.execute(
                getUserQuery("octocat"), as: UserQueryData.self, options: .init(retryPolicy: fast))
            #expect(response.data?.user?.publicRepos == 8)
            #expect(server.flakyAttempts("stages") == 3)
            #expect(stages.counts == (3, 3))
        }
    }

    // MARK: What a GraphQL answer is cached per

    @Test("a GraphQL answer is cached per header an interceptor adds, not only per credential")
    func cachedPerInterceptorHeader() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let cache = PrismResponseCache(maxSize: 10)
            func client(language: String) -> PrismGraphQLClient {
                PrismGraphQLClient(
                    endpointURL: server.url("/graphql"),
                    networkClient: PrismNetworkAdapter(
                        cache: nil, interceptors: [PrismInterceptor.headers(["Accept-Language": language])]),
                    cache: cache)
            }
            let english = try await client(language: "en").execute(Self.number, as: OperationNumberData.self)
            let french = try await client(language: "fr").execute(Self.number, as: OperationNumberData.self)
            #expect(french.data != english.data)
            let englishAgain = try await client(language: "en").execute(Self.number, as: OperationNumberData.self)
            #expect(englishAgain.data == english.data)
            #expect(server.graphQLStatistics.executed == 2)
        }
    }

    @Test("a GraphQL answer honours Vary, even on a header that names one request only")
    func cachedPerVary() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            func number(_ path: String, requestID: String) async throws -> Int? {
                try await PrismGraphQLClient(
                    endpointURL: server.url(path), networkClient: PrismNetworkAdapter(cache: nil), cache: cache
                ).execute(
                    Self.number, as: OperationNumberData.self, options: .init(headers: ["X-Request-ID": requestID])
                )
                .data?.operationNumber
            }
            let cache = PrismResponseCache(maxSize: 10)
            // Without Vary, a request id is not part of what is asked: the answer is reused.
            let plain = try await number("/graphql", requestID: "a")
            #expect(try await number("/graphql", requestID: "b") == plain)
            // With Vary: X-Request-ID, another id is another answer; the same id the same one.
            let varied = try await number("/graphql?vary=X-Request-ID", requestID: "a")
            #expect(varied != plain)
            let other = try await number("/graphql?vary=X-Request-ID", requestID: "b")
            #expect(other != varied)
            // Vary: * is never reused.
            let star = try await number("/graphql?vary=*", requestID: "a")
            #expect(try await number("/graphql?vary=*", requestID: "a") != star)
        }
    }

    // MARK: Any network client

    /// A network client written as an app's test double would be: it only sends, through a
    /// transport (here a real one, to the test server), and counts.
    struct SendOnly: PrismNetworkClient {
        let transport = PrismAsyncHTTPClientTransport()
        let sent = LockedBox(0)
        var token: String?

        func prepare(_ request: PrismHTTPRequest, options: PrismRequestOptions) async throws -> PrismPreparedRequest {
            var prepared = request
            for (name, value) in options.headers { prepared.headers[name] = value }
            if let token { prepared.headers["Authorization"] = "Bearer \(token)" }
            return PrismPreparedRequest(original: request, request: prepared, credential: token, options: options)
        }

        func send(_ prepared: PrismPreparedRequest) async throws -> PrismHTTPResponse {
            sent.mutate { $0 += 1 }
            return try await transport.send(prepared.request)
        }
    }

    @Test("a network client that only sends gets GraphQL's cache, keyed on the request it prepared")
    func doubleGetsCaching() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let double = SendOnly()
            let cache = PrismResponseCache(maxSize: 10)
            let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: double, cache: cache)
            let first = try await graphql.execute(Self.number, as: OperationNumberData.self)
            let second = try await graphql.execute(Self.number, as: OperationNumberData.self)
            #expect(second.data == first.data)
            #expect(double.sent.wrappedValue == 1)
            var other = double
            other.token = "someone-else"
            let third = try await PrismGraphQLClient(
                endpointURL: server.url("/graphql"), networkClient: other, cache: cache
            ).execute(Self.number, as: OperationNumberData.self)
            #expect(third.data != first.data)
        }
    }

    @Test("a network client that only sends can upload GraphQL files")
    func doubleUploads() async throws {
        struct UploadedFile: Decodable, Sendable {
            var filename: String?
            var size: Int
        }
        struct UploadFileData: Decodable, Sendable {
            var uploadFile: UploadedFile
        }
        try await withServer { (server: PrismTestServer) async throws in
            let double = SendOnly()
            let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: double, cache: nil)
            let file = try PrismGraphQLFile(
                data: Data(repeating: 7, count: 1_000), variable: "file", fileName: "seven.bin",
                mimeType: "application/octet-stream")
            let response = try await graphql.upload(
                PrismGraphQLQuery(
                    query: "mutation One($file: Upload!) { uploadFile(file: $file) { filename size } }",
                    operationName: "One"),
                files: [file], as: UploadFileData.self)
            #expect(response.data?.uploadFile.size == 1_000)
            #expect(response.data?.uploadFile.filename == "seven.bin")
            #expect(double.sent.wrappedValue == 1)
        }
    }

    @Test("a network client's prepare authenticates the subscription socket, as the adapter's authenticator does")
    func doubleAuthenticatesSockets() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let double = SendOnly(token: server.currentToken)
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql?requireToken=1"), networkClient: double, cache: nil,
                subscriptions: .immediateReconnect)
            var values: [Int] = []
            for try await event in graphql.subscribe(counterSubscription(to: 2), as: CounterData.self) {
                values.append(try #require(event.data).counter)
            }
            #expect(values == [1, 2])
            #expect(server.graphQLSubscriptionStatistics.initPayloads == [#"{"Authorization":"Bearer token-0"}"#])
        }
    }
}
