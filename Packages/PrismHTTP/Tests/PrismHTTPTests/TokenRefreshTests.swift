import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Token refresh: failures reach every waiter, cancellation is immediate, storms are bounded, no deadlock")
struct TokenRefreshTests {
    struct Denied: Error {}

    @Test(
        "without a token, the first request waits for a refresh and is sent once, with the new token",
        arguments: TransportKind.allCases)
    func noTokenRefreshesFirst(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let refreshClient = PrismNetworkAdapter(transport: transport.make(), cache: nil)
            let auth = PrismBearerTokenAuthenticator(accessToken: nil) { expired in
                #expect(expired == nil)
                return try await refreshedToken(through: refreshClient, server)
            }
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil, authenticator: auth)
            async let first = client.request(on: protectedRequest(server))
            async let second = client.request(on: protectedRequest(server))
            let answers = try await [first, second]
            #expect(answers.map(\.token) == ["token-1", "token-1"])
            // No request went out without credentials to be told 401: one refresh, two requests.
            #expect(server.hits("/auth/protected") == 2)
            #expect(await auth.refreshCount == 1)
        }
    }

    @Test(
        "when the refresh fails, every waiting request fails with authenticationFailed carrying the cause",
        arguments: TransportKind.allCases)
    func failureReachesEveryWaiter(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let gate = Gate()
            let refreshes = LockedBox(0)
            let auth = PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in
                refreshes.mutate { $0 += 1 }
                await gate.wait()
                throw Denied()
            }
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil, authenticator: auth)
            server.expireToken()
            let request = protectedRequest(server)
            let results = try await withThrowingTaskGroup(of: Result<Protected, any Error>.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        do { return .success(try await client.request(on: request)) } catch { return .failure(error) }
                    }
                }
                // The refresh is under way; the others queue behind it (or get their own 401),
                // then it fails.
                try await eventually { refreshes.wrappedValue == 1 }
                try await Task.sleep(for: .milliseconds(100))
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 10)
            for result in results {
                guard case .failure(let error as PrismHTTPError) = result else {
                    Issue.record("expected authenticationFailed, got \(result)")
                    continue
                }
                #expect(error.code == .authenticationFailed)
                #expect(error.underlying is Denied)
            }
            // Shared: a failed refresh is not retried by each waiter in turn.
            #expect(refreshes.wrappedValue < 10)
        }
    }

    @Test("a waiter whose task is cancelled returns CancellationError at once, while the refresh goes on")
    func cancelledWaiter() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let gate = Gate()
            let refreshClient = PrismNetworkAdapter(cache: nil)
            let auth = PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in
                await gate.wait()
                return try await refreshedToken(through: refreshClient, server)
            }
            let client = PrismNetworkAdapter(cache: nil, authenticator: auth)
            server.expireToken()
            let request = protectedRequest(server)
            let first = Task { try await client.request(on: request) }
            try await eventually { server.hits("/auth/protected") == 1 }
            let waiter = Task { try await client.request(on: request) }
            try await Task.sleep(for: .milliseconds(50))
            waiter.cancel()
            // The refresh is still held by the gate: the waiter cannot have waited for it.
            await #expect(throws: CancellationError.self) { try await waiter.value }
            #expect(server.refreshCount == 0)
            gate.open()
            // The refresh went on for the request that was not cancelled.
            #expect(try await first.value.token == "token-1")
        }
    }

    @Test("a server that answers 401 forever gets at most N refreshes per window, on the injected clock")
    func stormIsBounded() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let clock = TestClock()
            let refreshes = LockedBox(0)
            let auth = PrismBearerTokenAuthenticator(
                accessToken: "token-0", maximumRefreshes: 2, per: .seconds(60), clock: clock
            ) {
                _ in
                refreshes.mutate { $0 += 1 }
                return "token-\(refreshes.wrappedValue)"
            }
            let client = PrismNetworkAdapter(cache: nil, authenticator: auth)
            let request = PrismHTTPRequest(url: server.url("/hostile/unauthorized"))
            for _ in 0..<6 {
                // Each request: a 401, a refresh if the window allows, one retry.
                _ = try? await client.send(request)
            }
            #expect(refreshes.wrappedValue == 2)
            await expectHTTPError(.authenticationFailed) { try await client.send(request) }
            await clock.advance(by: .seconds(61))
            _ = try? await client.send(request)
            #expect(refreshes.wrappedValue == 3)
            #expect(auth.maximumRefreshes == 2)
        }
    }

    /// Runs `body` with a client on `transport` whose authenticator (holding `token-0`) refreshes
    /// with `refresh`, handed that same client; then lets the client go (it keeps the closure that
    /// keeps it).
    func withSelfRefreshingClient(
        _ transport: TransportKind, refresh: @escaping @Sendable (PrismNetworkAdapter) async throws -> String,
        _ body: (PrismNetworkAdapter) async throws -> Void
    ) async throws {
        let box = LockedBox<PrismNetworkAdapter?>(nil)
        let auth = PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in
            try await refresh(try #require(box.wrappedValue))
        }
        let client = PrismNetworkAdapter(transport: transport.make(), cache: nil, authenticator: auth)
        box.mutate { $0 = client }
        defer { box.mutate { $0 = nil } }
        try await body(client)
    }

    @Test(
        "a refresh closure that sends its request through the same client does not deadlock",
        arguments: TransportKind.allCases)
    func refreshThroughTheSameClient(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            try await withSelfRefreshingClient(transport, refresh: { try await refreshedToken(through: $0, server) }) {
                client in
                server.expireToken()
                let result = try await withDeadlockGuard {
                    try await client.request(on: protectedRequest(server))
                }
                #expect(result.token == "token-1")
                #expect(server.refreshCount == 1)
            }
        }
    }

    @Test(
        "a refresh whose own request is rejected fails, rather than waiting for itself",
        arguments: TransportKind.allCases)
    func refreshRequestRejected(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let attempts = LockedBox(0)
            let rejected = RawRequest(endpoint: ServerEndpoint(server, "/hostile/unauthorized"))
            try await withSelfRefreshingClient(
                transport,
                refresh: { client in
                    attempts.mutate { $0 += 1 }
                    _ = try await client.request(on: rejected)
                    return "never"
                }
            ) { client in
                server.expireToken()
                await expectHTTPError(.authenticationFailed) {
                    try await withDeadlockGuard { try await client.request(on: protectedRequest(server)) }
                }
                #expect(attempts.wrappedValue == 1)
            }
        }
    }

    /// Runs `body`, recording an issue instead of hanging the suite if it never returns. A request
    /// that deadlocks never returns; one on a busy machine returns late: the guard waits five
    /// minutes, many times what the slowest machine takes, so that only a deadlock reaches it.
    func withDeadlockGuard<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(300))
                return nil
            }
            defer { group.cancelAll() }
            guard let value = try await group.next() ?? nil else {
                Issue.record("deadlock: the request never finished")
                throw CancellationError()
            }
            return value
        }
    }
}
