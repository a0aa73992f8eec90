import Foundation
import PrismGraphQL
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Through PrismHTTP's client: interceptors, authentication, retries")
struct NetworkClientTests {
    struct AuthorizationData: Decodable, Sendable {
        var authorization: String?
    }

    let fast = PrismExponentialBackoff(
        baseDelay: .milliseconds(5), maxDelay: .milliseconds(50), maxAttempts: 4, jitter: .milliseconds(5))

    static let createIssue = PrismGraphQLQuery(
        query: "mutation { createIssue(repo: \"o/r\", input: {title: \"t\"}) { number } }")

    struct CreateIssueData: Decodable, Sendable {
        struct Issue: Decodable, Sendable { var number: Int }
        var createIssue: Issue
    }

    @Test("the adapter's interceptors adapt GraphQL requests", arguments: TransportKind.allCases)
    func interceptors(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let auth = PrismInterceptor.headers(["Authorization": "Bearer from-interceptor"])
            let graphql = server.graphQLClient(transport: transport, interceptors: [auth])
            let response = try await graphql.execute(
                PrismGraphQLQuery(query: "{ authorization }"), as: AuthorizationData.self)
            #expect(response.data?.authorization == "Bearer from-interceptor")
        }
    }

    @Test("the adapter's authenticator adds credentials to GraphQL requests")
    func authenticator() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let tokens = PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in "token-1" }
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql"),
                networkClient: PrismNetworkAdapter(cache: nil, authenticator: tokens)
            )
            let response = try await graphql.execute(
                PrismGraphQLQuery(query: "{ authorization }"), as: AuthorizationData.self)
            #expect(response.data?.authorization == "Bearer token-0")
        }
    }

    @Test("any PrismNetworkClient can send: a test double that counts and forwards")
    func customNetworkClient() async throws {
        struct Counting: PrismNetworkClient {
            let base = PrismNetworkAdapter(cache: nil)
            let count = LockedBox(0)

            func send(_ prepared: PrismPreparedRequest) async throws -> PrismHTTPResponse {
                count.mutate { $0 += 1 }
                return try await base.send(prepared)
            }
        }
        try await withServer { (server: PrismTestServer) async throws in
            let counting = Counting()
            let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: counting)
            #expect(graphql.cache == nil)
            let response = try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
            #expect(response.data?.user?.publicRepos == 8)
            #expect(counting.count.wrappedValue == 1)
        }
    }

    @Test("a query is retried after transient failures, as a GET would be", arguments: TransportKind.allCases)
    func retriesQueries(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient(path: "/graphql/flaky/q?failures=2&status=503", transport: transport)
            let response: PrismGraphQLResponse<UserQueryData> = try await graphql.execute(
                getUserQuery("octocat"), retryPolicy: fast)
            #expect(response.data?.user?.publicRepos == 8)
            #expect(server.flakyAttempts("q") == 3)
        }
    }

    @Test("a mutation is not retried unless the policy retries non-idempotent requests")
    func mutationsAreNotRetried() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient(path: "/graphql/flaky/m?failures=1&status=503")
            // The 503 carries a GraphQL body: the app gets its errors and status, after one attempt.
            let failed = try await graphql.execute(
                Self.createIssue, as: CreateIssueData.self, options: .init(retryPolicy: fast))
            #expect(failed.statusCode == 503)
            #expect(failed.data == nil)
            #expect(failed.errors?.map(\.message) == ["failure 1 of 1"])
            #expect(server.flakyAttempts("m") == 1)

            let retrying = PrismExponentialBackoff(
                baseDelay: .milliseconds(5), maxDelay: .milliseconds(50), maxAttempts: 3, jitter: .zero,
                retryingNonIdempotentMethods: true)
            let response = try await server.graphQLClient(path: "/graphql/flaky/n?failures=1&status=503")
                .execute(Self.createIssue, as: CreateIssueData.self, options: .init(retryPolicy: retrying))
            #expect(response.data?.createIssue.number == 1347)
            #expect(server.flakyAttempts("n") == 2)
        }
    }

    @Test("when every attempt fails, the error keeps the last status and body")
    func retriesExhausted() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient(path: "/graphql/flaky/x?failures=10&status=502")
            do {
                let _: PrismGraphQLResponse<UserQueryData> = try await graphql.execute(
                    getUserQuery("octocat"), retryPolicy: fast)
                Issue.record("expected the retries to be exhausted")
            } catch let error as PrismGraphQLError {
                #expect(error.code == .requestFailed)
                #expect(error.statusCode == 502)
                #expect(error.errors.map(\.message) == ["failure 4 of 10"])
                #expect((error.underlying as? PrismHTTPError)?.code == .retriesExhausted)
                #expect((error.underlying as? PrismHTTPError)?.attempts.count == 4)
            }
            #expect(server.flakyAttempts("x") == 4)
        }
    }
}
