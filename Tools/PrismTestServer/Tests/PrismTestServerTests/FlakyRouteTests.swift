import Foundation
import PrismTestServer
import Testing

@Suite("Flaky routes")
struct FlakyRouteTests {
    @Test("GET /flaky/:name fails the first n attempts with 503, then succeeds")
    func flakyDefault() async throws {
        try await withServer { server in
            for attempt in 1...2 {
                let reply = try await TestClient.send(.GET, server.url("/flaky/job?failures=2"))
                #expect(reply.status == 503)
                #expect(reply.header("Retry-After") == nil)
                #expect(try reply.object()["attempt"] as? Int == attempt)
            }
            let ok = try await TestClient.send(.GET, server.url("/flaky/job?failures=2"))
            #expect(ok.status == 200)
            #expect(try ok.object()["name"] as? String == "job")
            #expect(try ok.object()["attempt"] as? Int == 3)
            #expect(server.flakyAttempts("job") == 3)
            #expect(server.flakyAttempts("other") == 0)
        }
    }

    @Test("A flaky route answers the chosen status and Retry-After", arguments: [429, 500, 502, 408])
    func flakyStatus(code: Int) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/flaky/x?failures=1&status=\(code)&retryAfter=2"))
            #expect(reply.status == code)
            #expect(reply.header("Retry-After") == "2")
            let retried = try await TestClient.send(.GET, server.url("/flaky/x?failures=1&status=\(code)"))
            #expect(retried.status == 200)
        }
    }

    @Test("A flaky route counts POST attempts too")
    func flakyPost() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.POST, server.url("/flaky/p?failures=1"), text: "{}")
            #expect(reply.status == 503)
            #expect(server.flakyAttempts("p") == 1)
        }
    }

    @Test("GET /timeout-then-ok/:name holds the first n attempts so a client timeout fires, then answers at once")
    func timeoutThenOK() async throws {
        try await withServer { server in
            // The client gives up long before the server's delay ends, and late enough that the
            // request has reached the server even on a loaded machine (200 ms was seen to be too
            // short: the timeout fired before the server counted the attempt).
            await #expect(throws: (any Error).self) {
                _ = try await TestClient.send(
                    .GET,
                    server.url("/timeout-then-ok/slow?failures=1&delay=20000"),
                    timeout: .milliseconds(1_500)
                )
            }
            let ok = try await TestClient.send(.GET, server.url("/timeout-then-ok/slow?failures=1&delay=20000"))
            #expect(ok.status == 200)
            #expect(try ok.object()["attempt"] as? Int == 2)
            #expect(try ok.object()["delayed"] as? Int == 0)
            #expect(server.timeoutAttempts("slow") == 2)
        }
    }
}
