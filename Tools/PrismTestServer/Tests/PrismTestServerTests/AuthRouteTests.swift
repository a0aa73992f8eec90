import Foundation
import PrismTestServer
import Testing

@Suite("Token authentication routes")
struct AuthRouteTests {
    private func protected(_ server: PrismTestServer, token: String?) async throws -> Reply {
        try await TestClient.send(
            .GET,
            server.url("/auth/protected"),
            headers: token.map { [("Authorization", "Bearer \($0)")] } ?? []
        )
    }

    private func refresh(_ server: PrismTestServer, query: String = "") async throws -> Reply {
        try await TestClient.send(
            .POST,
            server.url("/auth/refresh\(query)"),
            headers: [("Content-Type", "application/json")],
            text: #"{"refreshToken":"refresh-0"}"#
        )
    }

    @Test("The protected route accepts the current token and refuses others with 401 and WWW-Authenticate")
    func protectedRoute() async throws {
        try await withServer { server in
            #expect(server.currentToken == "token-0")
            let ok = try await protected(server, token: "token-0")
            #expect(ok.status == 200)
            #expect(try ok.object()["ok"] as? Bool == true)
            #expect(try ok.object()["token"] as? String == "token-0")
            for token in [nil, "token-9"] {
                let refused = try await protected(server, token: token)
                #expect(refused.status == 401)
                #expect(refused.header("WWW-Authenticate") == "Bearer")
                #expect(try refused.object()["message"] as? String == "token expired")
            }
        }
    }

    @Test("An expired token is refused until a refresh makes the next token current")
    func expireAndRefresh() async throws {
        try await withServer { server in
            server.expireToken()
            #expect(try await protected(server, token: "token-0").status == 401)
            let refreshed = try await refresh(server)
            #expect(refreshed.status == 200)
            #expect(try refreshed.object()["accessToken"] as? String == "token-1")
            #expect(try refreshed.object()["refreshToken"] as? String == "refresh-1")
            #expect(server.currentToken == "token-1")
            #expect(server.refreshCount == 1)
            #expect(try await protected(server, token: "token-1").status == 200)
            #expect(try await protected(server, token: "token-0").status == 401)
        }
    }

    @Test("A refresh without a refresh token is a 400", arguments: ["", "{}", #"{"refreshToken":""}"#, "nope"])
    func refreshNeedsAToken(body: String) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.POST, server.url("/auth/refresh"), text: body)
            #expect(reply.status == 400)
            #expect(server.refreshCount == 0)
        }
    }

    @Test("A refresh with ?delay= takes effect only when it answers")
    func slowRefresh() async throws {
        try await withServer { server in
            async let refreshed = refresh(server, query: "?delay=1000")
            while server.hits("/auth/refresh") == 0 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(server.refreshCount == 0)
            #expect(server.currentToken == "token-0")
            #expect(try await refreshed.status == 200)
            #expect(server.refreshCount == 1)
            #expect(server.currentToken == "token-1")
        }
    }
}
