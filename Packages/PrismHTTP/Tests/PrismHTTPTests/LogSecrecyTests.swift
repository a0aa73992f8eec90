import Foundation
import Logging
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("No secret reaches a log line, at any level, whatever fails")
struct LogSecrecyTests {
    static let secrets = [
        "SECRET-PASSWORD", "SECRET-QUERY", "SECRET-TOKEN", "SECRET-KEY", "SECRET-COOKIE", "SECRET-REFRESH",
    ]

    /// A refresh failure whose own description carries a secret.
    struct LeakyRefreshError: Error, CustomStringConvertible {
        var description: String { "refresh token SECRET-REFRESH was rejected" }
    }

    /// `path` on `server` with a password in the URL, a key in the query and credentials in the
    /// headers.
    static func secretRequest(_ server: PrismTestServer, _ path: String, timeout: Duration? = nil) -> PrismHTTPRequest {
        let separator = path.contains("?") ? "&" : "?"
        let url = URL(
            string: "http://user:SECRET-PASSWORD@127.0.0.1:\(server.port)\(path)\(separator)api_key=SECRET-QUERY&page=1"
        )!
        return PrismHTTPRequest(
            url: url,
            headers: [
                "Authorization": "Bearer SECRET-TOKEN", "X-API-Key": "SECRET-KEY", "Cookie": "session=SECRET-COOKIE",
            ],
            timeout: timeout
        )
    }

    /// Every failure kind, as a name and a way to cause it with `client`.
    static func failures(_ server: PrismTestServer, closedPort: Int)
        -> [(name: String, run: @Sendable (PrismNetworkAdapter) async throws -> Void)]
    {
        [
            ("timeout", { _ = try await $0.send(secretRequest(server, "/delay/3000", timeout: .milliseconds(300))) }),
            (
                "stalled body",
                { _ = try await $0.send(secretRequest(server, "/hostile/stall?ms=20000", timeout: .milliseconds(300))) }
            ),
            (
                "connection refused",
                {
                    var request = secretRequest(server, "/users/a")
                    request.url = URL(
                        string: request.url.absoluteString.replacingOccurrences(
                            of: ":\(server.port)/", with: ":\(closedPort)/"))!
                    _ = try await $0.send(request)
                }
            ),
            ("dropped connection", { _ = try await $0.send(secretRequest(server, "/drop")) }),
            ("too large", { _ = try await $0.send(secretRequest(server, "/hostile/oversized/5000000")) }),
            ("too many redirects", { _ = try await $0.send(secretRequest(server, "/hostile/redirect-chain/9")) }),
            (
                "invalid header",
                {
                    var request = secretRequest(server, "/echo/h")
                    request.headers["X-Other"] = "SECRET-TOKEN\r\nX-Injected: yes"
                    _ = try await $0.send(request)
                }
            ),
            (
                "not an http URL",
                {
                    var request = secretRequest(server, "/users/a")
                    request.url = URL(
                        string: request.url.absoluteString.replacingOccurrences(of: "http:", with: "ftp:"))!
                    _ = try await $0.send(request)
                }
            ),
            (
                "retries exhausted",
                {
                    let policy = PrismExponentialBackoff(
                        baseDelay: .milliseconds(1), maxDelay: .milliseconds(5), maxAttempts: 2, jitter: .zero)
                    _ = try await $0.send(
                        secretRequest(server, "/status/503"), options: PrismRequestOptions(retryPolicy: policy))
                }
            ),
            (
                "unacceptable status",
                { client in
                    let response = try await client.send(secretRequest(server, "/status/500"))
                    throw PrismHTTPError(code: .unacceptableStatus, message: "\(response.statusCode)")
                }
            ),
            (
                "cancelled",
                { client in
                    let task = Task { try await client.send(secretRequest(server, "/delay/10000")) }
                    try await Task.sleep(for: .milliseconds(100))
                    task.cancel()
                    _ = try await task.value
                }
            ),
        ]
    }

    @Test(
        "every transport failure is logged at warning with its code, and without a secret",
        arguments: TransportKind.allCases)
    func transportFailures(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let refused = try PrismRefusedPort()
            defer { refused.close() }
            let closedPort = refused.port
            for failure in Self.failures(server, closedPort: closedPort) {
                let lines = LockedBox<[String]>([])
                let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
                let client = PrismNetworkAdapter(
                    transport: transport.make(PrismTransportConfiguration(maximumResponseBytes: 100_000)),
                    cache: nil, logger: logger)
                do {
                    try await failure.run(client)
                    Issue.record("\(failure.name): expected a failure")
                } catch {
                    let text = "\(error)"
                    for secret in ["SECRET-PASSWORD", "SECRET-QUERY"] {
                        #expect(!text.contains(secret), "\(failure.name): the error's description shows \(secret)")
                    }
                }
                let log = lines.wrappedValue.joined(separator: "\n")
                #expect(!log.isEmpty, "\(failure.name): nothing was logged")
                for secret in Self.secrets {
                    #expect(!log.contains(secret), "\(failure.name) logged \(secret):\n\(log)")
                }
                // A status is the server's answer, not a failure of the exchange: it is logged at
                // debug, as every exchange is.
                if !["unacceptable status", "retries exhausted", "cancelled"].contains(failure.name) {
                    #expect(lines.wrappedValue.contains { $0.hasPrefix("warning") }, "\(failure.name): no warning")
                }
            }
        }
    }

    @Test("a failed refresh is logged without the refresh error's text", arguments: TransportKind.allCases)
    func refreshFailure(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let lines = LockedBox<[String]>([])
            let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
            let auth = PrismBearerTokenAuthenticator(accessToken: "SECRET-TOKEN") { _ in throw LeakyRefreshError() }
            let client = PrismNetworkAdapter(
                transport: transport.make(), cache: nil, authenticator: auth, logger: logger)
            let error = await expectHTTPError(.authenticationFailed) {
                try await client.send(PrismHTTPRequest(url: server.url("/hostile/unauthorized")))
            }
            #expect(error?.underlying is LeakyRefreshError)
            let log = lines.wrappedValue.joined(separator: "\n")
            #expect(log.contains("authenticationFailed"))
            for secret in Self.secrets { #expect(!log.contains(secret), "logged \(secret):\n\(log)") }
            #expect(!"\(error!)".contains("SECRET-REFRESH"))
        }
    }
}
