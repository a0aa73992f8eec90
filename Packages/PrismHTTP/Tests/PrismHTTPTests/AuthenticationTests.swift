import Foundation
@_spi(PrismInternals) import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

@Suite("Authentication against the test server")
struct AuthenticationTests {
    struct Protected: PrismEntity {
        var ok: Bool
        var token: String
    }

    struct Tokens: PrismEntity {
        var accessToken: String
        var refreshToken: String
    }

    struct RefreshBody: Encodable, Sendable {
        var refreshToken: String
    }

    func authenticator(for server: PrismTestServer, refreshes: LockedBox<Int>) -> PrismBearerTokenAuthenticator {
        let refreshClient = PrismNetworkAdapter(cache: nil)
        return PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in
            refreshes.mutate { $0 += 1 }
            let tokens = try await refreshClient.request(
                on: ServerRequest<Tokens>(
                    endpoint: ServerEndpoint(
                        server,
                        "/auth/refresh",
                        method: .post,
                        query: ["delay": "100"],
                        payload: RefreshBody(refreshToken: "refresh-0")
                    )
                )
            )
            return tokens.accessToken
        }
    }

    @Test("many concurrent 401s share one token refresh, then all succeed", arguments: TransportKind.allCases)
    func oneRefreshForManyFailures(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let refreshes = LockedBox(0)
            let auth = authenticator(for: server, refreshes: refreshes)
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil, authenticator: auth)
            let request = ServerRequest<Protected>(endpoint: ServerEndpoint(server, "/auth/protected"))
            #expect(try await client.request(on: request).token == "token-0")

            server.expireToken()
            let results = try await withThrowingTaskGroup(of: Protected.self) { group in
                for _ in 0..<20 { group.addTask { try await client.request(on: request) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 20)
            #expect(results.allSatisfy { $0.ok && $0.token == server.currentToken })
            #expect(refreshes.wrappedValue == 1)
            #expect(server.refreshCount == 1)
            #expect(await auth.refreshCount == 1)
        }
    }

    @Test("a refresh that fails fails the request with authenticationFailed")
    func failedRefresh() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            struct Denied: Error {}
            let auth = PrismBearerTokenAuthenticator(accessToken: "wrong") { _ in throw Denied() }
            let client = PrismNetworkAdapter(cache: nil, authenticator: auth)
            do {
                _ = try await client.request(
                    on: ServerRequest<Protected>(endpoint: ServerEndpoint(server, "/auth/protected")))
                Issue.record("expected the refresh to fail")
            } catch let error as PrismHTTPError {
                #expect(error.code == .authenticationFailed)
            }
        }
    }
}
