import Foundation
import Logging
@_spi(PrismInternals) import PrismHTTP
import PrismTestServer
import PrismTestSupport

/// The transports every behaviour is tested on: PrismHTTP's two.
typealias TransportKind = PrismTransportKind

/// Starts a test server, runs `body`, and shuts the server down whatever happens.
func withServer<T>(_ body: (PrismTestServer) async throws -> T) async throws -> T {
    try await PrismTestServer.withRunning(body)
}

/// Sends every request to `server`, whatever host its endpoint names (how the seed's
/// `api.github.com` endpoints reach the local server).
func redirect(to server: PrismTestServer) -> PrismInterceptor {
    let port = server.port
    return PrismInterceptor { request in
        var request = request
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        request.url = components.url!
        return request
    }
}

/// An endpoint on the test server.
struct ServerEndpoint: PrismNetworkEndpoint {
    let port: Int?
    let path: String
    var method: PrismNetworkMethod = .get
    var queryItems: [URLQueryItem]? = nil
    var headers: [String: String] = [:]
    var payload: (any Encodable & Sendable)? = nil
    var timeoutInterval: TimeInterval? = nil
    var cacheInterval: TimeInterval? = nil

    var scheme: PrismNetworkScheme { .http }
    var host: String { "127.0.0.1" }
    var body: (any Encodable)? { payload }

    init(
        _ server: PrismTestServer,
        _ path: String,
        method: PrismNetworkMethod = .get,
        query: [String: String] = [:],
        headers: [String: String] = [:],
        payload: (any Encodable & Sendable)? = nil,
        timeout: TimeInterval? = nil,
        cacheInterval: TimeInterval? = nil
    ) {
        self.port = server.port
        self.path = path
        self.method = method
        self.queryItems =
            query.isEmpty ? nil : query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        self.headers = headers
        self.payload = payload
        self.timeoutInterval = timeout
        self.cacheInterval = cacheInterval
    }
}

/// A request to a ``ServerEndpoint`` decoding `Value`.
struct ServerRequest<Value: PrismEntity>: PrismNetworkRequest {
    typealias Response = Value
    let endpoint: ServerEndpoint
}

/// A request to a ``ServerEndpoint`` returning the raw body.
struct RawRequest: PrismNetworkRequest {
    typealias Response = Data
    let endpoint: ServerEndpoint
}

struct Echo: PrismEntity, Equatable {
    var method: String
    var path: String
    var headers: [String: String]
    var body: String?
}

struct CacheHit: PrismEntity, Equatable {
    var name: String
    var hit: Int
}

struct Versioned: PrismEntity, Equatable {
    var name: String
    var version: Int
}

/// `server`'s URL of `path`, on the host `localhost`: another origin than `127.0.0.1`.
func otherOrigin(_ server: PrismTestServer, _ path: String) -> URL {
    URL(string: "http://localhost:\(server.port)\(path)")!
}

/// `/hostile/redirect` on `server`, redirecting to `target` with `status`.
func redirectURL(_ server: PrismTestServer, to target: URL, status: Int = 302) -> URL {
    var components = URLComponents(url: server.url("/hostile/redirect"), resolvingAgainstBaseURL: false)!
    components.queryItems = [
        URLQueryItem(name: "to", value: target.absoluteString), URLQueryItem(name: "status", value: String(status)),
    ]
    return components.url!
}

/// The echo route's answer in a response.
func echo(_ response: PrismHTTPResponse) throws -> Echo {
    try Echo.decoder.decode(Echo.self, from: response.body)
}
