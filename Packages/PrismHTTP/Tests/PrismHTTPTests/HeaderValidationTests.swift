import Foundation
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Headers with CR, LF or NUL are refused before any transport, and nothing is sent")
struct HeaderValidationTests {
    static let hostileValues = [
        "ok\r\nX-Injected: yes", "ok\nX-Injected: yes", "ok\rX-Injected: yes", "ok\0hidden", "bell\u{7}",
    ]
    static let hostileNames = ["X-Bad\r\nX-Injected", "X Space", "X:Colon", "", "X-Caf\u{E9}"]

    /// The ``PrismHTTPError`` that `send` must throw.
    static func refusal<R>(_ send: () async throws -> R) async -> PrismHTTPError? {
        await #expect(throws: PrismHTTPError.self) { _ = try await send() }
    }

    @Test(
        "a hostile header value is invalidHeader on every path, and the server sees nothing",
        arguments: TransportKind.allCases)
    func hostileValues(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let transportUnderTest = transport.make()
            for value in Self.hostileValues {
                let client = PrismNetworkAdapter(transport: transportUnderTest, cache: nil)
                let url = server.url("/echo/value")
                let intercepted = PrismNetworkAdapter(
                    transport: transportUnderTest, cache: nil,
                    interceptors: [PrismInterceptor.headers(["X-Value": value])])
                // On the request itself, in the options, from an interceptor, and to the transport directly.
                let errors: [PrismHTTPError?] = [
                    await Self.refusal {
                        try await client.send(PrismHTTPRequest(url: url, headers: ["X-Value": value]))
                    },
                    await Self.refusal {
                        try await client.send(
                            PrismHTTPRequest(url: url), options: PrismRequestOptions(headers: ["X-Value": value]))
                    },
                    await Self.refusal { try await intercepted.send(PrismHTTPRequest(url: url)) },
                    await Self.refusal {
                        try await transportUnderTest.send(PrismHTTPRequest(url: url, headers: ["X-Value": value]))
                    },
                    await Self.refusal {
                        try await transportUnderTest.upload(
                            PrismHTTPRequest(url: url, method: .post, headers: ["X-Value": value]),
                            body: .data(Data("x".utf8))
                        ) { _ in }
                    },
                ]
                #expect(errors.allSatisfy { $0?.code == .invalidHeader }, "\(value.debugDescription)")
                // The value may be a credential: the message never quotes it.
                #expect(errors.allSatisfy { $0?.message.contains("X-Injected") == false })
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test(
        "a header name that is not an HTTP token is invalidHeader, and nothing is sent",
        arguments: TransportKind.allCases)
    func hostileNames(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            for name in Self.hostileNames {
                await expectHTTPError(.invalidHeader, "\(name.debugDescription)") {
                    try await client.send(PrismHTTPRequest(url: server.url("/echo/name"), headers: [name: "v"]))
                }
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("an endpoint's own headers are checked when the request is made")
    func endpointHeaders() throws {
        let endpoint = EndpointTests.Local(path: "/x", headers: ["X-Value": "a\r\nb"])
        #expect(throws: PrismHTTPError.self) { try endpoint.makeHTTPRequest() }
        #expect(endpoint.request.url?.absoluteString == "about:blank")
    }

    @Test("an authenticator whose token holds a line break cannot inject a header", arguments: TransportKind.allCases)
    func authenticatorToken(transport: TransportKind) async throws {
        let auth = PrismBearerTokenAuthenticator(accessToken: "t\r\nX-Injected: yes") { _ in "never" }
        try await withClient(transport, authenticator: auth) { (server, client) async throws in
            await expectHTTPError(.invalidHeader) {
                try await client.send(PrismHTTPRequest(url: server.url("/echo/auth")))
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("tabs and spaces stay allowed in values", arguments: TransportKind.allCases)
    func legalValues(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            let response = try await client.send(
                PrismHTTPRequest(url: server.url("/echo/legal"), headers: ["X-Value": "a\tb c"]))
            #expect(try echo(response).headers["x-value"] == "a\tb c")
        }
    }
}
