import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Authentication against the test server")
struct AuthenticationTests {
    func authenticator(for server: PrismTestServer, refreshes: LockedBox<Int>) -> PrismBearerTokenAuthenticator {
        let refreshClient = PrismNetworkAdapter(cache: nil)
        return PrismBearerTokenAuthenticator(accessToken: "token-0") { _ in
            refreshes.mutate { $0 += 1 }
            return try await refreshedToken(through: refreshClient, server, query: ["delay": "100"])
        }
    }

    @Test("many concurrent 401s share one token refresh, then all succeed", arguments: TransportKind.allCases)
    func oneRefreshForManyFailures(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let refreshes = LockedBox(0)
            let auth = authenticator(for: server, refreshes: refreshes)
            let client = PrismNetworkAdapter(transport: transport.make(), cache: nil, authenticator: auth)
            let request = protectedRequest(server)
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
            await expectHTTPError(.authenticationFailed) {
                try await client.request(on: protectedRequest(server))
            }
        }
    }
}
