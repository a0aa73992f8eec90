import Foundation
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Nothing an endpoint, a timeout or a URL holds can crash the process: each is a typed error")
struct HostileInputTests {
    struct Hostile: PrismNetworkEndpoint {
        var host = "127.0.0.1"
        var port: Int? = 8080
        var path = "/x"
        var timeoutInterval: TimeInterval? = nil
        var cacheInterval: TimeInterval? = nil
        var scheme: PrismNetworkScheme { .http }
    }

    @Test(
        "a timeoutInterval that is NaN, infinite, zero, negative or absurd is invalidTimeout",
        arguments: [Double.nan, .infinity, -.infinity, 0, -1, 1e300, Double.greatestFiniteMagnitude])
    func badTimeouts(seconds: Double) {
        let endpoint = Hostile(timeoutInterval: seconds)
        expectHTTPError(.invalidTimeout) { try endpoint.makeHTTPRequest() }
        #expect(endpoint.request.url?.absoluteString == "about:blank")
    }

    @Test(
        "a cacheInterval that is NaN, infinite or negative fails the request with invalidCacheInterval, before sending",
        arguments: [Double.nan, .infinity, -5])
    func badCacheIntervals(seconds: Double) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let endpoint = ServerEndpoint(server, "/cache/x", query: ["max-age": "60"], cacheInterval: seconds)
            await expectHTTPError(.invalidCacheInterval) {
                try await PrismNetworkAdapter().request(on: RawRequest(endpoint: endpoint))
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test(
        "a Duration timeout of zero or less, or over a year, is invalidTimeout on every path",
        arguments: TransportKind.allCases)
    func badDurations(transport: TransportKind) async throws {
        try await withClient(transport) { (server, client) async throws in
            for timeout in [Duration.zero, .seconds(-1), .seconds(Int64.max), .seconds(400 * 24 * 3_600)] {
                await expectHTTPError(.invalidTimeout) {
                    try await client.send(PrismHTTPRequest(url: server.url("/users/a"), timeout: timeout))
                }
                await expectHTTPError(.invalidTimeout) {
                    try await client.request(
                        on: RawRequest(endpoint: ServerEndpoint(server, "/users/a")),
                        options: PrismRequestOptions(timeout: timeout))
                }
            }
            let configured = PrismNetworkAdapter(
                transport: transport.make(PrismTransportConfiguration(requestTimeout: .seconds(-3))), cache: nil)
            await expectHTTPError(.invalidTimeout) {
                try await configured.send(PrismHTTPRequest(url: server.url("/users/a")))
            }
            #expect(server.requests.isEmpty)
        }
    }

    @Test("a URLRequest with an infinite timeout becomes a request that fails cleanly")
    func infiniteURLRequestTimeout() async throws {
        var urlRequest = URLRequest(url: URL(string: "http://127.0.0.1:1/x")!)
        urlRequest.timeoutInterval = .infinity
        let request = PrismHTTPRequest(urlRequest)
        await expectHTTPError(.invalidTimeout) { try await PrismNetworkAdapter().send(request) }
    }

    @Test(
        "a host that is not a host, or a port out of range, is invalidURL",
        arguments: [
            ("", 80), ("evil.example/x?", 80), ("user@evil.example", 80), ("a b", 80), ("a\r\nb", 80),
            ("127.0.0.1:99", 80), ("[::1", 80), ("ok.example", -1), ("ok.example", 0), ("ok.example", 70_000),
        ])
    func badHostsAndPorts(host: String, port: Int) {
        let endpoint = Hostile(host: host, port: port)
        expectHTTPError(.invalidURL) { try endpoint.makeURL() }
        #expect(endpoint.url.absoluteString == "about:blank")
    }

    @Test("IPv6 literals and international names are still hosts")
    func goodHosts() throws {
        #expect(try Hostile(host: "[::1]", port: 8080).makeURL().absoluteString == "http://[::1]:8080/x")
        #expect(try Hostile(host: "api.example.com", port: nil).makeURL().absoluteString == "http://api.example.com/x")
    }

    @Test(
        "an interceptor that points a request at a file or another scheme gets invalidURL",
        arguments: TransportKind.allCases)
    func nonHTTPURLs(transport: TransportKind) async throws {
        for target in ["file:///etc/passwd", "ftp://127.0.0.1/x", "data:text/plain,hi", "http:///nohost"] {
            let client = PrismNetworkAdapter(
                transport: transport.make(), cache: nil,
                interceptors: [
                    PrismInterceptor { request in
                        var request = request
                        request.url = URL(string: target)!
                        return request
                    }
                ])
            await expectHTTPError(.invalidURL, "\(target)") {
                try await client.send(PrismHTTPRequest(url: URL(string: "http://127.0.0.1:1/x")!))
            }
        }
    }
}
