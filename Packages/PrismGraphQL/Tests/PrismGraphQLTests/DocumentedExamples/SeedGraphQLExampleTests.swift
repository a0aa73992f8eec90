// Seed page 004, "GraphQL queries": the GetUser example as written there. `token` is the page's;
// it is defined here, and the endpoint is the test server's /graphql in place of
// api.example.com (a second test keeps that URL and redirects it through a PrismHTTP interceptor).
import Foundation
import PrismGraphQL
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

struct UserData: Decodable, Sendable {
    struct User: Decodable, Sendable {
        var name: String?
        var publicRepos: Int
    }
    var user: User?
}

@Suite("The seed's GraphQL example against the test server")
struct SeedGraphQLExampleTests {
    @Test("GetUser, as the page writes it, gets the user's name and repository count")
    func getUser() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let token = "seed-token"
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql"),
                additionalHeaders: ["Authorization": "Bearer \(token)"]
            )

            let query = PrismGraphQLQuery(
                query: """
                    query GetUser($login: String!) {
                        user(login: $login) {
                            name
                            publicRepos
                        }
                    }
                    """,
                variables: ["login": "octocat"],
                operationName: "GetUser"
            )

            let response: PrismGraphQLResponse<UserData> = try await graphql.execute(query)
            if let errors = response.errors {
                print("GraphQL errors: \(errors.map(\.message))")
            } else if let data = response.data?.user {
                print("Repos: \(data.publicRepos)")
            }

            #expect(response.errors == nil)
            #expect(response.data?.user?.publicRepos == 8)
            #expect(response.data?.user?.name == "The octocat")
            let operation = try #require(server.graphQLOperations.last)
            #expect(operation.operationName == "GetUser")
            #expect(operation.variables == #"{"login":"octocat"}"#)
            #expect(operation.query?.contains("user(login: $login)") == true)
            #expect(server.requests.last?.headers["authorization"] == "Bearer seed-token")
        }
    }

    @Test("the client always sends HTTP POST with Content-Type: application/json", arguments: TransportKind.allCases)
    func postWithJSON(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = PrismGraphQLClient(
                endpointURL: server.url("/graphql"),
                additionalHeaders: ["Authorization": "Bearer seed-token", "Content-Type": "text/plain"],
                networkClient: PrismNetworkAdapter(transport: transport.make(), cache: nil)
            )
            let response: PrismGraphQLResponse<UserData> = try await graphql.execute(getUserQuery("octocat"))
            #expect(response.data?.user?.publicRepos == 8)
            let request = try #require(server.requests.last)
            #expect(request.method == "POST")
            #expect(request.path == "/graphql")
            #expect(request.headers["content-type"] == "application/json")
            // GraphQL over HTTP: the newer media type first, application/json for older servers.
            #expect(request.headers["accept"] == "application/graphql-response+json, application/json;q=0.9")
            #expect(request.headers["authorization"] == "Bearer seed-token")
        }
    }

    @Test("the page's endpoint URL reaches the test server through a PrismHTTP interceptor")
    func pageURLThroughInterceptor() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let port = server.port
            let redirect = PrismInterceptor { request in
                var request = request
                var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
                components.scheme = "http"
                components.host = "127.0.0.1"
                components.port = port
                request.url = components.url!
                return request
            }
            let graphql = PrismGraphQLClient(
                endpointURL: URL(string: "https://api.example.com/graphql")!,
                additionalHeaders: ["Authorization": "Bearer seed-token"],
                networkClient: PrismNetworkAdapter(cache: nil, interceptors: [redirect])
            )
            let response: PrismGraphQLResponse<UserData> = try await graphql.execute(getUserQuery("octocat"))
            #expect(response.data?.user?.name == "The octocat")
            #expect(server.hits("/graphql") == 1)
        }
    }
}
