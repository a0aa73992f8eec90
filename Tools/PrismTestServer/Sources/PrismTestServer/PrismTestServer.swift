import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A real HTTP/1.1 server on loopback for tests, benchmarks and demos: Hummingbird on SwiftNIO.
///
/// Each test starts its own server on an ephemeral port, talks to it over real TCP, and stops it.
/// Servers are independent (own port, own counters, own state) and cheap: they run on NIO's
/// process-wide event loops (`MultiThreadedEventLoopGroup.singleton`), so starting one creates no
/// thread and takes a few milliseconds. The routes are listed in the package's README.md and in
/// this module's documentation.
///
/// ```swift
/// @Test("A user is decoded from GitHub-shaped JSON")
/// func user() async throws {
///     let server = try await PrismTestServer.start()
///     let url = server.url("/users/octocat")   // http://127.0.0.1:<port>/users/octocat
///     // ... send the request with the client under test ...
///     #expect(server.hits("/users/octocat") == 1)
///     try await server.shutdown()
/// }
/// ```
///
/// If the last reference goes away without ``shutdown()``, `deinit` starts the same graceful
/// shutdown in the background: the listening socket closes at once, idle connections too, and
/// requests still running finish (waiting routes stop waiting). Nothing keeps running and no thread
/// is left behind, but call ``shutdown()`` to know that the server is gone when it returns.
public final class PrismTestServer: Sendable {
    /// The port the server listens on (the ephemeral port chosen by the system when started with 0).
    public let port: Int
    /// `http://<host>:<port>` (`https://` when started with `tls: true`) with no trailing slash,
    /// e.g. `http://127.0.0.1:54321`.
    public let baseURL: URL

    /// Internal so that extensions in other files (`PrismTestServer+GraphQL.swift`) can read it.
    let state: ServerState
    private let lifecycle: ServerLifecycle

    private init(port: Int, baseURL: URL, state: ServerState, lifecycle: ServerLifecycle) {
        self.port = port
        self.baseURL = baseURL
        self.state = state
        self.lifecycle = lifecycle
    }

    deinit {
        self.lifecycle.stopInBackground()
    }

    /// Starts a server on an ephemeral loopback port, runs `body` with it, and shuts it down
    /// afterwards, whether `body` returns or throws.
    ///
    /// ```swift
    /// let user = try await PrismTestServer.withRunning { server in
    ///     try await client.send(PrismHTTPRequest(url: server.url("/users/octocat")))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - tls: Whether the server speaks HTTPS (see ``start(host:port:tls:highestTLSVersion:logger:)``).
    ///   - isolation: The caller's actor, which `body` runs on (a `@MainActor` test's, say).
    ///   - body: What to do with the running server.
    public static func withRunning<T>(
        tls: Bool = false,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PrismTestServer) async throws -> T
    ) async throws -> T {
        let server = try await start(tls: tls)
        let result: T
        do {
            result = try await body(server)
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
        return result
    }

    /// Starts a server and returns once it accepts connections.
    ///
    /// - Parameters:
    ///   - host: The address to listen on; loopback by default. `::1` works too.
    ///   - port: The port, or 0 (the default) for an ephemeral port chosen by the system: read it
    ///     back from ``port``.
    ///   - tls: Whether the server speaks HTTPS, with a certificate for `127.0.0.1` and
    ///     `localhost` signed by a test authority that a client must trust
    ///     (``PrismTestCertificates/authorityPEM``); ``baseURL`` is then `https://...`. The routes
    ///     are the same. A client certificate is asked for, not required (see
    ///     ``PrismTestCertificates``).
    ///   - highestTLSVersion: The newest TLS version the server speaks (with `tls`): `.tls12` to
    ///     test a client that requires TLS 1.3.
    ///   - logger: Where the server logs; by default nothing is logged.
    /// - Throws: The network stack's error when the address cannot be bound (a port in use, say),
    ///   or a ``PrismTestServerError``.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, tls: Bool = false, highestTLSVersion: TLSVersion = .tls13,
        logger: Logger? = nil
    ) async throws -> PrismTestServer {
        precondition((0...65_535).contains(port), "port must be 0 (ephemeral) or 1 to 65535")
        let logger = logger ?? Logger(label: "PrismTestServer", factory: { _ in SwiftLogNoOpLogHandler() })
        let state = ServerState()
        let startup = StartupSignal()
        // HTTP/1.1, and the GraphQL subscriptions WebSocket (graphql-transport-ws) on /graphql.
        let subscriptions = GraphQLSubscriptionEndpoint(state: state)
        var server = HTTPServerBuilder.http1WebSocketUpgrade(
            configuration: .init(
                http1: .init(additionalChannelHandlers: [ConnectionTapHandler(state: state)]),
                ws: .init(maxFrameSize: 1 << 20, autoPing: .disabled, closeTimeout: .seconds(2))
            ),
            shouldUpgrade: { request, channel, _ in subscriptions.shouldUpgrade(request, channel: channel) }
        )
        if tls {
            let highest: NIOSSL.TLSVersion = highestTLSVersion == .tls12 ? .tlsv12 : .tlsv13
            server = try HTTPServerBuilder.tls(
                server, tlsConfiguration: TestCertificate.serverConfiguration(highestVersion: highest))
        }
        let application = Application(
            router: RouteTable.makeRouter(state: state),
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "PrismTestServer"),
            onServerRunning: { channel in startup.succeed(channel: channel) },
            eventLoopGroupProvider: .singleton,
            logger: logger
        )
        let lifecycle = try await ServerLifecycle(application: application, startup: startup, logger: logger)
        let urlHost = host.contains(":") ? "[\(host)]" : host
        guard let baseURL = URL(string: "\(tls ? "https" : "http")://\(urlHost):\(lifecycle.port)") else {
            try await lifecycle.shutdown()
            preconditionFailure("'\(host)' cannot be the host of a URL; pass an IP address or a host name")
        }
        return PrismTestServer(port: lifecycle.port, baseURL: baseURL, state: state, lifecycle: lifecycle)
    }

    /// The URL of `path` on this server; `path` may carry a query: `url("/cache/a?max-age=60")`.
    ///
    /// A missing leading slash is added.
    public func url(_ path: String) -> URL {
        let path = path.hasPrefix("/") ? path : "/" + path
        guard let url = URL(string: self.baseURL.absoluteString + path) else {
            preconditionFailure(
                "'\(path)' is not a valid URL path; percent-encode spaces and other reserved characters")
        }
        return url
    }

    /// The PEM certificate of the authority that signed the certificate of every server started
    /// with `tls: true`: trust it in a test's client (with AsyncHTTPClient,
    /// `TLSConfiguration.additionalTrustRoots`) to reach them over HTTPS. The same as
    /// ``PrismTestCertificates/authorityPEM``.
    ///
    /// Its private key is public: never trust it outside tests.
    public static var certificatePEM: String { TestCertificate.authorityPEM }

    /// The TLS versions a test server can stop at.
    public enum TLSVersion: Sendable {
        /// TLS 1.2 and nothing newer.
        case tls12
        /// TLS 1.2 and 1.3.
        case tls13
    }

    /// Stops the server gracefully and waits until its sockets are closed.
    ///
    /// New connections are refused at once, idle connections are closed, requests under way finish
    /// (routes that wait, such as `/delay`, stop waiting and answer 503); anything still open after
    /// two seconds is cut off. It returns once the server's task has ended, or after three seconds
    /// at most: a connection that a client opened and never used (AsyncHTTPClient keeps one when
    /// the request it was opened for is cancelled first) lives on until the client closes it.
    /// Calling it again, or concurrently, waits for the same stop.
    public func shutdown() async throws {
        try await self.lifecycle.shutdown()
    }

    // MARK: Observing requests

    /// How many requests reached `path` (the path as sent, without the query), since the start or
    /// the last ``reset()``.
    ///
    /// Counted when the request head arrives, so a `304` revalidation counts, a response served
    /// from a client's cache does not.
    public func hits(_ path: String) -> Int {
        let path = RequestTarget(path).path
        return self.state.withValues { $0.hits[path, default: 0] }
    }

    /// The requests that reached the server, oldest first (the most recent 10,000 are kept).
    public var requests: [RecordedRequest] {
        self.state.withValues { $0.requests }
    }

    /// Clears hit counts, recorded requests, ETag and Last-Modified versions, cache, flaky and
    /// timeout counters, uploads, and the token state (back to `token-0`, valid, no refresh).
    public func reset() {
        self.state.reset()
    }

    // MARK: Route state

    /// The access token `/auth/protected` accepts now: `token-0` at first, `token-<n>` after the
    /// n-th refresh.
    public var currentToken: String {
        self.state.withValues { "token-\($0.tokenNumber)" }
    }

    /// How many times `POST /auth/refresh` succeeded.
    public var refreshCount: Int {
        self.state.withValues { $0.refreshCount }
    }

    /// Makes the current token invalid until the next refresh: `/auth/protected` answers 401.
    public func expireToken() {
        self.state.withValues { $0.tokenIsValid = false }
    }

    /// How many requests reached `/flaky/<name>`.
    public func flakyAttempts(_ name: String) -> Int {
        self.state.withValues { $0.flakyAttempts[name, default: 0] }
    }

    /// How many requests reached `/timeout-then-ok/<name>`.
    public func timeoutAttempts(_ name: String) -> Int {
        self.state.withValues { $0.timeoutAttempts[name, default: 0] }
    }

    /// The progress of the most recently started `POST /upload`, or nil before the first.
    public var uploadProgress: UploadProgress? {
        self.state.withValues { values in values.latestUploadID.flatMap { values.uploads[$0] } }
    }

    /// The progress of the upload sent with `?id=<id>`, or nil if none was.
    public func uploadProgress(id: String) -> UploadProgress? {
        self.state.withValues { $0.uploads[id] }
    }
}
