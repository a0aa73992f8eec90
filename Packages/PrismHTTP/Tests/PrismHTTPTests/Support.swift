import Foundation
import Logging
import PrismCache
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
#endif

/// The transports every behaviour is tested on: PrismHTTP's two.
typealias TransportKind = PrismTransportKind

/// An answer a test scripts for `/scripted/<name>` on the test server.
typealias Scripted = PrismTestServer.ScriptedResponse

/// Starts a test server, runs `body`, and shuts the server down whatever happens.
@discardableResult
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

/// A new transport of `kind` made with `configuration`; without a kind, the one a client uses by
/// default.
func makeTransport(_ kind: TransportKind?, _ configuration: PrismTransportConfiguration = .default)
    -> any PrismHTTPTransport
{
    kind?.make(configuration) ?? PrismNetworkAdapter.defaultTransport(configuration: configuration)
}

/// Starts a test server and a client that caches nothing, on a new transport of `kind` (the default
/// one without a kind) made with `configuration`, with `authenticator` and `retryPolicy`; runs
/// `body` and shuts the server down whatever happens.
func withClient(
    _ kind: TransportKind? = nil, _ configuration: PrismTransportConfiguration = .default,
    authenticator: (any PrismAuthenticator)? = nil, retryPolicy: (any PrismRetryPolicy)? = nil,
    _ body: (PrismTestServer, PrismNetworkAdapter) async throws -> Void
) async throws {
    let transport = makeTransport(kind, configuration)
    try await withServer { server in
        try await body(
            server,
            PrismNetworkAdapter(
                transport: transport, cache: nil, authenticator: authenticator, retryPolicy: retryPolicy)
        )
    }
}

/// Starts a test server and a client with the default cache, on a new transport of `kind` (the
/// default one without a kind), that sends every request to the server whatever host it names
/// (see ``redirect(to:)``); runs `body` and shuts the server down whatever happens.
func withRedirectingClient(
    _ kind: TransportKind? = nil, _ body: (PrismTestServer, PrismNetworkAdapter) async throws -> Void
) async throws {
    try await withServer { server in
        try await body(
            server, PrismNetworkAdapter(transport: makeTransport(kind), interceptors: [redirect(to: server)]))
    }
}

/// Starts a test server and a client with the default cache, on a new transport of `kind` (the
/// default one without a kind); runs `body` and shuts the server down whatever happens.
func withCachingClient(
    _ kind: TransportKind? = nil, _ body: (PrismTestServer, PrismNetworkAdapter) async throws -> Void
) async throws {
    try await withServer { server in
        try await body(server, PrismNetworkAdapter(transport: makeTransport(kind)))
    }
}

/// Starts a test server and a client whose ten-entry cache tells time by a clock the test moves,
/// on a new transport of `kind` (the default one without a kind); runs `body` and shuts the server
/// down whatever happens.
func withClockedCachingClient(
    _ kind: TransportKind? = nil,
    _ body: (PrismTestServer, TestClock<Duration>, PrismNetworkAdapter) async throws -> Void
) async throws {
    try await withServer { server in
        let clock = TestClock()
        let cache = PrismResponseCache(maxSize: 10, clock: clock)
        return try await body(server, clock, PrismNetworkAdapter(transport: makeTransport(kind), cache: cache))
    }
}

/// Sends `client` to `/hostile/stall` (the head and 10 bytes of the body, then nothing for 20 s),
/// cancels the request's task once the 10 bytes are out, and expects `CancellationError`, and
/// the server to see the connection close while it held the rest of the body.
func expectCancelledMidBody(_ client: PrismNetworkAdapter, _ server: PrismTestServer) async throws {
    let endpoint = ServerEndpoint(server, "/hostile/stall", query: ["sent": "10", "ms": "20000"])
    let task = Task { try await client.request(on: RawRequest(endpoint: endpoint)) }
    try await eventually { server.bodyBytesSent("/hostile/stall") == 10 }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    try await eventually { server.abandonedResponses("/hostile/stall") == 1 }
}

/// `/scripted/<name>` on a test server: what a test sends there, and what reached it.
struct ScriptedRoute {
    let server: PrismTestServer
    let path: String

    /// Scripts `/scripted/<name>` on `server` to answer `answers`, one after the other (see
    /// ``PrismTestServer/script(_:_:)``).
    init(_ server: PrismTestServer, _ name: String, _ answers: [Scripted]) {
        server.script(name, answers)
        self.server = server
        self.path = "/scripted/\(name)"
    }

    var url: URL { server.url(path) }

    /// A GET of the route.
    var request: PrismHTTPRequest { PrismHTTPRequest(url: url) }

    /// How many requests reached the route.
    var hits: Int { server.hits(path) }

    /// The requests that reached the route, in order.
    var requests: [PrismTestServer.RecordedRequest] { server.requests.filter { $0.path == path } }
}

/// Starts a test server whose `/scripted/<name>` answers `answers`, one after the other, and a
/// client whose ten-entry cache tells time by a clock the test moves, on a new transport of `kind`
/// (see ``withClockedCachingClient(_:_:)``); runs `body` with the route, the clock and the client,
/// and shuts the server down whatever happens.
func withScriptedRoute(
    _ name: String, _ answers: [Scripted], on kind: TransportKind? = nil,
    _ body: (ScriptedRoute, TestClock<Duration>, PrismNetworkAdapter) async throws -> Void
) async throws {
    try await withClockedCachingClient(kind) { (server, clock, client) async throws in
        try await body(ScriptedRoute(server, name, answers), clock, client)
    }
}

/// Expects `body` to throw a ``PrismHTTPError`` whose code is `code`; returns the error, for
/// whatever else a test checks in it.
@discardableResult
func expectHTTPError<R>(
    _ code: PrismHTTPError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    performing body: () async throws -> R
) async -> PrismHTTPError? {
    let error = await #expect(throws: PrismHTTPError.self, comment, sourceLocation: sourceLocation) {
        _ = try await body()
    }
    #expect(error?.code == code, comment, sourceLocation: sourceLocation)
    return error
}

/// Expects `body` to throw a ``PrismHTTPError`` whose code is `code`; returns the error, for
/// whatever else a test checks in it.
@discardableResult
func expectHTTPError<R>(
    _ code: PrismHTTPError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    performing body: () throws -> R
) -> PrismHTTPError? {
    let error = #expect(throws: PrismHTTPError.self, comment, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.code == code, comment, sourceLocation: sourceLocation)
    return error
}

/// A response's body as UTF-8 text.
func text(_ response: PrismHTTPResponse) -> String {
    String(decoding: response.body, as: UTF8.self)
}

/// `/cache/<name>` on `server`, which the server lets a cache store for `maxAge` seconds; `query`
/// and `headers` add to the request.
func cacheEndpoint(
    _ server: PrismTestServer, _ name: String, maxAge: Int = 60, query: [String: String] = [:],
    headers: [String: String] = [:]
) -> ServerEndpoint {
    ServerEndpoint(server, "/cache/\(name)", query: query.merging(["max-age": String(maxAge)]) { $1 }, headers: headers)
}

/// GET ``cacheEndpoint(_:_:maxAge:query:headers:)``, decoded as a ``CacheHit``.
func cacheHitRequest(
    _ server: PrismTestServer, _ name: String, maxAge: Int = 60, query: [String: String] = [:],
    headers: [String: String] = [:]
) -> ServerRequest<CacheHit> {
    ServerRequest(endpoint: cacheEndpoint(server, name, maxAge: maxAge, query: query, headers: headers))
}

/// `/auth/protected`'s answer.
struct Protected: PrismEntity {
    var ok: Bool
    var token: String
}

/// GET `/auth/protected` on `server`: 401 without the server's current token.
func protectedRequest(_ server: PrismTestServer) -> ServerRequest<Protected> {
    ServerRequest<Protected>(endpoint: ServerEndpoint(server, "/auth/protected"))
}

/// `/auth/refresh`'s answer.
struct Tokens: PrismEntity {
    var accessToken: String
    var refreshToken: String
}

/// What `/auth/refresh` is sent.
struct RefreshBody: Encodable, Sendable {
    var refreshToken: String
}

/// The access token `/auth/refresh` on `server` answers, asked through `client` with the refresh
/// token `refresh-0`.
func refreshedToken(
    through client: PrismNetworkAdapter, _ server: PrismTestServer, query: [String: String] = [:]
) async throws -> String {
    let refresh = ServerEndpoint(
        server, "/auth/refresh", method: .post, query: query, payload: RefreshBody(refreshToken: "refresh-0"))
    return try await client.request(on: ServerRequest<Tokens>(endpoint: refresh)).accessToken
}

/// `request` as the client prepares it, with `policy` as its cache policy.
func prepared(_ request: PrismHTTPRequest, cachePolicy policy: PrismCachePolicy?) -> PrismPreparedRequest {
    PrismPreparedRequest(original: request, request: request, options: PrismRequestOptions(cachePolicy: policy))
}

#if AsyncHTTPClient && os(Linux)
/// Runs `body` with a new `HTTPClient` made with `configuration`, which follows up to `maximum`
/// redirects itself when `followingRedirects`, and none otherwise; shuts the client down whatever
/// happens.
func withHTTPClient<T>(
    _ configuration: HTTPClient.Configuration = HTTPClient.Configuration(), followingRedirects follow: Bool,
    maximum: Int = 5, _ body: (HTTPClient) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.redirectConfiguration = follow ? .follow(max: maximum, allowCycles: false) : .disallow
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}
#endif

/// Changes the document at `path` on `server` (`/etag/<name>` or `/last-modified/<name>`) to its next
/// version: POSTs to `<path>/bump` through `client`.
func bump(_ path: String, on server: PrismTestServer, through client: PrismNetworkAdapter) async throws {
    _ = try await client.send(PrismHTTPRequest(url: server.url(path + "/bump"), method: .post))
}

/// What `python3 -c script` prints to its standard output, given `input` on its standard input; a
/// real child process, for what an outside implementation makes of Prism's bytes (or gives it).
///
/// - Throws: when Python cannot start or exits with another status than 0.
func python(_ script: String, input: Data) async throws -> Data {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    // Blocking writes, reads and the wait on a thread of their own, off the cooperative pool. The
    // scripts read all of their input before they write: no deadlock on a large one.
    let printed = try await offTheCooperativePool {
        try stdin.fileHandleForWriting.write(contentsOf: input)
        try stdin.fileHandleForWriting.close()
        let printed = try stdout.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        return printed
    }
    try #require(process.terminationStatus == 0, "python3 -c \"\(script)\" failed")
    return printed
}
