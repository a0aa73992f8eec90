// PrismOpenAPI is built with the OpenAPI trait, which Prism's own builds turn on
// (Tools/scripts/swift-root.sh): a plain `swift build` leaves these out.
#if OpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import PrismHTTP
import PrismHTTPTesting
import PrismTestServer
import PrismTestSupport
import Testing

@testable import PrismOpenAPI

/// The client swift-openapi-generator made from openapi.yaml (the types `Client`, `Operations`,
/// `Components`, committed in OpenAPIGenerated: `make openapi-generate`), sent through Prism,
/// against the running test server.
@Suite("PrismOpenAPI: a generated client through Prism's client")
struct PrismOpenAPITransportTests {
    /// A generated client of `server`, through `prism`.
    static func generated(_ server: PrismTestServer, through prism: any PrismNetworkClient) -> Client {
        Client(serverURL: server.url("/"), transport: PrismOpenAPITransport(client: prism))
    }

    @Test("an operation's path and query reach the server encoded, and its JSON comes back typed")
    func typedAnswer() async throws {
        try await PrismTestServer.withRunning { server in
            let client = Self.generated(server, through: PrismNetworkAdapter(cache: nil))
            let user = try await client.getUser(path: .init(login: "oct cat/ü")).ok.body.json
            #expect(user.login == "oct cat/ü")
            #expect(user.public_repos == 8)
            #expect(user.created_at == Date(timeIntervalSince1970: 1_295_981_076))

            let page = try await client.listRepos(path: .init(login: "octocat"), query: .init(page: 2, per_page: 3)).ok
            try #expect(page.body.json.map(\.id) == [4, 5, 6])
            #expect(page.headers.X_hyphen_Echo_hyphen_Query == "page=2&per_page=3")
        }
    }

    @Test("a request body is sent as JSON, and each declared status decodes as its own case")
    func bodiesAndDeclaredStatuses() async throws {
        try await PrismTestServer.withRunning { server in
            let client = Self.generated(server, through: PrismNetworkAdapter(cache: nil))
            let created = try await client.createIssue(
                path: .init(owner: "apple", repo: "swift"),
                body: .json(.init(title: "Found a bug", body: "Details", labels: ["bug"]))
            ).created.body.json
            #expect(created.title == "Found a bug")
            #expect(created.labels == ["bug"])
            #expect(created.html_url.hasSuffix("/apple/swift/issues/\(created.number)"))

            let refused = try await client.createIssue(
                path: .init(owner: "apple", repo: "swift"), body: .json(.init(body: "no title"))
            ).badRequest.body.json
            #expect(refused.message == "Validation Failed")
            #expect(refused.errors.map(\.field) == ["title"])
        }
    }

    @Test("the client's response cache answers a fresh GET: the second call never reaches the server")
    func cached() async throws {
        try await PrismTestServer.withRunning { server in
            let client = Self.generated(server, through: PrismNetworkAdapter())
            let first = try await client.getCached(path: .init(name: "openapi"), query: .init(max_hyphen_age: 60))
            let second = try await client.getCached(path: .init(name: "openapi"), query: .init(max_hyphen_age: 60))
            try #expect(first.ok.body.json.hit == 1)
            try #expect(second.ok.body.json.hit == 1)
            #expect(server.hits("/cache/openapi") == 1)
        }
    }

    @Test("the client's retry policy sends a GET again after 503s")
    func retried() async throws {
        try await PrismTestServer.withRunning { server in
            let retrying = PrismNetworkAdapter(
                cache: nil,
                retryPolicy: PrismExponentialBackoff(
                    baseDelay: .milliseconds(5), maxDelay: .milliseconds(50), maxAttempts: 4,
                    jitter: .milliseconds(5)))
            let answer = try await Self.generated(server, through: retrying)
                .getFlaky(path: .init(name: "openapi"), query: .init(failures: 2, status: 503))
            try #expect(answer.ok.body.json.attempt == 3)
            #expect(server.flakyAttempts("openapi") == 3)

            // Without a policy, the 503 the document declares is the answer.
            let once = try await Self.generated(server, through: PrismNetworkAdapter(cache: nil))
                .getFlaky(path: .init(name: "once"), query: .init(failures: 1, status: 503))
            try #expect(once.serviceUnavailable.body.json.attempt == 1)
        }
    }

    @Test("the authenticator signs each operation and refreshes an expired token, once")
    func authenticated() async throws {
        try await PrismTestServer.withRunning { server in
            let refreshes = LockedBox(0)
            let refresher = PrismNetworkAdapter(cache: nil)
            let tokens = PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in
                refreshes.mutate { $0 += 1 }
                let request = PrismHTTPRequest(
                    url: server.url("/auth/refresh"), method: .post, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"refreshToken": "r"}"#.utf8))
                let answer = try await refresher.send(request)
                let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
                return try #require(object?["accessToken"] as? String)
            }
            let client = Self.generated(server, through: PrismNetworkAdapter(cache: nil, authenticator: tokens))
            try #expect(await client.getProtected().ok.body.json.token == "token-0")
            server.expireToken()
            try #expect(await client.getProtected().ok.body.json.token == "token-1")
            #expect(refreshes.wrappedValue == 1)
        }
    }

    @Test("over PrismHTTPTesting's stub transport, the generated client runs with no server")
    func stubbed() async throws {
        let stub = PrismStubTransport()
        stub.on(
            .get, "/users/octocat",
            respond: .json(
                text: #"{"login": "octocat", "name": "The Octocat", "public_repos": 8, "#
                    + #""html_url": "https://github.com/octocat", "created_at": "2011-01-25T18:44:36Z"}"#))
        let client = Client(
            serverURL: URL(string: "https://api.example.com")!,
            transport: PrismOpenAPITransport(client: PrismNetworkAdapter(transport: stub, cache: nil)))
        try #expect(await client.getUser(path: .init(login: "octocat")).ok.body.json.name == "The Octocat")
        #expect(stub.requests.map(\.url.absoluteString) == ["https://api.example.com/users/octocat"])
    }

    @Test("a server URL with a path keeps it, and nothing listening is the client's connectionFailed")
    func urlsAndFailures() async throws {
        let base = URL(string: "https://api.example.com/v3/")!
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/a%20b?page=2")
        let url = try PrismOpenAPITransport.url(of: request, baseURL: base, operationID: "getUser")
        #expect(url.absoluteString == "https://api.example.com/v3/users/a%20b?page=2")

        let refused = try PrismRefusedPort()
        let client = Client(
            serverURL: URL(string: "http://127.0.0.1:\(refused.port)")!,
            transport: PrismOpenAPITransport(client: PrismNetworkAdapter(cache: nil)))
        let error = await #expect(throws: ClientError.self) {
            _ = try await client.getUser(path: .init(login: "octocat"))
        }
        #expect((error?.underlyingError as? PrismHTTPError)?.code == .connectionFailed)
        #expect(error?.operationID == "getUser")
    }

    @Test("a request body past maximumRequestBodyBytes fails with encodingFailed before anything is sent")
    func bodyLimit() async throws {
        try await PrismTestServer.withRunning { server in
            let transport = PrismOpenAPITransport(client: PrismNetworkAdapter(cache: nil), maximumRequestBodyBytes: 16)
            let client = Client(serverURL: server.url("/"), transport: transport)
            let error = await #expect(throws: ClientError.self) {
                _ = try await client.createIssue(
                    path: .init(owner: "apple", repo: "swift"),
                    body: .json(.init(title: String(repeating: "long ", count: 20))))
            }
            #expect((error?.underlyingError as? PrismHTTPError)?.code == .encodingFailed)
            #expect(server.hits("/repos/apple/swift/issues") == 0)
        }
    }
}
#endif
