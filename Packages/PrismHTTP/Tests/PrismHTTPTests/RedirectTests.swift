import Foundation
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Redirects: followed as the policy says, never with credentials to another origin")
struct RedirectTests {
    /// Every credential-bearing header a request can carry, and one that is not.
    static let credentials: PrismHTTPHeaders = [
        "Authorization": "Bearer secret-token",
        "Proxy-Authorization": "Basic secret-proxy",
        "Cookie": "session=secret-cookie",
        "X-API-Key": "secret-key",
        "X-Auth-Token": "secret-auth",
        "Accept": "application/json",
    ]

    @Test(
        "a chain of same-origin redirects is followed to the end, credentials kept", arguments: TransportKind.allCases)
    func sameOriginChain(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            let response = try await client.send(
                PrismHTTPRequest(url: server.url("/hostile/redirect-chain/3"), headers: Self.credentials))
            #expect(response.statusCode == 200)
            #expect(response.url.path == "/hostile/redirect-chain/0")
            #expect(server.hits("/hostile/redirect-chain/0") == 1)
            let last = try #require(server.requests.last)
            #expect(last.headers["authorization"] == "Bearer secret-token")
            #expect(last.headers["x-api-key"] == "secret-key")
        }
    }

    @Test(
        "a redirect to another origin drops Authorization, Proxy-Authorization, Cookie and every secret header",
        arguments: TransportKind.allCases)
    func crossOriginDropsCredentials(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            let target = otherOrigin(server, "/echo/landing")
            let response = try await client.send(
                PrismHTTPRequest(url: redirectURL(server, to: target), headers: Self.credentials))
            #expect(response.statusCode == 200)
            #expect(response.url == target)
            let landed = try echo(response)
            #expect(landed.path == "/echo/landing")
            for name in ["authorization", "proxy-authorization", "cookie", "x-api-key", "x-auth-token"] {
                #expect(landed.headers[name] == nil, "\(name) followed the redirect to another origin")
            }
            #expect(landed.headers["accept"] == "application/json")
        }
    }

    @Test(
        "credentials an authenticator added do not follow a redirect to another origin either",
        arguments: TransportKind.allCases)
    func authenticatorCredentialsStayHome(transport: TransportKind) async throws {
        let auth = PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in "token-1" }
        try await withClient(transport, authenticator: auth) { (server, client) async throws in
            let response = try await client.send(
                PrismHTTPRequest(url: redirectURL(server, to: otherOrigin(server, "/echo/elsewhere"))))
            #expect(try echo(response).headers["authorization"] == nil)
            #expect(server.requests.first?.headers["authorization"] == "Bearer token-0")
        }
    }

    @Test("a 307 of a request with a body is not followed to another origin", arguments: TransportKind.allCases)
    func bodyNeverResentCrossOrigin(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            for status in [307, 308] {
                let response = try await client.send(
                    PrismHTTPRequest(
                        url: redirectURL(server, to: otherOrigin(server, "/echo/stolen"), status: status),
                        method: .post,
                        headers: ["Content-Type": "text/plain"],
                        body: Data("private body".utf8)
                    )
                )
                #expect(response.statusCode == status)
                #expect(response.headers["Location"]?.contains("/echo/stolen") == true)
            }
            #expect(server.hits("/echo/stolen") == 0)
        }
    }

    @Test(
        "a 307 on the same origin resends method and body; a 303 becomes a GET without it",
        arguments: TransportKind.allCases)
    func methodAndBodyRules(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            let body = Data("the body".utf8)
            let kept = try await client.send(
                PrismHTTPRequest(
                    url: redirectURL(server, to: server.url("/echo/kept"), status: 307), method: .post,
                    headers: ["Content-Type": "text/plain"], body: body))
            #expect(try echo(kept).method == "POST")
            #expect(try echo(kept).body == "the body")
            let seeOther = try await client.send(
                PrismHTTPRequest(
                    url: redirectURL(server, to: server.url("/echo/see-other"), status: 303), method: .post,
                    headers: ["Content-Type": "text/plain"], body: body))
            #expect(try echo(seeOther).method == "GET")
            #expect(try echo(seeOther).body == nil)
            #expect(try echo(seeOther).headers["content-type"] == nil)
        }
    }

    @Test(
        "more redirects than the maximum fail with tooManyRedirects; fewer are followed",
        arguments: TransportKind.allCases)
    func maximum(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            // The default follows five.
            let five = try await client.send(PrismHTTPRequest(url: server.url("/hostile/redirect-chain/5")))
            #expect(five.statusCode == 200)
            await expectHTTPError(.tooManyRedirects) {
                try await client.send(PrismHTTPRequest(url: server.url("/hostile/redirect-chain/6")))
            }
            let two = PrismNetworkAdapter(
                transport: transport.make(PrismTransportConfiguration(redirects: .follow(maximum: 2))), cache: nil)
            await expectHTTPError(.tooManyRedirects) {
                try await two.send(PrismHTTPRequest(url: server.url("/hostile/redirect-chain/3")))
            }
            #expect(server.hits("/hostile/redirect-chain/0") == 1)
        }
    }

    @Test("with .none every redirect is the response", arguments: TransportKind.allCases)
    func none(transport: TransportKind) async throws {
        try await withClient(transport, PrismTransportConfiguration(redirects: .none)) {
            (server, client) async throws in
            let response = try await client.send(PrismHTTPRequest(url: server.url("/hostile/redirect-chain/1")))
            #expect(response.statusCode == 302)
            #expect(response.headers["Location"] == "/hostile/redirect-chain/0")
            #expect(server.hits("/hostile/redirect-chain/0") == 0)
        }
    }

    @Test("with .sameOrigin a redirect to another origin is the response", arguments: TransportKind.allCases)
    func sameOriginOnly(transport: TransportKind) async throws {
        try await withClient(transport, PrismTransportConfiguration(redirects: .sameOrigin())) {
            (server, client) async throws in
            let away = try await client.send(
                PrismHTTPRequest(url: redirectURL(server, to: otherOrigin(server, "/echo/away"))))
            #expect(away.statusCode == 302)
            #expect(server.hits("/echo/away") == 0)
            let home = try await client.send(PrismHTTPRequest(url: server.url("/hostile/redirect-chain/2")))
            #expect(home.statusCode == 200)
        }
    }

    @Test(
        "a Location that is not a followable http(s) URL is the response, and nothing crashes",
        arguments: TransportKind.allCases)
    func hostileLocations(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            for location in [
                "file:///etc/passwd", "ftp://127.0.0.1/x", "javascript:alert(1)", "http://", "http:///nohost",
                "//", "http://[::1", "\u{1F4A5}://x",
            ] {
                var components = URLComponents(url: server.url("/hostile/redirect"), resolvingAgainstBaseURL: false)!
                components.queryItems = [URLQueryItem(name: "to", value: location)]
                let response = try await client.send(PrismHTTPRequest(url: components.url!))
                #expect(response.statusCode == 302, "\(location)")
            }
        }
    }
}
