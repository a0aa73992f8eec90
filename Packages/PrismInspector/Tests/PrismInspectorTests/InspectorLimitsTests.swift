import Foundation
import NIOCore
import NIOPosix
import PrismPersistence
import PrismStore
import Testing

@testable import PrismInspector

/// A TCP connection that sends nothing (`channel.isActive` turns false when the server closes it).
struct SilentSocket {
    let channel: Channel

    static func open(port: Int) async throws -> SilentSocket {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        return SilentSocket(channel: channel)
    }
}

@MainActor
@Suite("The inspector's server bounds what local programs can make it hold")
struct InspectorLimitsTests {
    @Test("2,000 idle sockets: at most maxConnections are held, the app keeps saving, and idle ones are closed")
    func idleSockets() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let inspector = try await PrismInspector.start(
            store,
            configuration: .init(printsURL: false, maxConnections: 16, idleTimeout: .seconds(1))
        )
        var sockets: [SilentSocket] = []
        for _ in 0..<2_000 {
            // The server refuses beyond its cap by closing: a connect may still succeed first.
            if let socket = try? await SilentSocket.open(port: inspector.port) { sockets.append(socket) }
        }
        #expect(sockets.count > 16)
        #expect(inspector.server.openConnections <= 16)

        // The app's files still open: its saves work while the sockets are held.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prism-limits-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = PrismDiskPersistence(directory: folder)
        try disk.save(TodoState(count: 7), key: "todos")
        #expect(try disk.load(key: "todos") == TodoState(count: 7))

        // Silent ones are closed after the idle timeout, and a page can connect again.
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline && sockets.contains(where: { $0.channel.isActive }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(sockets.allSatisfy { !$0.channel.isActive }, "every silent socket was closed")
        for socket in sockets { try? await socket.channel.close() }
        #expect(inspector.server.openConnections == 0)
        let page = try await openPage(inspector, past: "actions")
        await page.close()
        await inspector.stop()
    }

    @Test("a request sent a byte at a time, each within the idle timeout, is closed when the timeout has passed in all")
    func dribbledRequestHead() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let inspector = try await PrismInspector.start(
            store, configuration: .init(printsURL: false, idleTimeout: .seconds(2)))
        let socket = try await SilentSocket.open(port: inspector.port)
        // A byte every 200 ms (a tenth of the timeout) for up to two minutes: closed after about
        // two seconds in all, long before the request could end.
        let request = Array(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 1_000))".utf8)
        var sent = 0
        let deadline = ContinuousClock.now + .seconds(120)
        while socket.channel.isActive, sent < request.count, ContinuousClock.now < deadline {
            try? await socket.channel.writeAndFlush(ByteBuffer(bytes: [request[sent]])).get()
            sent += 1
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(!socket.channel.isActive, "the server still held the connection after \(sent) bytes")
        #expect(sent < request.count)
        try? await socket.channel.close()
        while ContinuousClock.now < deadline && inspector.server.openConnections > 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(inspector.server.openConnections == 0)
        await inspector.stop()
    }

    @Test("an open page that answers pings stays however long it is silent; one that does not is closed")
    func silentPages() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let inspector = try await startInspector(store) { $0.idleTimeout = .seconds(5) }
        let answering = try await openPage(inspector, past: "actions")
        let outcome = try await TestSocket.connect(
            port: inspector.port, path: inspector.pagePath + "socket", origin: "http://127.0.0.1:\(inspector.port)",
            answersPings: false)
        guard case .connected(let mute) = outcome else {
            Issue.record("the second page was refused")
            return
        }
        // The mute page is pinged after 5 s of silence and closed 5 s later; the other answers
        // (5 s: with every suite running at once, a 2-second window has been missed by the
        // test's own socket, which answers the pings). Not waiting for its first batch: the
        // main actor can be busy for longer than that, and the page is closed before it gets one.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline && mute.isOpen {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(!mute.isOpen, "the page that does not answer pings was closed")
        while ContinuousClock.now < deadline && inspector.connectedPages > 1 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(answering.isOpen && inspector.connectedPages == 1, "the page that answers them is still there")
        store.send(.increment)
        inspector.flush()
        _ = try await answering.next("actions") { ($0["entries"] as? [Any])?.isEmpty == false }
        await answering.close()
        await mute.close()
        await inspector.stop()
    }

    @Test("a page that stops reading is closed when its queue is full, and the store goes on")
    func pageThatStopsReading() async throws {
        // A state whose tree is large: each "state" message is hundreds of kilobytes.
        var large = TodoState()
        large.items = (0..<20_000).map { "item number \($0) with some text to make it longer" }
        let store = PrismStore(initialState: large, reducer: TodoReducer())
        let inspector = try await PrismInspector.start(
            store, configuration: .init(batchInterval: .seconds(3_600), printsURL: false, maxQueuedMessages: 8)
        )
        let page = try await openPage(inspector, past: "actions")
        try await page.stopReading()
        // Each select is answered with the state; the socket's buffers fill, then the queue.
        for _ in 0..<200 where page.isOpen {
            try? await page.send(["type": "select", "index": 0])
            try await Task.sleep(for: .milliseconds(5))
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline && inspector.connectedPages > 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(inspector.connectedPages == 0, "the page that stopped reading was closed")
        store.send(.increment)
        #expect(store.state.count == 1)
        await page.close()
        await inspector.stop()
    }
}
