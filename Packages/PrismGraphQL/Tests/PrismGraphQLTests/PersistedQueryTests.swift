import Foundation
import PrismGraphQL
import PrismTestServer
import Testing

@Suite("Automatic persisted queries: the hash first, the query when the server asks")
struct PersistedQueryTests {
    @Test("persisted queries are off unless asked for")
    func offByDefault() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"))
            #expect(!graphql.usesAutomaticPersistedQueries)
            _ = try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
            #expect(server.graphQLOperations.map(\.persistedQueryHash) == [nil])
        }
    }

    @Test("an unknown hash is sent again with its query; a known one alone", arguments: TransportKind.allCases)
    func hashThenFallback(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient(transport: transport, automaticPersistedQueries: true)
            let first = try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
            #expect(first.data?.user?.publicRepos == 8)
            #expect(first.errors == nil)

            let operations = server.graphQLOperations
            #expect(operations.count == 2)
            let hash = try #require(operations.first?.persistedQueryHash)
            #expect(hash.count == 64)
            #expect(hash.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            #expect(operations[0].query == nil)
            #expect(operations[0].variables == #"{"login":"octocat"}"#)
            #expect(operations[1].query == getUserQuery("octocat").query)
            #expect(operations[1].persistedQueryHash == hash)

            let second = try await graphql.execute(getUserQuery("mona"), as: UserQueryData.self)
            #expect(second.data?.user?.name == "The mona")
            #expect(server.graphQLOperations.count == 3)
            #expect(server.graphQLOperations.last?.query == nil)
            #expect(server.graphQLOperations.last?.persistedQueryHash == hash)

            let statistics = server.graphQLStatistics
            #expect(statistics.persistedQueryMisses == 1)
            #expect(statistics.persistedQueryRegistrations == 1)
            #expect(statistics.persistedQueryHits == 1)
            #expect(statistics.executed == 2)
        }
    }

    @Test("another client finds the query the server already stored")
    func sharedAcrossClients() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            _ = try await server.graphQLClient(automaticPersistedQueries: true)
                .execute(getUserQuery("octocat"), as: UserQueryData.self)
            _ = try await server.graphQLClient(automaticPersistedQueries: true)
                .execute(getUserQuery("octocat"), as: UserQueryData.self)
            let statistics = server.graphQLStatistics
            #expect(statistics.persistedQueryMisses == 1)
            #expect(statistics.persistedQueryHits == 1)
            #expect(statistics.requests == 3)
        }
    }

    @Test("a hit, partial data and errors come back like any response")
    func hitWithErrors() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            struct Partial: Decodable, Sendable { var failingField: String? }
            let graphql = server.graphQLClient(automaticPersistedQueries: true)
            let query = PrismGraphQLQuery(query: "{ failingField }")
            for _ in 0..<2 {
                let response = try await graphql.execute(query, as: Partial.self)
                #expect(response.errors?.map(\.message) == ["failingField always fails"])
            }
            #expect(server.graphQLStatistics.persistedQueryHits == 1)
        }
    }

    @Test("a server without persisted queries gets full queries from then on")
    func notSupported() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient(path: "/graphql?persistedQueries=0", automaticPersistedQueries: true)
            let first = try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
            #expect(first.data?.user?.publicRepos == 8)
            let second = try await graphql.execute(getUserQuery("mona"), as: UserQueryData.self)
            #expect(second.data?.user?.login == "mona")
            let operations = server.graphQLOperations
            #expect(operations.map { $0.query == nil } == [true, false, false])
            #expect(operations.map { $0.persistedQueryHash == nil } == [false, true, true])
        }
    }
}
