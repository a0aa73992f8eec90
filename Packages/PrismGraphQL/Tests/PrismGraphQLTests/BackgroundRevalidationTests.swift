import Foundation
@_spi(PrismInternals) import PrismCache
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismGraphQL

@Suite("Background revalidation of queries is tracked by the client")
struct BackgroundRevalidationTests {
    /// A network client that sends through a real adapter, holding every request after the
    /// first until `gate` opens (a revalidation that is still running); a cancelled wait throws.
    struct Held: PrismNetworkClient {
        let base = PrismNetworkAdapter(cache: nil)
        let gate = Gate()
        let sent = LockedBox(0)

        func send(_ prepared: PrismPreparedRequest) async throws -> PrismHTTPResponse {
            let number = sent.mutate { count in
                count += 1
                return count
            }
            if number > 1 {
                await gate.wait()
                try Task.checkCancellation()
            }
            return try await base.send(prepared)
        }
    }

    static let query = PrismGraphQLQuery(query: "query Number { operationNumber }")

    func number(_ graphql: PrismGraphQLClient?, policy: PrismCachePolicy) async throws -> Int? {
        try await graphql?.execute(Self.query, as: OperationNumberData.self, options: .init(cachePolicy: policy))
            .data?.operationNumber
    }

    @Test("two stale hits for the same query start one revalidation request")
    func oneRevalidationPerQuery() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let held = Held()
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql"), networkClient: held, cache: PrismResponseCache(maxSize: 10))
            // Cached with no lifetime: stale at once.
            #expect(try await number(graphql, policy: .staleWhileRevalidate) == 1)
            #expect(try await number(graphql, policy: .staleWhileRevalidate) == 1)
            #expect(try await number(graphql, policy: .staleWhileRevalidate) == 1)
            #expect(await graphql.backgroundRevalidations.count == 1)
            held.gate.open()
            await graphql.backgroundRevalidations.waitForAll()
            #expect(server.graphQLStatistics.executed == 2)
            #expect(held.sent.wrappedValue == 2)
            #expect(try await number(graphql, policy: .cacheFirst) == 2)
        }
    }

    @Test("a revalidation still running when its client goes away is cancelled and stores nothing")
    func cancelledWithItsClient() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let held = Held()
            let cache = PrismResponseCache(maxSize: 10)
            var graphql: PrismGraphQLClient? = PrismGraphQLClient(
                endpointURL: server.url("/graphql"), networkClient: held, cache: cache)
            #expect(try await number(graphql, policy: .staleWhileRevalidate) == 1)
            #expect(try await number(graphql, policy: .staleWhileRevalidate) == 1)
            let tasks = await graphql?.backgroundRevalidations.tasks ?? []
            #expect(tasks.count == 1)
            // Held at the gate: running, not yet sent.
            try await eventually { held.sent.wrappedValue == 2 }
            graphql = nil
            for task in tasks { await task.value }
            held.gate.open()
            #expect(server.graphQLStatistics.executed == 1)
            let other = PrismGraphQLClient(
                endpointURL: server.url("/graphql"), networkClient: PrismNetworkAdapter(cache: nil), cache: cache)
            #expect(try await number(other, policy: .cacheFirst) == 1)
        }
    }

    /// A network client that sends the first request through a real adapter, and every later one
    /// to a real route of the same server that fails it (`/graphql/flaky`, 503): a server that
    /// goes down, without giving up its port (a server shut down instead could see its port
    /// taken by another test's server, which would answer the revalidation).
    struct FailingAfterFirst: PrismNetworkClient {
        let base = PrismNetworkAdapter(cache: nil)
        let failing: URL
        let sent = LockedBox(0)

        func send(_ prepared: PrismPreparedRequest) async throws -> PrismHTTPResponse {
            let number = sent.mutate { count in
                count += 1
                return count
            }
            guard number > 1 else { return try await base.send(prepared) }
            var request = prepared.request
            request.url = failing
            return try await base.send(request)
        }
    }

    @Test("a background revalidation that fails keeps the stale answer")
    func failedRevalidationKeepsTheAnswer() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let route = "down-\(UUID())"
            let failing = FailingAfterFirst(failing: server.url("/graphql/flaky/\(route)?failures=1000"))
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql"), networkClient: failing, cache: PrismResponseCache(maxSize: 10))
            #expect(try await number(graphql, policy: .staleWhileRevalidate) == 1)
            #expect(try await number(graphql, policy: .staleWhileRevalidate) == 1)
            await graphql.backgroundRevalidations.waitForAll()
            #expect(server.flakyAttempts(route) == 1, "the revalidation was sent, and failed")
            #expect(await graphql.cache?.count == 1)
            #expect(try await number(graphql, policy: .cacheFirst) == 1)
        }
    }
}
