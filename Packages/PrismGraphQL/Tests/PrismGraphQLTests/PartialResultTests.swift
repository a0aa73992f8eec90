import Foundation
import PrismGraphQL
import PrismTestServer
import Testing

@Suite("Partial results: data and errors together, data null, data absent")
struct PartialResultTests {
    struct PartialData: Decodable, Sendable {
        struct User: Decodable, Sendable { var name: String? }
        var user: User?
        var failingField: String?
    }

    struct RequiredData: Decodable, Sendable {
        var requiredFailingField: String
    }

    /// What `server` answers to `document`, its data decoded as `type`.
    func answer<T: Decodable & Sendable>(
        to document: String,
        as type: T.Type,
        on server: PrismTestServer
    ) async throws -> PrismGraphQLResponse<T> {
        try await server.graphQLClient().execute(PrismGraphQLQuery(query: document), as: type)
    }

    @Test("a failing field leaves the rest of the data and an error that names its path")
    func dataAndErrors() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let response = try await answer(
                to: "query Partial {\n  user(login: \"octocat\") { name }\n  failingField\n}", as: PartialData.self,
                on: server)
            #expect(response.data?.user?.name == "The octocat")
            #expect(response.data?.failingField == nil)
            let error = try #require(response.errors?.first)
            #expect(response.errors?.count == 1)
            #expect(error.message == "failingField always fails")
            #expect(error.path == [.key("failingField")])
            #expect(error.locations == [.init(line: 3, column: 3)])
            #expect(error.description == "failingField always fails (at failingField)")
            #expect(response.hasErrors)
            #expect(throws: PrismGraphQLError.self) { try response.requireData() }
        }
    }

    @Test("a non-null field that fails makes data null: decoded as nil, with the error")
    func dataNull() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let response = try await answer(to: "{ requiredFailingField }", as: RequiredData.self, on: server)
            #expect(response.data == nil)
            #expect(response.errors?.map(\.message) == ["requiredFailingField always fails"])
            #expect(response.errors?.first?.path == [.key("requiredFailingField")])
            do throws(PrismGraphQLError) {
                _ = try response.requireData()
                Issue.record("expected requireData() to throw")
            } catch {
                #expect(error.code == .graphQLErrors)
                #expect(error.errors.map(\.message) == ["requiredFailingField always fails"])
            }
        }
    }

    @Test("a request that fails validation has no data member: decoded as nil, with the errors")
    func dataAbsent() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let response = try await answer(
                to: "{ user(login: \"octocat\") { nope } }", as: UserQueryData.self, on: server)
            #expect(response.data == nil)
            let error = try #require(response.errors?.first)
            #expect(error.message.contains("nope"))
            #expect(error.path == nil)
            #expect(error.locations?.isEmpty == false)
            #expect(server.graphQLStatistics.executed == 0)
        }
    }

    @Test("a syntax error is a response with errors, not a thrown error")
    func syntaxError() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let response = try await answer(to: "{ user(login: ", as: UserQueryData.self, on: server)
            #expect(response.data == nil)
            #expect(response.errors?.first?.message.contains("Syntax Error") == true)
        }
    }

    @Test("a response decodes with data absent, null or present")
    func decoding() throws {
        let decoder = JSONDecoder()
        let absent = try decoder.decode(
            PrismGraphQLResponse<UserQueryData>.self, from: Data(#"{"errors":[{"message":"m"}]}"#.utf8))
        #expect(absent.data == nil)
        #expect(absent.errors == [PrismGraphQLResponseError(message: "m")])
        let null = try decoder.decode(
            PrismGraphQLResponse<UserQueryData>.self,
            from: Data(#"{"data":null,"errors":[{"message":"m","path":["a",0,"b"],"extensions":{"code":"X"}}]}"#.utf8))
        #expect(null.data == nil)
        #expect(null.errors?.first?.path == [.key("a"), .index(0), .key("b")])
        #expect(null.errors?.first?.code == "X")
        let present = try decoder.decode(
            PrismGraphQLResponse<UserQueryData>.self,
            from: Data(#"{"data":{"user":null},"extensions":{"cost":3}}"#.utf8))
        #expect(present.data == UserQueryData(user: nil))
        #expect(present.errors == nil)
        #expect(present.extensions == ["cost": 3])
    }
}
