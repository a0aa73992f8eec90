import Foundation
import PrismGraphQL
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// GraphQL over HTTP (the GraphQL Foundation's draft) against a server that answers each way a
/// compliant server may: both media types, 200 or 4xx for `"data": null`, GET.
@Suite("GraphQL over HTTP: media types, statuses and GET, as a spec-compliant server answers them")
struct GraphQLOverHTTPTests {
    /// `{ requiredFailingField }`: a non-null field whose error reaches the root, so `data` is null.
    struct RequiredFailingData: Decodable, Sendable {
        var requiredFailingField: String
    }

    @Test(
        "the client asks for application/graphql-response+json first, and application/json after it",
        arguments: TransportKind.allCases)
    func acceptHeader(transport: TransportKind) async throws {
        try await withServer { server in
            let graphql = server.graphQLClient(transport: transport)
            _ = try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
            let accept = try #require(server.graphQLOperations.last?.accept)
            #expect(accept == "application/graphql-response+json, application/json;q=0.9")
        }
    }

    @Test(
        "a non-null field that fails: a 400 with a GraphQL body gives the app data null, the errors and the status",
        arguments: TransportKind.allCases)
    func nullDataAs400(transport: TransportKind) async throws {
        try await withServer { server in
            // The widely used behaviour the issue describes: 400, application/graphql-response+json.
            let graphql = server.graphQLClient(path: "/graphql?nullDataStatus=400", transport: transport)
            let response = try await graphql.execute(
                PrismGraphQLQuery(query: "{ requiredFailingField }"), as: RequiredFailingData.self)
            #expect(response.statusCode == 400)
            #expect(response.data == nil)
            #expect(response.errors?.first?.path == [.key("requiredFailingField")])
            #expect(throws: PrismGraphQLError.self) { try response.requireData() }
        }
    }

    @Test(
        "the same failure from a server that speaks application/json only, with 200 or with 400",
        arguments: TransportKind.allCases, ["200", "400"])
    func nullDataAsJSON(transport: TransportKind, status: String) async throws {
        try await withServer { server in
            let graphql = server.graphQLClient(
                path: "/graphql?mediaType=json&nullDataStatus=\(status)", transport: transport)
            let response = try await graphql.execute(
                PrismGraphQLQuery(query: "{ requiredFailingField }"), as: RequiredFailingData.self)
            #expect(response.statusCode == Int(status))
            #expect(response.data == nil)
            #expect(response.errors?.isEmpty == false)
        }
    }

    @Test(
        "a request error (an invalid document) is a 400 with errors and no data, returned, not thrown",
        arguments: TransportKind.allCases)
    func requestErrorAs400(transport: TransportKind) async throws {
        try await withServer { server in
            let graphql = server.graphQLClient(transport: transport)
            let response = try await graphql.execute(
                PrismGraphQLQuery(query: "{ noSuchField }"), as: UserQueryData.self)
            #expect(response.statusCode == 400)
            #expect(response.data == nil)
            #expect(response.errors?.first?.message.contains("noSuchField") == true)
        }
    }

    @Test(
        "a non-2xx answer that is not a GraphQL response stays an unacceptableStatus error with its status and body",
        arguments: TransportKind.allCases)
    func notGraphQL(transport: TransportKind) async throws {
        try await withServer { server in
            // A proxy's error: JSON of another shape, and an HTML page.
            for path in ["/status/502", "/status/503?header.Content-Type=text/html"] {
                let graphql = server.graphQLClient(path: path, transport: transport)
                let error = await #expect(throws: PrismGraphQLError.self) {
                    try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
                }
                #expect(error?.code == .unacceptableStatus)
                #expect(error?.statusCode == (path.hasPrefix("/status/502") ? 502 : 503))
                #expect(error?.bodyText?.contains("status") == true)
            }
        }
    }

    @Test("a successful response carries its status too", arguments: TransportKind.allCases)
    func successStatus(transport: TransportKind) async throws {
        try await withServer { server in
            let response = try await server.graphQLClient(transport: transport)
                .execute(getUserQuery("octocat"), as: UserQueryData.self)
            #expect(response.statusCode == 200)
            #expect(response.data?.user?.login == "octocat")
        }
    }

    @Test(
        "a client that sends queries as GET puts the document, operation and variables in the URL; the server runs it",
        arguments: TransportKind.allCases)
    func queriesAsGET(transport: TransportKind) async throws {
        try await withServer { server in
            let graphql = server.graphQLClient(transport: transport, queryMethod: .get)
            // A login with characters a URL must escape.
            let response = try await graphql.execute(getUserQuery("a+b&c=d #e"), as: UserQueryData.self)
            #expect(response.data?.user?.login == "a+b&c=d #e")
            let operation = try #require(server.graphQLOperations.last)
            #expect(operation.method == "GET")
            #expect(operation.operationName == "GetUser")
            #expect(operation.variables == #"{"login":"a+b&c=d #e"}"#)
            #expect(operation.query == getUserQuery("").query)
        }
    }

    @Test("one query can ask for GET on a client that posts the others", arguments: TransportKind.allCases)
    func oneQueryAsGET(transport: TransportKind) async throws {
        try await withServer { server in
            let graphql = server.graphQLClient(transport: transport)
            var query = getUserQuery("octocat")
            query.httpMethod = .get
            _ = try await graphql.execute(query, as: UserQueryData.self)
            _ = try await graphql.execute(getUserQuery("octocat"), as: UserQueryData.self)
            #expect(server.graphQLOperations.map(\.method) == ["GET", "POST"])
        }
    }

    /// `createIssue`'s answer.
    struct CreatedIssue: Decodable, Sendable {
        struct Issue: Decodable, Sendable { var number: Int }
        var createIssue: Issue
    }

    static let createIssue = PrismGraphQLQuery(
        query: #"mutation { createIssue(repo: "prism", input: {title: "GET"}) { number } }"#)

    @Test(
        "mutations are never sent as GET: a GET client posts them, and a mutation that asks for GET fails unsent",
        arguments: TransportKind.allCases)
    func mutationsNeverGET(transport: TransportKind) async throws {
        try await withServer { server in
            let graphql = server.graphQLClient(transport: transport, queryMethod: .get)
            let created = try await graphql.execute(Self.createIssue, as: CreatedIssue.self)
            #expect(created.data != nil)
            #expect(server.graphQLOperations.map(\.method) == ["POST"])

            var asGET = Self.createIssue
            asGET.httpMethod = .get
            let error = await #expect(throws: PrismGraphQLError.self) {
                try await graphql.execute(asGET, as: CreatedIssue.self)
            }
            #expect(error?.code == .invalidOperation)
            #expect(server.graphQLOperations.count == 1)
        }
    }

    @Test("the test server refuses a mutation sent as GET with 405 and Allow: POST, and runs nothing")
    func serverRefusesMutationGET() async throws {
        try await withServer { server in
            var components = try #require(URLComponents(url: server.url("/graphql"), resolvingAgainstBaseURL: false))
            components.queryItems = [URLQueryItem(name: "query", value: Self.createIssue.query)]
            let url = try #require(components.url)
            let response = try await TransportKind.asyncHTTPClient.make().send(PrismHTTPRequest(url: url))
            #expect(response.statusCode == 405)
            #expect(response.headers["Allow"] == "POST")
            #expect(server.graphQLStatistics.executed == 0)
        }
    }
}
