import Foundation
import PrismSupport
import PrismTestServer
import Testing

@Suite("The GraphQL route")
struct GraphQLRouteTests {
    /// POSTs `body` (JSON text) to `path`.
    func post(
        _ server: PrismTestServer, _ body: String, path: String = "/graphql", contentType: String = "application/json"
    )
        async throws -> Reply
    {
        try await TestClient.send(.POST, server.url(path), headers: [("Content-Type", contentType)], text: body)
    }

    func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test("POST /graphql runs a query with variables")
    func query() async throws {
        try await withServer { server in
            let reply = try await post(
                server,
                #"{"query":"query GetUser($login: String!) { user(login: $login) { login name publicRepos } }","operationName":"GetUser","variables":{"login":"octocat"}}"#
            )
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
            #expect(reply.text == #"{"data":{"user":{"login":"octocat","name":"The octocat","publicRepos":8}}}"#)
            #expect(server.graphQLStatistics.executed == 1)
            #expect(server.graphQLOperations.first?.variables == #"{"login":"octocat"}"#)
        }
    }

    @Test("a field error gives partial data; a non-null one gives \"data\": null; a validation error no data")
    func errors() async throws {
        try await withServer { server in
            let partial = try await post(server, #"{"query":"{ operationNumber failingField }"}"#)
            #expect(
                partial.text
                    == #"{"errors":[{"message":"failingField always fails","locations":[{"line":1,"column":19}],"path":["failingField"]}],"data":{"operationNumber":1,"failingField":null}}"#
            )
            let null = try await post(server, #"{"query":"{ requiredFailingField }"}"#)
            #expect(try null.object()["data"] is NSNull)
            let invalid = try await post(server, #"{"query":"{ nope }"}"#)
            #expect(invalid.status == 200)
            #expect(try invalid.object()["data"] == nil)
            #expect(invalid.text.contains("nope"))
        }
    }

    @Test("echoVariables returns the variables as they arrived, nested objects and null included")
    func echoVariables() async throws {
        try await withServer { server in
            let reply = try await post(
                server, #"{"query":"{ echoVariables }","variables":{"b":{"y":null,"x":[1,2.5,true]},"a":"s"}}"#)
            let data = try #require(try reply.object()["data"] as? [String: Any])
            #expect(data["echoVariables"] as? String == #"{"a":"s","b":{"x":[1,2.5,true],"y":null}}"#)
        }
    }

    @Test("a mutation takes a nested input object")
    func mutation() async throws {
        try await withServer { server in
            let reply = try await post(
                server,
                #"{"query":"mutation { createIssue(repo: \"o/r\", input: {title: \"T\", meta: {priority: 2}}) { number title priority url } }"}"#
            )
            #expect(
                reply.text
                    == #"{"data":{"createIssue":{"number":1347,"title":"T","priority":2,"url":"https://github.com/o/r/issues/1347"}}}"#
            )
        }
    }

    @Test("a request that is not JSON, or not a GraphQL request, is refused with a GraphQL error body")
    func refused() async throws {
        try await withServer { server in
            let text = try await post(server, #"{"query":"{ operationNumber }"}"#, contentType: "text/plain")
            #expect(text.status == 415)
            #expect(text.text.hasPrefix(#"{"errors":[{"message":"#))
            let garbage = try await post(server, "not json")
            #expect(garbage.status == 400)
            let empty = try await post(server, "{}")
            #expect(empty.status == 400)
            #expect(server.graphQLStatistics.requests == 3)
            #expect(server.graphQLStatistics.executed == 0)
        }
    }

    @Test("persisted queries: unknown hash, registration with a matching hash, then a hit")
    func persistedQueries() async throws {
        try await withServer { server in
            let query = "{ user(login: \"a\") { name } }"
            let hash = sha256(query)
            let extensions = #"{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}"#
            let miss = try await post(server, #"{"extensions":\#(extensions)}"#)
            #expect(miss.status == 200)
            #expect(
                miss.text
                    == #"{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#
            )

            let wrong = try await post(
                server, #"{"query":"{ operationNumber }","extensions":\#(extensions)}"#)
            #expect(wrong.status == 400)
            #expect(wrong.text.contains("provided sha does not match query"))

            let register = try await post(
                server, #"{"query":"{ user(login: \"a\") { name } }","extensions":\#(extensions)}"#)
            #expect(register.text == #"{"data":{"user":{"name":"The a"}}}"#)
            let hit = try await post(server, #"{"extensions":\#(extensions)}"#)
            #expect(hit.text == #"{"data":{"user":{"name":"The a"}}}"#)

            let statistics = server.graphQLStatistics
            #expect(statistics.persistedQueryMisses == 1)
            #expect(statistics.persistedQueryRegistrations == 1)
            #expect(statistics.persistedQueryHits == 1)

            let unsupported = try await post(
                server, #"{"extensions":\#(extensions)}"#, path: "/graphql?persistedQueries=0")
            #expect(unsupported.text.contains("PERSISTED_QUERY_NOT_SUPPORTED"))
        }
    }

    @Test("/graphql/flaky/:name fails its first attempts, then serves GraphQL")
    func flaky() async throws {
        try await withServer { server in
            let body = #"{"query":"{ operationNumber }"}"#
            let failed = try await post(server, body, path: "/graphql/flaky/g?failures=1&status=502")
            #expect(failed.status == 502)
            #expect(failed.text == #"{"errors":[{"message":"failure 1 of 1"}]}"#)
            let served = try await post(server, body, path: "/graphql/flaky/g?failures=1&status=502")
            #expect(served.text == #"{"data":{"operationNumber":1}}"#)
            #expect(server.flakyAttempts("g") == 2)
        }
    }
}
