import Foundation
import PrismGraphQL
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Queries against the GraphQL test server")
struct QueryTests {
    struct GetUserVariables: Encodable, Sendable {
        var login: String
    }

    @Test("a query's data decodes into the caller's type", arguments: TransportKind.allCases)
    func decodesData(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient(transport: transport)
            let response = try await graphql.execute(getUserQuery("mona"), as: UserQueryData.self)
            #expect(response.data == UserQueryData(user: .init(login: "mona", name: "The mona", publicRepos: 8)))
            #expect(response.errors == nil)
            #expect(!response.hasErrors)
            #expect(try response.requireData().user?.login == "mona")
        }
    }

    @Test("the body carries query, operationName and variables, and nothing else")
    func bodyMembers() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient()
            let _: PrismGraphQLResponse<UserQueryData> = try await graphql.execute(getUserQuery("mona"))
            let operation = try #require(server.graphQLOperations.first)
            #expect(operation.query == getUserQuery("mona").query)
            #expect(operation.operationName == "GetUser")
            #expect(operation.variables == #"{"login":"mona"}"#)
            #expect(operation.persistedQueryHash == nil)

            let noVariables = PrismGraphQLQuery(query: "{ user(login: \"x\") { login name publicRepos } }")
            let response = try await graphql.execute(noVariables, as: UserQueryData.self)
            #expect(response.data?.user?.login == "x")
            let second = try #require(server.graphQLOperations.last)
            #expect(second.variables == nil)
            #expect(second.operationName == nil)
        }
    }

    @Test("a user that does not exist is null data, not an error")
    func nullField() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let response = try await server.graphQLClient().execute(getUserQuery("ghost"), as: UserQueryData.self)
            #expect(response.data == UserQueryData(user: nil))
            #expect(response.errors == nil)
        }
    }

    @Test("variables may be one Encodable value whose members are the variables")
    func encodableVariables() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let query = PrismGraphQLQuery(
                query: getUserQuery("unused").query,
                variables: GetUserVariables(login: "hubot"),
                operationName: "GetUser"
            )
            let response = try await server.graphQLClient().execute(query, as: UserQueryData.self)
            #expect(response.data?.user?.name == "The hubot")
        }
    }

    @Test("operationName picks the operation of a document that holds several")
    func operationName() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let document = """
                query First { user(login: "first") { login name publicRepos } }
                query Second { user(login: "second") { login name publicRepos } }
                """
            let graphql = server.graphQLClient()
            let second = try await graphql.execute(
                PrismGraphQLQuery(query: document, operationName: "Second"), as: UserQueryData.self)
            #expect(second.data?.user?.login == "second")
            let first = try await graphql.execute(
                PrismGraphQLQuery(query: document, operationName: "First"), as: UserQueryData.self)
            #expect(first.data?.user?.login == "first")
        }
    }

    @Test("additional headers and per-request headers reach the server")
    func headers() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql"),
                additionalHeaders: ["Authorization": "Bearer abc", "X-Client": "tests"],
                networkClient: PrismNetworkAdapter(cache: nil)
            )
            struct AuthorizationData: Decodable, Sendable { var authorization: String? }
            let query = PrismGraphQLQuery(query: "{ authorization }")
            let response = try await graphql.execute(query, as: AuthorizationData.self)
            #expect(response.data?.authorization == "Bearer abc")
            #expect(server.requests.last?.headers["x-client"] == "tests")

            let replaced = try await graphql.execute(
                query, as: AuthorizationData.self,
                options: PrismRequestOptions(headers: ["Authorization": "Bearer xyz"]))
            #expect(replaced.data?.authorization == "Bearer xyz")
        }
    }
}
