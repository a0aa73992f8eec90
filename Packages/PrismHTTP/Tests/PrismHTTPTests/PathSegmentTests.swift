import Foundation
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Paths built from user input cannot climb or split; query values keep their plus signs")
struct PathSegmentTests {
    struct UserEndpoint: PrismNetworkEndpoint {
        let port: Int?
        let login: String
        var scheme: PrismNetworkScheme { .http }
        var host: String { "127.0.0.1" }
        var path: String { PrismPath.segments("echo", "users", login) }
    }

    struct UserRequest: PrismNetworkRequest {
        typealias Response = Echo
        let endpoint: UserEndpoint
    }

    @Test("a segment escapes /, ?, # and %, so user input stays one segment")
    func segmentEscapes() {
        #expect(PrismPath.segment("octocat") == "octocat")
        #expect(PrismPath.segment("a/b") == "a%2Fb")
        #expect(PrismPath.segment("a?x=1#f") == "a%3Fx%3D1%23f")
        #expect(PrismPath.segment("100%") == "100%25")
        #expect(PrismPath.segment("é b") == "%C3%A9%20b")
        #expect(PrismPath.segments("users", "a/b", "repos") == "/users/a%2Fb/repos")
    }

    @Test(
        "a login with a slash, a query or a dot-dot reaches the server as one segment, or not at all",
        arguments: TransportKind.allCases)
    func againstTheServer(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            let split = try await client.request(
                on: UserRequest(endpoint: UserEndpoint(port: server.port, login: "../../admin?x=1")))
            #expect(split.path == "/echo/users/..%2F..%2Fadmin%3Fx%3D1")
            for login in ["..", "."] {
                await expectHTTPError(.invalidURL) {
                    try await client.request(on: UserRequest(endpoint: UserEndpoint(port: server.port, login: login)))
                }
            }
            #expect(server.requests.count == 1)
        }
    }

    @Test(
        "a path with a dot segment, plain or percent-encoded, is refused",
        arguments: ["/users/../admin", "/users/./me", "/a/%2e%2E/b", "/a/%2E", "..", "/a/.."])
    func dotSegments(path: String) {
        let endpoint = EndpointTests.Local(path: path)
        expectHTTPError(.invalidURL) { try endpoint.makeURL() }
        #expect(endpoint.url.absoluteString == "about:blank")
    }

    @Test("segments that only look like dots are fine")
    func notDotSegments() throws {
        #expect(try EndpointTests.Local(path: "/a/...").makeURL().path == "/a/...")
        #expect(try EndpointTests.Local(path: "/a/.well-known/b").makeURL().path == "/a/.well-known/b")
    }

    @Test("a + in a query value is sent as %2B, so the server does not read a space", arguments: TransportKind.allCases)
    func plusInQuery(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            let response = try await client.request(
                on: ServerRequest<Echo>(endpoint: ServerEndpoint(server, "/echo/q", query: ["q": "c++ & a=b #1"])))
            #expect(response.path == "/echo/q")
            let sent = try #require(server.requests.last)
            #expect(sent.query == "q=c%2B%2B%20%26%20a%3Db%20%231")
            #expect(sent.queryItems["q"] == "c++ & a=b #1")
        }
    }
}
