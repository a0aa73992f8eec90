import Foundation
import PrismHTTP
import PrismTestSupport
import PrismWebSocket
import Testing

@Suite("PrismWebSocket against Python's websockets server", .timeLimit(.minutes(10)))
struct WebSocketServerTests {
    @Test("text and binary messages round-trip; the upgrade carries the pipeline's headers and the chosen subprotocol")
    func echo() async throws {
        try await Peers.withRunning { peers in
            let tokens = PrismBearerTokenAuthenticator(accessToken: "secret-token") { _ in "secret-token" }
            let socket = PrismWebSocket(
                url: peers.url("/echo"),
                client: client(interceptors: [PrismInterceptor.headers(["X-Trace": "abc"])], authenticator: tokens),
                configuration: PrismWebSocketConfiguration(
                    subprotocols: ["chat.v2", "chat.v1"], additionalHeaders: ["X-App": "prism"]
                ).patient)
            var iterator = socket.events.makeAsyncIterator()
            let handshake = try #require(try await iterator.next()?.handshake)
            #expect(handshake.subprotocol == "chat.v2")
            #expect(handshake.connection == 1)
            let hello = try #require(try await iterator.next()?.text)
            let request = try #require(try JSONSerialization.jsonObject(with: Data(hello.utf8)) as? [String: Any])
            let headers = try #require(request["headers"] as? [String: String])
            #expect(headers["authorization"] == "Bearer secret-token")
            #expect(headers["x-trace"] == "abc")
            #expect(headers["x-app"] == "prism")
            #expect(headers["sec-websocket-protocol"] == "chat.v2, chat.v1")

            // A ping of the app's comes back from the server as a pong.
            try await socket.ping()
            try await socket.send("héllo")
            #expect(try await iterator.next()?.text == "héllo")
            let bytes = Data((0..<300).map { UInt8($0 % 256) })
            try await socket.send(bytes)
            #expect(try await iterator.next()?.binary == bytes)
            // A message in many frames' worth of bytes, joined.
            let long = String(repeating: "x", count: 200_000)
            try await socket.send(.text(long))
            #expect(try await iterator.next()?.text == long)

            socket.close(reason: "done")
            let closed = try #require(try await iterator.next()?.closed)
            #expect(closed.code == .normalClosure)
            #expect(try await iterator.next() == nil)
            let afterClose = await #expect(throws: PrismWebSocketError.self) { try await socket.send("late") }
            #expect(afterClose?.code == .closed)
        }
    }

    @Test("the server's normal close ends the events with closed, its code and reason")
    func normalClose() async throws {
        try await Peers.withRunning { peers in
            let socket = PrismWebSocket(url: peers.url("/close/1000"), client: client(), configuration: .patient)
            let (events, error) = await allEvents(of: socket)
            #expect(error == nil)
            #expect(events.count == 3)
            #expect(events.first?.handshake != nil)
            #expect(events.dropFirst().first?.text == "bye")
            #expect(events.last?.closed?.code == .normalClosure)
            #expect(events.last?.closed?.reason == "reason-1000")
        }
    }

    @Test("an application's close code ends the socket with closedByServer, no reconnection")
    func applicationClose() async throws {
        try await Peers.withRunning { peers in
            let socket = PrismWebSocket(
                url: peers.url("/close/4001"), client: client(),
                configuration: PrismWebSocketConfiguration(reconnectPolicy: Immediately(maxAttempts: 5)).patient)
            let (events, error) = await allEvents(of: socket)
            #expect(error?.code == .closedByServer)
            #expect(error?.closeCode == PrismWebSocketCloseCode(rawValue: 4001))
            #expect(error?.closeReason == "reason-4001")
            #expect(events.compactMap(\.handshake).count == 1)
        }
    }

    @Test("a server restarting (1012) is reconnected to as the policy says, then the socket gives up")
    func reconnectsAfterRestart() async throws {
        try await Peers.withRunning { peers in
            let socket = PrismWebSocket(
                url: peers.url("/close/1012"), client: client(),
                configuration: PrismWebSocketConfiguration(reconnectPolicy: Immediately(maxAttempts: 3)).patient)
            let (events, error) = await allEvents(of: socket)
            #expect(error?.code == .connectionLost)
            #expect(error?.closeCode == .serviceRestart)
            #expect(events.compactMap(\.handshake).map(\.connection) == [1, 2, 3])
            #expect(events.compactMap(\.text) == ["bye", "bye", "bye"])
            #expect(events.compactMap(\.disconnection).count == 2)
        }
    }

    @Test("an upgrade refused with 403 fails at once with its status; a 503 is tried again by the policy")
    func upgradeRefused() async throws {
        try await Peers.withRunning { peers in
            let forbidden = PrismWebSocket(
                url: peers.url("/refuse/403"), client: client(),
                configuration: PrismWebSocketConfiguration(
                    reconnectPolicy: PrismExponentialBackoff(baseDelay: .zero, maxAttempts: 3, jitter: .zero)
                ).patient)
            let (refusedEvents, refused) = await allEvents(of: forbidden)
            #expect(refused?.code == .upgradeRefused)
            #expect(refused?.statusCode == 403)
            #expect(refusedEvents.isEmpty)

            let unavailable = PrismWebSocket(
                url: peers.url("/refuse/503"), client: client(),
                configuration: PrismWebSocketConfiguration(
                    reconnectPolicy: PrismExponentialBackoff(baseDelay: .zero, maxAttempts: 2, jitter: .zero)
                ).patient)
            let (events, error) = await allEvents(of: unavailable)
            #expect(error?.code == .upgradeRefused)
            #expect(error?.statusCode == 503)
            #expect(error?.headers?["Retry-After"] == "0")
            #expect(events.compactMap(\.disconnection).map(\.statusCode) == [503])
        }
    }

    @Test("a 401 refreshes the authenticator's credentials once, and the upgrade is sent again with them")
    func refreshesCredentials() async throws {
        try await Peers.withRunning { peers in
            let refreshes = LockedBox(0)
            let tokens = PrismBearerTokenAuthenticator(accessToken: "stale") { _ in
                refreshes.mutate { $0 += 1 }
                return "fresh"
            }
            let socket = PrismWebSocket(
                url: peers.url("/auth"), client: client(authenticator: tokens),
                configuration: PrismWebSocketConfiguration(reconnectPolicy: nil).patient)
            var iterator = socket.events.makeAsyncIterator()
            #expect(try await iterator.next()?.handshake != nil)
            let hello = try #require(try await iterator.next()?.text)
            #expect(hello.contains("Bearer fresh"))
            #expect(refreshes.wrappedValue == 1)
            socket.close()
        }
    }

    @Test("a message over the size limit ends the socket with messageTooLarge")
    func oversizedMessage() async throws {
        try await Peers.withRunning { peers in
            let socket = PrismWebSocket(
                url: peers.url("/big/2048"), client: client(),
                configuration: PrismWebSocketConfiguration(maximumMessageSize: 1 << 20).patient)
            let (events, error) = await allEvents(of: socket)
            #expect(error?.code == .messageTooLarge)
            #expect(events.compactMap(\.text).isEmpty)
        }
    }

    @Test("a consumer that stops reading holds the server back; every message then arrives, in order")
    func backPressure() async throws {
        try await Peers.withRunning { peers in
            let count = 1_000
            let socket = PrismWebSocket(
                url: peers.url("/flood/\(count)/64"), client: client(),
                configuration: PrismWebSocketConfiguration(maximumBufferedMessages: 4).patient)
            var iterator = socket.events.makeAsyncIterator()
            #expect(try await iterator.next()?.handshake != nil)
            #expect(try await iterator.next()?.binary?.prefix(4) == Data([0, 0, 0, 0]))

            // While nothing is read, the server's sends stop: once its count stops moving, it is
            // far below the total (without back-pressure the 64 MiB would all be sent).
            var sent = -1
            var unchanged = 0
            while unchanged < 5 {
                let now = try await sentByFlood(peers)
                unchanged = now == sent ? unchanged + 1 : 0
                sent = now
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(sent < count / 2)

            for index in 1..<count {
                let data = try #require(try await iterator.next()?.binary)
                #expect(data.count == 64 * 1024)
                let got = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                if got != index {
                    Issue.record("message \(index) arrived as \(got)")
                    break
                }
            }
            #expect(try await sentByFlood(peers) == count)
            socket.close()
        }
    }

    private func sentByFlood(_ peers: Peers) async throws -> Int {
        let socket = PrismWebSocket(url: peers.url("/sent"), client: client(), configuration: .patient)
        defer { socket.close() }
        for try await event in socket.events {
            if let text = event.text { return Int(text) ?? -1 }
        }
        return -1
    }

    @Test("a send while no connection is open throws notConnected; an invalid URL fails with invalidURL")
    func badUse() async throws {
        let socket = PrismWebSocket(url: URL(string: "ws://127.0.0.1:1/")!, client: client(), configuration: .patient)
        let error = await #expect(throws: PrismWebSocketError.self) { try await socket.send("early") }
        #expect(error?.code == .notConnected)

        let invalid = PrismWebSocket(url: URL(string: "ftp://example.com/")!, client: client(), configuration: .patient)
        let (_, failure) = await allEvents(of: invalid)
        #expect(failure?.code == .invalidURL)
    }

    @Test("a connection refused by the host is tried as the policy says, then connectionLost")
    func connectionRefused() async throws {
        let socket = PrismWebSocket(
            url: URL(string: "ws://127.0.0.1:1/")!, client: client(),
            configuration: PrismWebSocketConfiguration(reconnectPolicy: Immediately(maxAttempts: 2)).patient)
        let (events, error) = await allEvents(of: socket)
        #expect(error?.code == .connectionLost)
        #expect(events.compactMap(\.disconnection).count == 1)
    }
}

@Suite("PrismWebSocket against hostile peers", .timeLimit(.minutes(10)))
struct WebSocketHostilePeerTests {
    @Test("a frame announcing 2^62 bytes is refused without reading it: messageTooLarge")
    func hugeFrame() async throws {
        try await Peers.withRunning { peers in
            let socket = PrismWebSocket(url: peers.raw("/huge-frame"), client: client(), configuration: .patient)
            let (_, error) = await allEvents(of: socket)
            #expect(error?.code == .messageTooLarge)
        }
    }

    @Test("a masked frame from the server breaks the protocol")
    func maskedFrame() async throws {
        try await Peers.withRunning { peers in
            let socket = PrismWebSocket(url: peers.raw("/masked"), client: client(), configuration: .patient)
            let (events, error) = await allEvents(of: socket)
            #expect(error?.code == .protocolViolation)
            #expect(events.compactMap(\.text).isEmpty)
        }
    }

    @Test("a text message that is not UTF-8 breaks the protocol; it is not delivered repaired")
    func invalidText() async throws {
        try await Peers.withRunning { peers in
            let socket = PrismWebSocket(url: peers.raw("/bad-utf8"), client: client(), configuration: .patient)
            let (events, error) = await allEvents(of: socket)
            #expect(error?.code == .protocolViolation)
            #expect(error?.closeCode == .invalidPayload)
            #expect(events.compactMap(\.text).isEmpty)
        }
    }

    @Test("a connection ended without a close frame counts as lost")
    func noCloseFrame() async throws {
        try await Peers.withRunning { peers in
            let socket = PrismWebSocket(
                url: peers.raw("/no-close-frame"), client: client(),
                configuration: PrismWebSocketConfiguration(reconnectPolicy: nil).patient)
            var texts: [String] = []
            let error = await #expect(throws: PrismWebSocketError.self) {
                for try await event in socket.events {
                    if let text = event.text {
                        texts.append(text)
                        try await socket.send("ack")
                    }
                }
            }
            #expect(error?.code == .connectionLost)
            #expect(texts == ["hi"])
        }
    }

    @Test("a peer that answers no ping (half-open) counts as lost, and the socket connects again")
    func unansweredPing() async throws {
        try await Peers.withRunning { peers in
            let clock = TestClock()
            let socket = PrismWebSocket(
                url: peers.raw("/silent"), client: client(),
                configuration: PrismWebSocketConfiguration(
                    pingInterval: .seconds(10), openTimeout: .seconds(1_000),
                    reconnectPolicy: Immediately(maxAttempts: 2), stableConnectionInterval: .seconds(1_000),
                    clock: clock))
            let log = EventLog(reading: socket)
            try await eventually { log.events.contains { $0.handshake != nil } }
            // The first advance sends a ping, the second finds it unanswered: a short settle for
            // the first (one more advance than needed does no harm here).
            try await advance(clock, by: .seconds(10), settle: .milliseconds(200), limit: 10) {
                log.events.contains { $0.disconnection?.code == .unresponsive }
            }
            try await eventually { log.events.compactMap(\.handshake).count == 2 }
            try await advance(clock, by: .seconds(10), settle: .milliseconds(200), limit: 10) {
                log.failure != nil
            }
            #expect(log.failure?.code == .unresponsive)
            await log.end()
        }
    }

    @Test(
        "a server that stops answering, its connection still up (its process frozen: half-open), is found by the pings")
    func frozenServer() async throws {
        try await Peers.withRunning { peers in
            let clock = TestClock()
            let socket = PrismWebSocket(
                url: peers.url("/echo"), client: client(),
                configuration: PrismWebSocketConfiguration(
                    pingInterval: .seconds(10), openTimeout: .seconds(1_000), reconnectPolicy: nil,
                    stableConnectionInterval: .seconds(1_000), clock: clock))
            let log = EventLog(reading: socket)
            try await eventually { log.events.contains { $0.text != nil } }
            try await socket.ping()
            peers.freeze()
            defer { peers.thaw() }
            try await advance(clock, by: .seconds(10), settle: .milliseconds(200), limit: 10) {
                log.failure != nil
            }
            #expect(log.failure?.code == .unresponsive)
            await log.end()
        }
    }

    @Test("the close handshake is not held by a peer that never answers it: cut after closeTimeout")
    func unansweredClose() async throws {
        try await Peers.withRunning { peers in
            let clock = TestClock()
            let socket = PrismWebSocket(
                url: peers.raw("/silent"), client: client(),
                configuration: PrismWebSocketConfiguration(
                    pingInterval: nil, openTimeout: .seconds(1_000), closeTimeout: .seconds(5),
                    stableConnectionInterval: .seconds(1_000), clock: clock))
            let log = EventLog(reading: socket)
            try await eventually { log.events.contains { $0.handshake != nil } }
            socket.close(code: .goingAway)
            try await advance(clock, by: .seconds(5)) { log.ended }
            #expect(log.events.last?.closed != nil)
            #expect(log.failure == nil)
            await log.end()
        }
    }
}
