import Foundation
@_spi(PrismInternals) import PrismHTTP
import PrismTestServer
import Testing

@Suite("Headers with CR, LF or NUL are refused before any transport, and nothing is sent")
struct HeaderValidationTests {
    static let hostileValues = [
        "ok\r\nX-Injected: yes", "ok\nX-Injected: yes", "ok\rX-Injected: yes", "ok\0hidden", "bell\u{7}",
    ]
    static let hostileNames = ["X-Bad\r\nX-Injected", "X Space", "X:Colon", "", "X-Caf\u{E9}"]

    @Test(
        "a hostile header value is invalidHeader on every path, and the server sees nothing",
        arguments: TransportKind.allCases)
    func hostileValues(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let transportUnderTest = transport.make()
            for value in Self.hostileValues {
                let client = PrismNetworkAdapter(transport: transportUnderTest, cache: nil)
                let url = server.url("/echo/value")
                var errors: [PrismHTTPError?] = []
                // On the request itself, in the options, from an interceptor, and to the transport directly.
                errors.append(
                    await #expect(throws: PrismHTTPError.self) {
                        try await client.send(PrismHTTPRequest(url: url, headers: ["X-Value": value]))
                    })
                errors.append(
                    await #expect(throws: PrismHTTPError.self) {
                        try await client.send(
                            PrismHTTPRequest(url: url), options: PrismRequestOptions(headers: ["X-Value": value]))
                    })
                let intercepted = PrismNetworkAdapter(
                    transport: transportUnderTest, cache: nil,
                    interceptors: [PrismInterceptor.headers(["X-Value": value])])
                errors.append(
                    await #expect(throws: PrismHTTPError.self) {
                        try await intercepted.send(PrismHTTPRequest(url: url))
                    })
                errors.append(
                    await #expect(throws: PrismHTTPError.self) {
                        try await transportUnderTest.send(PrismHTTPRequest(url: url, headers: ["X-Value": value]))
                    })
                errors.append(
                    await #expect(throws: PrismHTTPError.self) {
                        try await transportUnderTest.upload(
                            PrismHTTPRequest(url: url, method: .post, headers: ["X-Value": value]),
                            body: .data(Data("x".utf8))
                        ) { _ in }
                    })
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
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            for name in Self.hostileNames {
                let error = await #expect(throws: PrismHTTPError.self) {
                    try await client.send(PrismHTTPRequest(url: server.url("/echo/name"), headers: [name: "v"]))
                }
                #expect(error?.code == .invalidHeader, "\(name.debugDescription)")
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
        try await withServer { (server: PrismTestServer) async throws in
            let auth = PrismBearerTokenAuthenticator(accessToken: "t\r\nX-Injected: yes") { _ in "never" }
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil, authenticator: auth)
            let error = await #expect(throws: PrismHTTPError.self) {
                try await client.send(PrismHTTPRequest(url: server.url("/echo/auth")))
            }
            #expect(error?.code == .invalidHeader)
            #expect(server.requests.isEmpty)
        }
    }

    @Test("tabs and spaces stay allowed in values", arguments: TransportKind.allCases)
    func legalValues(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let response = try await client.send(
                PrismHTTPRequest(url: server.url("/echo/legal"), headers: ["X-Value": "a\tb c"]))
            #expect(try echo(response).headers["x-value"] == "a\tb c")
        }
    }
}
