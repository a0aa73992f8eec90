import Foundation
import Logging
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Client against the test server")
struct ClientTests {
    @Test("the seed's GetUserRequest decodes a GitHub-shaped user", arguments: TransportKind.allCases)
    func seedGetUser(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client: any PrismNetworkClient = PrismNetworkAdapter(
                transport: transport.make(),
                interceptors: [redirect(to: server)]
            )
            let user = try await client.request(on: GetUserRequest(login: "octocat"))
            #expect(user.login == "octocat")
            #expect(user.publicRepos == 8)
            #expect(user.name == "The octocat")
            let sent = try #require(server.requests.last)
            #expect(sent.headers["authorization"] == "Bearer ghp_seedtoken")
        }
    }

    @Test("a port where nothing listens fails with connectionFailed, not a timeout", arguments: TransportKind.allCases)
    func refusedConnectionFailsAtOnce(transport: TransportKind) async throws {
        let refused = try PrismRefusedPort()
        defer { refused.close() }
        let url = URL(string: "http://127.0.0.1:\(refused.port)/users/octocat")!
        // Every timeout is long, so that a machine too busy to run the event loop for a while
        // cannot turn the refusal into a timeout; a transport that kept trying to connect
        // would end with timedOut.
        let patient = PrismTransportConfiguration(connectTimeout: .seconds(300), requestTimeout: .seconds(300))
        let client = PrismNetworkAdapter(transport: transport.make(patient), cache: nil)
        let request = PrismHTTPRequest(url: url, method: .get, timeout: .seconds(300))
        let error = await expectHTTPError(.connectionFailed) { try await client.send(request) }
        #expect(error?.url == url)
    }

    @Test("PrismEndpointRequest pairs any endpoint with the entity it decodes to", arguments: TransportKind.allCases)
    func endpointRequestDecodesItsEntity(transport: TransportKind) async throws {
        try await withRedirectingClient(transport) { (server, client) async throws in
            let request = PrismEndpointRequest<GitHubEndpoint, GitHubUser>(.user(login: "octocat"))
            let user: GitHubUser = try await client.request(on: request)
            #expect(user.login == "octocat")
            #expect(user.publicRepos == 8)
        }
    }

    @Test(
        "the seed's CreateIssueRequest posts JSON and decodes html_url into htmlURL", arguments: TransportKind.allCases)
    func seedCreateIssue(transport: TransportKind) async throws {
        try await withRedirectingClient(transport) { (server, client) async throws in
            let issue = try await client.request(
                on: CreateIssueRequest(
                    repo: "octocat/Hello-World",
                    title: "Something is broken",
                    body: "Steps to reproduce…"
                ))
            #expect(issue.number == 1347)
            #expect(issue.htmlURL == "https://github.com/octocat/Hello-World/issues/1347")
        }
    }

    @Test("a non-2xx status is an error that keeps status, headers and body", arguments: TransportKind.allCases)
    func unacceptableStatusKeepsBody(transport: TransportKind) async throws {
        try await withRedirectingClient(transport) { (server, client) async throws in
            let error = await expectHTTPError(.unacceptableStatus) {
                try await client.request(on: CreateIssueRequest(repo: "o/r", title: "", body: "no title"))
            }
            #expect(error?.statusCode == 400)
            #expect(error?.bodyText?.contains("Validation Failed") == true)
            #expect(error?.headers?["Content-Type"]?.contains("json") == true)
            #expect(error?.url?.path == "/repos/o/r/issues")
            await #expect(throws: PrismHTTPError.self) {
                _ = try await client.request(on: RawRequest(endpoint: ServerEndpoint(server, "/status/503")))
            }
        }
    }

    @Test("a body that does not decode says which key and which type", arguments: TransportKind.allCases)
    func decodingFailureNamesKey(transport: TransportKind) async throws {
        struct NeedsMore: PrismEntity {
            var login: String
            var followersCount: Int
        }
        try await withCachingClient(transport) { (server, client) async throws in
            let error = await expectHTTPError(.decodingFailed) {
                try await client.request(on: ServerRequest<NeedsMore>(endpoint: ServerEndpoint(server, "/users/ada")))
            }
            #expect(error?.message.contains("followersCount") == true)
            #expect(error?.message.contains("NeedsMore") == true)
            #expect(error?.body != nil)
        }
    }

    @Test(
        "cancelling the task cancels the request with CancellationError, and closes its connection",
        arguments: TransportKind.allCases)
    func cancellation(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            try await expectCancelledMidBody(client, server)
        }
    }

    @Test("a response slower than the timeout is a timedOut error", arguments: TransportKind.allCases)
    func timeout(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            await expectHTTPError(.timedOut) {
                try await client.request(on: RawRequest(endpoint: ServerEndpoint(server, "/delay/3000", timeout: 0.3)))
            }
        }
    }

    @Test("a server that closes the connection is a connectionFailed error", arguments: TransportKind.allCases)
    func droppedConnection(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            for path in ["/drop", "/drop-mid-body"] {
                do {
                    _ = try await client.request(on: RawRequest(endpoint: ServerEndpoint(server, path)))
                    Issue.record("expected \(path) to fail")
                } catch let error as PrismHTTPError {
                    #expect(error.code == .connectionFailed || error.code == .transportFailed, "\(path): \(error)")
                    // AsyncHTTPClient tells a body cut short from a malformed one: lost, worth retrying.
                    if transport == .asyncHTTPClient {
                        #expect(error.code == .connectionFailed, "\(path): \(error)")
                    }
                }
            }
        }
    }

    @Test("a large body arrives whole, and one over the limit is responseTooLarge", arguments: TransportKind.allCases)
    func largeBodies(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            // Ten minutes for 5 MB: on a machine busy with every other suite and a TSan build, the
            // default minute ran out before the body had arrived.
            let body = try await client.request(
                on: RawRequest(endpoint: ServerEndpoint(server, "/large/5000000", timeout: 600)))
            #expect(body.count == 5_000_000)
            #expect(body[250] == 250 && body[251] == 0)
            let small = PrismNetworkAdapter(
                transport: transport.make(PrismTransportConfiguration(maximumResponseBytes: 1_000)))
            await expectHTTPError(.responseTooLarge) {
                try await small.request(on: RawRequest(endpoint: ServerEndpoint(server, "/large/100000")))
            }
        }
    }

    @Test("interceptors adapt every request before it is sent", arguments: TransportKind.allCases)
    func interceptors(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(
                transport: transport.make(),
                interceptors: [
                    PrismInterceptor.headers(["X-App": "prism"]),
                    PrismInterceptor { request in
                        var request = request
                        request.headers["X-Order"] = (request.headers["X-App"] ?? "") + "-second"
                        return request
                    },
                ]
            )
            let echo = try await client.request(on: ServerRequest<Echo>(endpoint: ServerEndpoint(server, "/echo/path")))
            #expect(echo.headers["x-app"] == "prism")
            #expect(echo.headers["x-order"] == "prism-second")
            #expect(echo.path == "/echo/path")
        }
    }

    @Test("logging shows requests and never the secrets in them")
    func loggingRedacts() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let lines = LockedBox<[String]>([])
            let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
            let client = PrismNetworkAdapter(logger: logger)
            _ = try await client.request(
                on: RawRequest(
                    endpoint: ServerEndpoint(
                        server,
                        "/echo",
                        query: ["access_token": "sekrit-query", "page": "1"],
                        headers: ["Authorization": "Bearer sekrit-header", "Cookie": "session=sekrit-cookie"]
                    )
                )
            )
            let log = lines.wrappedValue.joined(separator: "\n")
            #expect(log.contains("GET"))
            #expect(log.contains("/echo"))
            #expect(log.contains("page=1"))
            #expect(!log.contains("sekrit"))
            #expect(log.contains("<redacted>"))
        }
    }
}
