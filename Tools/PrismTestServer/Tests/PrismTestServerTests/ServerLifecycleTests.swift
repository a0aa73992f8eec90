import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import PrismTestServer
import Testing

@Suite("Server lifecycle")
struct ServerLifecycleTests {
    @Test("A server starts on 127.0.0.1 with an ephemeral port and builds URLs from it")
    func startsOnAnEphemeralPort() async throws {
        try await withServer { server in
            #expect(server.port > 0)
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
            #expect(server.url("/users/a?x=1").absoluteString == "http://127.0.0.1:\(server.port)/users/a?x=1")
            #expect(server.url("users/a").absoluteString == "http://127.0.0.1:\(server.port)/users/a")
            let reply = try await TestClient.send(.GET, server.url("/users/a"))
            #expect(reply.status == 200)
        }
    }

    @Test("Shutdown is idempotent, also when called concurrently, and closes the port")
    func shutdownIsIdempotent() async throws {
        let server = try await PrismTestServer.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask { try await server.shutdown() }
            }
            try await group.waitForAll()
        }
        try await server.shutdown()
        // Closed: a request to the port fails to connect or, when another test's server took the
        // freed port at once (tests run in parallel), reaches that server: never this one.
        let probe = "/users/probe-\(UUID().uuidString)"
        _ = try? await TestClient.send(.GET, server.url(probe), timeout: .seconds(10))
        #expect(server.hits(probe) == 0)
    }

    @Test("Shutdown ends a request that is waiting instead of waiting for it")
    func shutdownEndsWaits() async throws {
        let server = try await PrismTestServer.start()
        let url = server.url("/delay/600000")
        let request = Task { try await TestClient.send(.GET, url, timeout: .seconds(120)) }
        while server.hits("/delay/600000") == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try await server.shutdown()
        // Either the 503 that the interrupted wait answers, or a closed connection: not a ten-minute wait.
        if let reply = try? await request.value {
            #expect(reply.status == 503)
        }
    }

    @Test("Many servers run in parallel, each with its own port and state")
    func parallelServers() async throws {
        let count = 8
        let servers = try await withThrowingTaskGroup(of: PrismTestServer.self) { group in
            for _ in 0..<count { group.addTask { try await PrismTestServer.start() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(servers.map(\.port)).count == count)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, server) in servers.enumerated() {
                group.addTask {
                    for _ in 0...index {
                        let reply = try await TestClient.send(.GET, server.url("/cache/shared"))
                        #expect(reply.status == 200)
                    }
                }
            }
            try await group.waitForAll()
        }
        for (index, server) in servers.enumerated() {
            #expect(server.hits("/cache/shared") == index + 1)
        }
        for server in servers { try await server.shutdown() }
    }

    #if os(Linux)
    @Test("Servers run on NIO's shared event loops: starting and stopping them starts no event loop thread")
    func noThreadLeak() async throws {
        /// The process's SwiftNIO event loop threads (named `NIO-…`), by thread id. NIO starts
        /// every thread of a group when the group is made, so a server with a group of its own
        /// would add some.
        func eventLoopThreads() throws -> [String: String] {
            var threads: [String: String] = [:]
            for id in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") {
                guard let name = try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8),
                    name.hasPrefix("NIO-")
                else { continue }
                threads[id] = name.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return threads
        }
        // Make NIO's shared event loops, and the client's.
        try await withServer { server in _ = try await TestClient.send(.GET, server.url("/users/a")) }
        let before = try eventLoopThreads()
        #expect(!before.isEmpty)
        var servers: [PrismTestServer] = []
        for _ in 0..<5 {
            let server = try await PrismTestServer.start()
            servers.append(server)
            #expect(try await TestClient.send(.GET, server.url("/users/a")).status == 200)
        }
        // Counted while all five serve, then after they stopped: the same threads.
        #expect(try eventLoopThreads() == before)
        for server in servers { try await server.shutdown() }
        #expect(try eventLoopThreads() == before)
    }
    #endif

    @Test("A server whose last reference goes away is shut down without shutdown()")
    func deinitClosesTheServer() async throws {
        var server: PrismTestServer? = try await PrismTestServer.start()
        let port = server!.port
        let first = try await TestClient.send(.GET, server!.url("/users/a"))
        #expect(first.status == 200)
        #expect(!RawConnection.canBind(port: port))
        server = nil
        // Watch for the listening socket to go away by binding its port (connecting would race
        // with the shutdown).
        var freed = false
        for _ in 0..<500 where !freed {
            freed = RawConnection.canBind(port: port)
            if !freed { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(freed)
    }

    @Test("Starting on a port that is in use throws")
    func portInUse() async throws {
        try await withServer { server in
            await #expect(throws: (any Error).self) {
                let second = try await PrismTestServer.start(port: server.port)
                try await second.shutdown()
            }
        }
    }

    @Test("Requests are recorded in order with method, path, query, headers and body size")
    func recordsRequests() async throws {
        try await withServer { server in
            _ = try await TestClient.send(.POST, server.url("/echo/x"), headers: [("X-Test", "1")], text: "hello")
            _ = try await TestClient.send(.GET, server.url("/users/a?page=2&q=a%20b"))
            _ = try await TestClient.send(.GET, server.url("/nowhere"))
            let requests = server.requests
            try #require(requests.count == 3)
            #expect(requests[0].method == "POST")
            #expect(requests[0].path == "/echo/x")
            #expect(requests[0].query == nil)
            #expect(requests[0].headers["x-test"] == "1")
            #expect(requests[0].bodyByteCount == 5)
            #expect(requests[1].path == "/users/a")
            #expect(requests[1].query == "page=2&q=a%20b")
            #expect(requests[1].queryItems == ["page": "2", "q": "a b"])
            #expect(requests[2].path == "/nowhere")
            #expect(server.hits("/users/a") == 1)
            #expect(server.hits("/users/a?ignored=1") == 1)
            #expect(server.hits("/users/b") == 0)
        }
    }

    @Test("Reset clears counters, recorded requests and route state")
    func resetClearsState() async throws {
        try await withServer { server in
            _ = try await TestClient.send(.POST, server.url("/etag/r/bump"))
            _ = try await TestClient.send(.GET, server.url("/flaky/r?failures=1"))
            server.expireToken()
            server.reset()
            #expect(server.requests.isEmpty)
            #expect(server.hits("/etag/r/bump") == 0)
            #expect(server.flakyAttempts("r") == 0)
            #expect(server.currentToken == "token-0")
            let etag = try await TestClient.send(.GET, server.url("/etag/r"))
            #expect(etag.header("ETag") == "\"r-v1\"")
            let auth = try await TestClient.send(
                .GET,
                server.url("/auth/protected"),
                headers: [("Authorization", "Bearer token-0")]
            )
            #expect(auth.status == 200)
        }
    }

    @Test("A server also listens on IPv6 loopback")
    func ipv6() async throws {
        let server: PrismTestServer
        do {
            server = try await PrismTestServer.start(host: "::1")
        } catch {
            return  // no IPv6 on this machine
        }
        #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
        let reply = try await TestClient.send(.GET, server.url("/users/a"))
        #expect(reply.status == 200)
        try await server.shutdown()
    }
}
