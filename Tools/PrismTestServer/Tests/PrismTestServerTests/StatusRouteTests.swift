import AsyncHTTPClient
import Foundation
import NIOHTTP1
import PrismTestServer
import Testing

@Suite("Status, delay and not-found routes")
struct StatusRouteTests {
    @Test(
        "GET /status/:code answers that status with a JSON body",
        arguments: [200, 201, 400, 401, 404, 418, 429, 500, 503, 599])
    func status(code: Int) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/status/\(code)"))
            #expect(reply.status == code)
            let body = try reply.object()
            #expect(body["status"] as? Int == code)
            #expect(body["message"] as? String == "status \(code)")
        }
    }

    @Test("Statuses without a body answer without one", arguments: [204, 304])
    func bodyless(code: Int) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/status/\(code)"))
            #expect(reply.status == code)
            #expect(reply.body.readableBytes == 0)
        }
    }

    @Test("/status also answers other methods", arguments: [HTTPMethod.POST, .PUT, .DELETE, .PATCH])
    func otherMethods(method: HTTPMethod) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(method, server.url("/status/503"))
            #expect(reply.status == 503)
        }
    }

    @Test("A status outside 200...599 is a 400", arguments: ["100", "199", "600", "abc"])
    func invalidStatus(code: String) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/status/\(code)"))
            #expect(reply.status == 400)
        }
    }

    @Test("retryAfter adds Retry-After in seconds or, with retryAfterDate=1, as an HTTP-date")
    func retryAfter() async throws {
        try await withServer { server in
            let seconds = try await TestClient.send(.GET, server.url("/status/429?retryAfter=7"))
            #expect(seconds.header("Retry-After") == "7")

            let before = Date()
            let dated = try await TestClient.send(.GET, server.url("/status/503?retryAfter=7&retryAfterDate=1"))
            let value = try #require(dated.header("Retry-After"))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = try #require(formatter.date(from: value))
            #expect(date.timeIntervalSince(before) > 6)
            #expect(date.timeIntervalSince(before) < 60)
        }
    }

    @Test("header.X-Name query items become response headers")
    func extraHeaders() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/status/200?header.X-One=1&header.X-Two=a%20b"))
            #expect(reply.header("X-One") == "1")
            #expect(reply.header("X-Two") == "a b")
        }
    }

    @Test("GET /delay/:ms answers after the delay")
    func delay() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/delay/50"))
            #expect(reply.status == 200)
            #expect(try reply.object()["delayed"] as? Int == 50)
        }
    }

    @Test("A client that gives up during a delay gets a timeout and the server keeps serving")
    func delayClientGoesAway() async throws {
        try await withServer { server in
            await #expect(throws: (any Error).self) {
                _ = try await TestClient.send(.GET, server.url("/delay/10000"), timeout: .milliseconds(100))
            }
            let after = try await TestClient.send(.GET, server.url("/delay/0"))
            #expect(after.status == 200)
        }
    }

    @Test("An unknown path, or a known path with another method, is a JSON 404")
    func notFound() async throws {
        try await withServer { server in
            let unknown = try await TestClient.send(.GET, server.url("/no/such/route"))
            #expect(unknown.status == 404)
            #expect(try unknown.object()["message"] as? String == "not found")
            #expect(try unknown.object()["path"] as? String == "/no/such/route")
            let wrongMethod = try await TestClient.send(.DELETE, server.url("/users/a"))
            #expect(wrongMethod.status == 404)
        }
    }
}
