import Foundation
import NIOHTTP1
import PrismStore
import Testing

@testable import PrismInspector

@MainActor
@Suite("Who the inspector serves")
struct InspectorAccessTests {
    @Test("the page and its assets are served under the token's path, with headers that keep it to itself")
    func servesPageWithToken() async throws {
        try await withTodoInspector { _, inspector in
            let page = try await httpRequest(port: inspector.port, path: inspector.pagePath)
            #expect(page.status == .ok)
            #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            #expect(page.body.contains("inspector.js"))
            let policy = try #require(page.headers.first(name: "Content-Security-Policy"))
            #expect(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"))
            #expect(page.headers.first(name: "Referrer-Policy") == "no-referrer")
            for asset in ["inspector.js", "inspector.css"] {
                let response = try await httpRequest(port: inspector.port, path: inspector.pagePath + asset)
                #expect(response.status == .ok, "\(asset)")
                #expect(!response.body.isEmpty)
            }
        }
    }

    @Test(
        "nothing is served without the token",
        arguments: ["/", "/index.html", "/inspector.js", "/socket", "/0000/", "/favicon.ico"]
    )
    func refusesWithoutToken(path: String) async throws {
        try await withTodoInspector { _, inspector in
            let response = try await httpRequest(port: inspector.port, path: path)
            #expect(response.status == .forbidden)
            #expect(!response.body.contains("<html"))
            #expect(!response.body.contains(inspector.pagePath.dropFirst().dropLast()))
        }
    }

    @Test("a path that only starts like the token, or a wrong token of the right length, is refused")
    func refusesAlmostTokens() async throws {
        try await withTodoInspector { _, inspector in
            let token = String(inspector.pagePath.dropFirst().dropLast())
            let wrong = String(token.dropLast()) + (token.hasSuffix("0") ? "1" : "0")
            for path in ["/\(token)x/", "/\(token.dropLast())/", "/\(wrong)/", "/\(wrong)/inspector.js"] {
                let response = try await httpRequest(port: inspector.port, path: path)
                #expect(response.status == .forbidden, "\(path)")
            }
        }
    }

    @Test(
        "a request that names another host than the bound address is refused, token or not (DNS rebinding; localhost may be ::1, which another program can hold)"
    )
    func refusesOtherHosts() async throws {
        try await withTodoInspector { _, inspector in
            let port = inspector.port
            for host in ["attacker.example:\(port)", "127.0.0.1:1", "127.0.0.1", "localhost:\(port)", "[::1]:\(port)"] {
                let response = try await httpRequest(
                    port: inspector.port, path: inspector.pagePath, headers: [("Host", host)])
                #expect(response.status == .forbidden, "\(host)")
            }
            let own = try await httpRequest(
                port: inspector.port, path: inspector.pagePath, headers: [("Host", "127.0.0.1:\(port)")])
            #expect(own.status == .ok)
        }
    }

    @Test("only GET is served")
    func onlyGet() async throws {
        try await withTodoInspector { _, inspector in
            for method in [HTTPMethod.POST, .PUT, .DELETE, .HEAD] {
                let response = try await httpRequest(method, port: inspector.port, path: inspector.pagePath)
                #expect(response.status == .methodNotAllowed, "\(method)")
            }
        }
    }

    @Test("the server listens on 127.0.0.1 only: another loopback address gets no answer")
    func loopbackOnly() async throws {
        try await withTodoInspector { _, inspector in
            #expect(inspector.url.host == "127.0.0.1")
            // Bound to every address, the server would answer on 127.0.0.2 too (all of 127/8 is
            // this machine on Linux); bound to 127.0.0.1 alone, the connection is refused.
            await #expect(throws: (any Error).self) {
                _ = try await httpRequest(address: "127.0.0.2", port: inspector.port, path: inspector.pagePath)
            }
        }
    }

    @Test("the WebSocket opens for the page's own origin, the bound address, and not for localhost")
    func webSocketFromOwnOrigin() async throws {
        try await withTodoInspector { _, inspector in
            let outcome = try await TestSocket.connect(
                port: inspector.port, path: inspector.pagePath + "socket", origin: "http://127.0.0.1:\(inspector.port)")
            guard case .connected(let socket) = outcome else {
                Issue.record("refused the page's own origin")
                return
            }
            _ = try await socket.next("hello")
            await socket.close()
            let fromLocalhost = try await TestSocket.connect(
                port: inspector.port, path: inspector.pagePath + "socket", origin: "http://localhost:\(inspector.port)")
            guard case .refused = fromLocalhost else {
                Issue.record("accepted a page served as localhost, which may be another program on ::1")
                return
            }
        }
    }

    @Test("the WebSocket refuses another origin, no origin, and a path without the token")
    func webSocketRefusals() async throws {
        try await withTodoInspector { _, inspector in
            let socketPath = inspector.pagePath + "socket"
            let attempts: [(path: String, origin: String?)] = [
                (socketPath, "http://attacker.example"),
                (socketPath, "http://127.0.0.1:\(inspector.port + 1)"),
                (socketPath, "https://127.0.0.1:\(inspector.port)"),
                (socketPath, "null"),
                (socketPath, nil),
                ("/socket", "http://127.0.0.1:\(inspector.port)"),
                ("/\(String(repeating: "0", count: 64))/socket", "http://127.0.0.1:\(inspector.port)"),
            ]
            for attempt in attempts {
                let outcome = try await TestSocket.connect(
                    port: inspector.port, path: attempt.path, origin: attempt.origin)
                if case .connected(let socket) = outcome {
                    Issue.record("accepted \(attempt.path) from \(attempt.origin ?? "no origin")")
                    await socket.close()
                }
            }
            #expect(inspector.connectedPages == 0)
        }
    }
}
