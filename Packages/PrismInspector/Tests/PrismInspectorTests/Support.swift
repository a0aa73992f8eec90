import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import PrismStore
import Testing

@testable import PrismInspector

// MARK: A feature to inspect

struct Account: Codable, Equatable, Sendable {
    var name = "ada"
    @PrismSecret var password = "hunter2"
}

struct TodoState: Codable, Equatable, Sendable {
    var count = 0
    var items: [String] = []
    var account = Account()
}

enum TodoAction: Codable, Equatable, Sendable {
    case increment
    case add(String)
    case login(name: String, password: PrismSecret<String>)
    case wait(seconds: Int)
    case finishWaiting
    case importAccounts([Account?])
    /// Adds `item` from an effect: `.add(item)` arrives after the send.
    case addLater(String)
}

struct TodoReducer: PrismReducer {
    func reduce(into state: inout TodoState, action: TodoAction) -> PrismEffect<TodoAction> {
        switch action {
        case .increment:
            state.count += 1
        case .add(let item):
            state.items.append(item)
        case .login(let name, let password):
            state.account.name = name
            state.account.password = password.wrappedValue
        case .wait(let seconds):
            return .run { _ in try await Task.sleep(for: .seconds(seconds)) }.cancellable(id: "wait")
        case .finishWaiting:
            return .cancel(id: "wait")
        case .importAccounts(let accounts):
            if let last = accounts.last, let account = last { state.account = account }
        case .addLater(let item):
            return .run { send in send(.add(item)) }
        }
        return .none
    }
}

/// A state and action that are not Codable: the page shows them but cannot send, export or load.
struct PlainState: Sendable, Equatable {
    var value = 0
}

enum PlainAction: Sendable {
    case bump
}

/// A store of a `PlainState` whose reducer, made from a closure, bumps its value: a generic
/// reducer type, not one a test can make without arguments.
@MainActor
func makePlainStore() -> PrismStore<PlainState, PlainAction> {
    PrismStore(
        initialState: PlainState(),
        reducer: PrismReduce<PlainState, PlainAction> { state, _ in
            state.value += 1
            return .none
        })
}

/// Starts an inspector that prints nothing and sends batches only when a test calls `flush()`;
/// `configure` changes the rest of its configuration.
@MainActor
func startInspector(
    _ store: PrismStore<TodoState, TodoAction>,
    historyLimit: Int = 100,
    configure: (inout PrismInspector<TodoState, TodoAction>.Configuration) -> Void = { _ in }
) async throws -> PrismInspector<TodoState, TodoAction> {
    var configuration = PrismInspector<TodoState, TodoAction>.Configuration(
        historyLimit: historyLimit, batchInterval: .seconds(3_600), printsURL: false)
    configure(&configuration)
    return try await PrismInspector.start(store, configuration: configuration)
}

/// Runs `body` with an inspector started by ``startInspector(_:historyLimit:configure:)``, and
/// stops it whatever happens.
@MainActor
func withInspector<Result>(
    _ store: PrismStore<TodoState, TodoAction>,
    historyLimit: Int = 100,
    _ body: (PrismInspector<TodoState, TodoAction>) async throws -> Result
) async throws -> Result {
    let inspector = try await startInspector(store, historyLimit: historyLimit)
    do {
        let result = try await body(inspector)
        await inspector.stop()
        return result
    } catch {
        await inspector.stop()
        throw error
    }
}

/// Runs `body` with a store of a new `TodoState` and an inspector on it, started by
/// ``startInspector(_:historyLimit:configure:)`` and stopped whatever happens.
@MainActor
func withTodoInspector<Result>(
    historyLimit: Int = 100,
    _ body: (PrismStore<TodoState, TodoAction>, PrismInspector<TodoState, TodoAction>) async throws -> Result
) async throws -> Result {
    let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
    return try await withInspector(store, historyLimit: historyLimit) { inspector in
        try await body(store, inspector)
    }
}

/// Runs `body` with a store of a new `TodoState`, an inspector on it that recorded `actions`
/// (see ``withTodoInspector(historyLimit:_:)``), and a page of that inspector that got its
/// first `actions` message; then closes the page.
@MainActor
func withTodoPage<Result>(
    sending actions: [TodoAction] = [],
    historyLimit: Int = 100,
    _ body: (PrismStore<TodoState, TodoAction>, PrismInspector<TodoState, TodoAction>, TestSocket) async throws
        -> Result
) async throws -> Result {
    try await withTodoInspector(historyLimit: historyLimit) { store, inspector in
        for action in actions { store.send(action) }
        let page = try await openPage(inspector)
        do {
            _ = try await page.next("actions")
            let result = try await body(store, inspector, page)
            await page.close()
            return result
        } catch {
            await page.close()
            throw error
        }
    }
}

extension PrismInspector {
    /// The inspector's port.
    var port: Int { url.port ?? 0 }
    /// The path of the page, with the token: `/<token>/`.
    var pagePath: String { "/" + url.absoluteString.split(separator: "/")[2] + "/" }
}

// MARK: HTTP

/// One HTTP response, as a test sees it.
struct TestResponse {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: String
}

/// Sends one request to `address:port` with the headers given (and `Host` unless given).
func httpRequest(
    _ method: HTTPMethod = .GET,
    address: String = "127.0.0.1",
    port: Int,
    path: String,
    headers: [(String, String)] = []
) async throws -> TestResponse {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: address, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                    wrappingChannelSynchronously: channel)
            }
        }
    var requestHeaders = HTTPHeaders(headers)
    if !requestHeaders.contains(name: "Host") { requestHeaders.add(name: "Host", value: "127.0.0.1:\(port)") }
    return try await channel.executeThenClose { inbound, outbound in
        try await outbound.write(
            .head(HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: requestHeaders)))
        try await outbound.write(.end(nil))
        var response = TestResponse(status: .imATeapot, headers: [:], body: "")
        for try await part in inbound {
            switch part {
            case .head(let head):
                response.status = head.status
                response.headers = head.headers
            case .body(let buffer):
                response.body += String(buffer: buffer)
            case .end:
                return response
            }
        }
        return response
    }
}

// MARK: WebSocket

/// A page's WebSocket, as a test drives it: sends JSON, reads the inspector's messages.
final class TestSocket: Sendable {
    private let channel: Channel
    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private let task: Task<Void, Never>
    private let received: LockedTexts

    enum Outcome {
        case connected(TestSocket)
        case refused
    }

    private init(
        channel: Channel,
        outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>,
        task: Task<Void, Never>,
        received: LockedTexts
    ) {
        self.channel = channel
        self.outbound = outbound
        self.task = task
        self.received = received
    }

    private static func make(
        _ channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>
    ) async throws -> TestSocket {
        let (writers, writerContinuation) = AsyncStream.makeStream(
            of: NIOAsyncChannelOutboundWriter<WebSocketFrame>.self)
        let received = LockedTexts()
        let task = Task {
            try? await channel.executeThenClose { inbound, outbound in
                writerContinuation.yield(outbound)
                writerContinuation.finish()
                for try await frame in inbound where frame.opcode == .text {
                    received.append(String(buffer: frame.unmaskedData))
                }
            }
            writerContinuation.finish()
        }
        var iterator = writers.makeAsyncIterator()
        let writer = try #require(await iterator.next(), "the WebSocket closed at once")
        return TestSocket(channel: channel.channel, outbound: writer, task: task, received: received)
    }

    /// Answers each ping with a pong on the connection's event loop, as a browser's network
    /// thread does by itself: not from a Swift task, which waits for a thread of the shared pool
    /// (two on two cores, busy with every other suite) and on a busy machine missed the server's
    /// five-second window. Pings still travel on to the socket's reader, which ignores them.
    final class PongHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = WebSocketFrame
        typealias InboundOut = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            if frame.opcode == .ping {
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            }
            context.fireChannelRead(data)
        }
    }

    /// Opens the WebSocket at `path` with `origin` (nil: no `Origin` header).
    static func connect(
        port: Int,
        path: String,
        origin: String?,
        host: String? = nil,
        answersPings: Bool = true
    ) async throws -> Outcome {
        enum Upgrade: Sendable {
            case socket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
            case refused
        }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: host ?? "127.0.0.1:\(port)")
        if let origin { headers.add(name: "Origin", value: origin) }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: 1 << 24) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            if answersPings {
                                try channel.pipeline.syncOperations.addHandler(PongHandler())
                            }
                            return Upgrade.socket(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                        }
                    }
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                        upgradeRequestHead: head,
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.close(promise: nil)
                            return channel.eventLoop.makeSucceededFuture(.refused)
                        }
                    )
                    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                    // The inspector writes its first messages right after the upgrade: they may
                    // arrive with the 101 response, and must not be dropped.
                    pipeline.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: pipeline)
                }
            }
        switch try await upgrade.get() {
        case .refused:
            return .refused
        case .socket(let channel):
            return .connected(try await make(channel))
        }
    }

    /// Sends `message` as JSON text.
    @MainActor
    func send(_ message: [String: Any]) async throws {
        let data = try JSONSerialization.data(withJSONObject: message)
        let frame = WebSocketFrame(
            fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(bytes: Array(data)))
        try await outbound.write(frame)
    }

    /// The next message whose `type` is `type` (skipping others), as a dictionary; fails the
    /// test after two minutes rather than hanging (a message comes in milliseconds; the margin is
    /// for two busy cores running every suite at once, when the main actor waits its turn: 15 s
    /// was missed under load).
    @MainActor
    func next(_ type: String, where accept: ([String: Any]) -> Bool = { _ in true }) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            while let text = received.next() {
                guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                    object["type"] as? String == type, accept(object)
                else { continue }
                return object
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("no \"\(type)\" message came; received:\n\(received.joined.prefix(2_000))")
        throw CancellationError()
    }

    /// Stops reading from the socket, as a page that hangs: what the server writes piles up.
    func stopReading() async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: false).get()
    }

    /// Whether the connection is still open.
    var isOpen: Bool { channel.isActive }

    /// Every text message received so far.
    var allText: String { received.joined }

    func close() async {
        outbound.finish()
        task.cancel()
    }
}

/// The messages a socket received, and how far a test has read them.
final class LockedTexts: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [String] = []
    private var read = 0

    func append(_ text: String) { lock.withLock { texts.append(text) } }

    func next() -> String? {
        lock.withLock {
            guard read < texts.count else { return nil }
            read += 1
            return texts[read - 1]
        }
    }

    var joined: String { lock.withLock { texts.joined(separator: "\n") } }
}

/// Opens a page's WebSocket on `inspector` the way its page does.
@MainActor
func openPage<State, Action>(_ inspector: PrismInspector<State, Action>) async throws -> TestSocket {
    let outcome = try await TestSocket.connect(
        port: inspector.port, path: inspector.pagePath + "socket", origin: "http://127.0.0.1:\(inspector.port)")
    guard case .connected(let socket) = outcome else {
        Issue.record("the inspector refused its own page's WebSocket")
        throw CancellationError()
    }
    return socket
}

/// Opens a page's WebSocket on `inspector` (see ``openPage(_:)``) and reads its messages up to
/// the first whose type is `type`.
@MainActor
func openPage<State, Action>(_ inspector: PrismInspector<State, Action>, past type: String) async throws -> TestSocket {
    let page = try await openPage(inspector)
    _ = try await page.next(type)
    return page
}

extension TestSocket {
    /// Loads `recording` from the page, as the file `fileName`; returns the `actions` message
    /// that replaces the page's list.
    @MainActor
    func load(
        _ recording: PrismSessionRecording<TodoState, TodoAction>,
        fileName: String
    ) async throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(recording))
        try await send(["type": "load", "fileName": fileName, "data": object])
        return try await next("actions") { $0["reset"] as? Bool == true }
    }

    /// Sends `count` increments to `store`, has `inspector` send its batch now, and returns
    /// the `actions` message this page gets next.
    @MainActor
    func batch(
        afterIncrements count: Int,
        to store: PrismStore<TodoState, TodoAction>,
        _ inspector: PrismInspector<TodoState, TodoAction>
    ) async throws -> [String: Any] {
        for _ in 0..<count { store.send(.increment) }
        inspector.flush()
        return try await next("actions")
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The entries of an `actions` message.
    var entries: [[String: Any]] { self["entries"] as? [[String: Any]] ?? [] }
}
