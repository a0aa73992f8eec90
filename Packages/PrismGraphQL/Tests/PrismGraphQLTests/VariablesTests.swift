import Foundation
import PrismGraphQL
import PrismTestServer
import Testing

@Suite("Variables arrive as sent: any Encodable, nested input objects, null")
struct VariablesTests {
    struct EchoData: Decodable, Sendable {
        var echoVariables: String
    }

    struct Meta: Encodable, Sendable {
        var priority: Int
        var tags: [String]
    }

    /// The variables the server received, parsed.
    func echo(_ query: PrismGraphQLQuery, on server: PrismTestServer) async throws -> PrismGraphQLValue {
        let response = try await server.graphQLClient().execute(query, as: EchoData.self)
        let text = try #require(response.data?.echoVariables)
        return try JSONDecoder().decode(PrismGraphQLValue.self, from: Data(text.utf8))
    }

    @Test("nested input objects, arrays and explicit null arrive exactly")
    func nestedAndNull() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let variables: [String: PrismGraphQLValue] = [
                "input": [
                    "title": "Crash on launch",
                    "body": nil,
                    "labels": ["bug", "p1"],
                    "meta": ["priority": 1, "assignees": nil],
                ],
                "note": nil,
            ]
            let query = PrismGraphQLQuery(query: "query Echo { echoVariables }", variables: variables)
            let received = try await echo(query, on: server)
            #expect(received == .object(variables))
            #expect(received["note"]?.isNull == true)
            #expect(received["input"]?["meta"]?["assignees"] == .null)
        }
    }

    @Test("Encodable values of any kind: numbers, Booleans, arrays, dates, optionals, structs")
    func encodableValues() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let login = "octocat"
            let missing: String? = nil
            let query = PrismGraphQLQuery(
                query: "query Echo { echoVariables }",
                variables: [
                    "login": login,
                    "first": 10,
                    "ratio": 1.5,
                    "draft": false,
                    "labels": ["a", "b"],
                    "since": Date(timeIntervalSince1970: 1_704_067_200),
                    "missing": missing,
                    "meta": Meta(priority: 2, tags: ["x"]),
                    "explicitNull": PrismGraphQLValue.null,
                ]
            )
            let received = try await echo(query, on: server)
            let expected: PrismGraphQLValue = [
                "login": "octocat",
                "first": 10,
                "ratio": 1.5,
                "draft": false,
                "labels": ["a", "b"],
                "since": "2024-01-01T00:00:00Z",
                "missing": nil,
                "meta": ["priority": 2, "tags": ["x"]],
                "explicitNull": nil,
            ]
            #expect(received == expected)
        }
    }

    @Test("variables that cannot be encoded fail before anything is sent")
    func encodingFailure() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let query = PrismGraphQLQuery(
                query: "query Echo($x: Float) { echoVariables }", variables: ["x": Double.nan])
            do {
                _ = try await server.graphQLClient().execute(query, as: EchoData.self)
                Issue.record("expected an encoding failure")
            } catch let error as PrismGraphQLError {
                #expect(error.code == .encodingFailed)
                #expect(error.underlying is EncodingError)
            }
            #expect(server.hits("/graphql") == 0)
        }
    }

    @Test("a PrismGraphQLValue is made from any Encodable value and from literals")
    func values() throws {
        let value = try PrismGraphQLValue(encoding: Meta(priority: 3, tags: ["t"]))
        #expect(value == ["priority": 3, "tags": ["t"]])
        #expect(value["priority"]?.intValue == 3)
        #expect(value["tags"]?[0]?.stringValue == "t")
        #expect(value["tags"]?[1] == nil)
        #expect(value.description == #"{"priority":3,"tags":["t"]}"#)
        let literal: PrismGraphQLValue = ["a": 1.25, "b": true, "c": nil, "d": "x"]
        #expect(literal["a"]?.doubleValue == 1.25)
        #expect(literal["b"]?.boolValue == true)
        #expect(literal["c"]?.isNull == true)
        #expect(literal["a"]?.intValue == nil)
        let decoded = try JSONDecoder().decode(PrismGraphQLValue.self, from: Data(literal.description.utf8))
        #expect(decoded == literal)
        #expect(throws: PrismGraphQLError.self) { try PrismGraphQLValue(encoding: Double.infinity) }
    }
}
