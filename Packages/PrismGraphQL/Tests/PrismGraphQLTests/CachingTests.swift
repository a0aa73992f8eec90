import Foundation
import PrismCache
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import Testing

@Suite("Cache policies for queries")
struct CachingTests {
    static let numberQuery = PrismGraphQLQuery(query: "query Number { operationNumber }")

    func number(
        _ graphql: PrismGraphQLClient,
        _ query: PrismGraphQLQuery = numberQuery,
        policy: PrismCachePolicy? = nil
    ) async throws -> Int? {
        try await graphql.execute(query, as: OperationNumberData.self, options: .init(cachePolicy: policy))
            .data?.operationNumber
    }

    @Test("without a policy or a cache interval, nothing is cached")
    func noCachingByDefault() async throws {
        try await withCachingClient { (_, graphql) async throws in
            #expect(try await number(graphql) == 1)
            #expect(try await number(graphql) == 2)
            #expect(await graphql.cache?.count == 0)
        }
    }

    @Test("a query with a cache interval is served from the cache while fresh")
    func cacheInterval() async throws {
        try await withCachingClient { (server, graphql) async throws in
            var query = Self.numberQuery
            query.cacheInterval = 60
            #expect(try await number(graphql, query) == 1)
            #expect(try await number(graphql, query) == 1)
            #expect(server.graphQLStatistics.executed == 1)
            #expect(try await number(graphql, query, policy: .networkOnly) == 2)
            #expect(try await number(graphql, query) == 1)
        }
    }

    @Test("cacheFirst returns a cached response even when stale; networkOnly neither reads nor stores")
    func cacheFirstAndNetworkOnly() async throws {
        try await withCachingClient { (_, graphql) async throws in
            #expect(try await number(graphql, policy: .networkOnly) == 1)
            #expect(try await number(graphql, policy: .cacheFirst) == 2)
            #expect(try await number(graphql, policy: .cacheFirst) == 2)
            #expect(try await number(graphql, policy: .cacheThenNetwork) == 3)
            #expect(try await number(graphql, policy: .networkOnly) == 4)
            #expect(try await number(graphql, policy: .cacheFirst) == 3)
        }
    }

    @Test("staleWhileRevalidate returns the stale response and refreshes it in the background")
    func staleWhileRevalidate() async throws {
        try await withCachingClient { (server, graphql) async throws in
            #expect(try await number(graphql, policy: .staleWhileRevalidate) == 1)
            #expect(try await number(graphql, policy: .staleWhileRevalidate) == 1)
            // (A bound for a failing test only; CI runs many suites at once on two cores.)
            let deadline = ContinuousClock.now + .seconds(120)
            while server.graphQLStatistics.executed < 2 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(server.graphQLStatistics.executed == 2)
            // The refreshed response replaces the stale one once the background request stored it.
            var cached: Int?
            while cached != 2 && ContinuousClock.now < deadline {
                cached = try await number(graphql, policy: .cacheFirst)
                if cached != 2 { try await Task.sleep(for: .milliseconds(5)) }
            }
            #expect(cached == 2)
        }
    }

    @Test("different variables are different entries")
    func variablesAreKeys() async throws {
        try await withCachingClient { (server, graphql) async throws in
            for login in ["a", "b", "a", "b"] {
                let response = try await graphql.execute(
                    getUserQuery(login), as: UserQueryData.self, options: .init(cachePolicy: .cacheFirst))
                #expect(response.data?.user?.login == login)
            }
            #expect(server.graphQLStatistics.executed == 2)
            #expect(await graphql.cache?.count == 2)
        }
    }

    @Test("mutations and responses with errors are never cached")
    func notCached() async throws {
        struct Numbered: Decodable, Sendable {
            struct Issue: Decodable, Sendable { var number: Int }
            var createIssue: Issue
        }
        try await withCachingClient { (server, graphql) async throws in
            var mutation = PrismGraphQLQuery(
                query: "mutation { createIssue(repo: \"o/r\", input: {title: \"t\"}) { number } }")
            mutation.cacheInterval = 60
            var numbers: [Int?] = []
            for _ in 0..<2 {
                let response = try await graphql.execute(
                    mutation, as: Numbered.self, options: .init(cachePolicy: .cacheFirst))
                numbers.append(response.data?.createIssue.number)
            }
            #expect(numbers == [1347, 1348])

            var failing = PrismGraphQLQuery(query: "{ operationNumber failingField }")
            failing.cacheInterval = 60
            #expect(try await number(graphql, failing, policy: .cacheFirst) == 3)
            #expect(try await number(graphql, failing, policy: .cacheFirst) == 4)
            #expect(await graphql.cache?.count == 0)
        }
    }

    @Test("a client made from an adapter caches in the adapter's cache")
    func adapterCache() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let adapter = PrismNetworkAdapter()
            let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: adapter)
            #expect(graphql.cache === adapter.cache)
            #expect(try await number(graphql, policy: .cacheFirst) == 1)
            #expect(try await number(graphql, policy: .cacheFirst) == 1)
            #expect(await adapter.cache?.count == 1)
        }
    }
}
