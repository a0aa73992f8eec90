import Foundation
import PrismCache
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import Testing

@Suite("A bad endpoint URL or cache interval is a typed error, never a trap")
struct HostileInputTests {
    @Test(
        "an endpoint that is not an absolute http(s) URL with a host fails every operation with invalidEndpoint",
        arguments: [
            "ftp://127.0.0.1/graphql", "file:///etc/passwd", "graphql", "mailto:someone@example.com", "http:///graphql",
        ]
    )
    func badEndpoints(text: String) async throws {
        let url = try #require(URL(string: text))
        let graphql = PrismGraphQLClient(endpointURL: url)
        let error = await #expect(throws: PrismGraphQLError.self) {
            _ = try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
        }
        #expect(error?.code == .invalidEndpoint)
    }

    @Test(
        "a cache interval that is NaN, infinite or negative is invalidCacheInterval, and nothing is sent",
        arguments: [Double.nan, .infinity, -1])
    func badCacheIntervals(seconds: Double) async throws {
        try await withCachingClient { (server, graphql) async throws in
            var query = getUserQuery("octocat")
            query.cacheInterval = seconds
            let error = await #expect(throws: PrismGraphQLError.self) {
                _ = try await graphql.execute(query, as: UserQueryData.self)
            }
            #expect(error?.code == .invalidCacheInterval)
            #expect(server.graphQLStatistics.requests == 0)
        }
    }

    @Test("the error's description does not show a secret in the endpoint's query")
    func redactedDescription() async throws {
        let graphql = PrismGraphQLClient(endpointURL: URL(string: "ftp://host/graphql?api_key=SECRET")!)
        do {
            _ = try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
        } catch {
            #expect(!"\(error)".contains("SECRET"))
        }
    }
}
