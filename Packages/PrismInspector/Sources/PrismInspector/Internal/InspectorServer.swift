import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import PrismSupport

/// The inspector's HTTP and WebSocket server: SwiftNIO, bound to 127.0.0.1 only.
///
/// Every request goes through ``InspectorRoutes``: a page or an asset only under the secret
/// token's path, the WebSocket only under it too and only from the page's own origin. A page
/// whose WebSocket is accepted becomes a ``PageConnection`` handed to the inspector of the store
/// it asks for (``StoreDirectory``): several inspectors may share one server, one URL.
final class InspectorServer: Sendable {
    /// What one accepted connection turned out to be.
    enum Connection: Sendable {
        case webSocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, PageConnection)
        case http(NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>)
    }

    /// What bounds the server's use of the app's resources (see ``PrismInspector/Configuration``).
    struct Limits: Sendable {
        var maxMessageBytes: Int
        var maxConnections: Int
        var idleTimeout: Duration
        var maxQueuedMessages: Int

        var idleTime: TimeAmount { .nanoseconds(DurationMath.nanoseconds(idleTimeout)) }
    }

    /// A connection accepted beyond ``Limits/maxConnections``: closed at once.
    struct ConnectionLimitReached: Error {}

    /// The port the server listens on (on 127.0.0.1).
    let port: Int
    let routes: InspectorRoutes
    /// The stores this server shows, each with its inspector.
    let directory: StoreDirectory
    private let serverChannel: Channel
    private let task: Task<Void, Never>
    private let open: PrismLocked<Int>

    private init(
        port: Int,
        routes: InspectorRoutes,
        directory: StoreDirectory,
        serverChannel: Channel,
        task: Task<Void, Never>,
        open: PrismLocked<Int>
    ) {
        self.port = port
        self.routes = routes
        self.directory = directory
        self.serverChannel = serverChannel
        self.task = task
        self.open = open
    }

    /// How many connections are open now.
    var openConnections: Int { open.withLock { $0 } }

    /// Binds 127.0.0.1 at `port` (0: a free port the system picks) and starts serving.
    static func start(
        port: Int,
        routes: InspectorRoutes,
        limits: Limits
    ) async throws -> InspectorServer {
        #if os(watchOS)
        throw PrismInspectorError(
            code: .cannotListen,
            message:
                "PrismInspector does not run on watchOS: an app may not open a socket there (Apple's TN3135), and a watch has no browser for the page. Inspect the store where it runs on another platform, or in a test."
        )
        #else
        let open = PrismLocked(0)
        let directory = StoreDirectory()
        let channel: NIOAsyncChannel<EventLoopFuture<Connection>, Never> = try await ServerBootstrap(
            group: MultiThreadedEventLoopGroup.singleton
        )
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .bind(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let admitted = open.withLock { count in
                    guard count < limits.maxConnections else { return false }
                    count += 1
                    return true
                }
                guard admitted else {
                    channel.close(promise: nil)
                    throw ConnectionLimitReached()
                }
                channel.closeFuture.whenComplete { _ in open.withLock { $0 -= 1 } }
                // Silent before its request head, or slow to send all of it: closed (see
                // `RequestHeadDeadline`).
                try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: limits.idleTime))
                try channel.pipeline.syncOperations.addHandler(RequestHeadDeadline(timeout: limits.idleTime))
                return try configure(channel, routes: routes, limits: limits)
            }
        }
        guard let boundPort = channel.channel.localAddress?.port else {
            try? await channel.channel.close()
            throw PrismInspectorError(code: .cannotListen, message: "The inspector's socket has no port.")
        }
        let task = Task {
            await withDiscardingTaskGroup { group in
                do {
                    try await channel.executeThenClose { inbound in
                        for try await connection in inbound {
                            group.addTask { await serve(connection, routes: routes, directory: directory) }
                        }
                    }
                } catch {
                    // The server channel closed (stop) or failed: no more connections.
                }
                group.cancelAll()
            }
        }
        return InspectorServer(
            port: boundPort, routes: routes, directory: directory, serverChannel: channel.channel, task: task,
            open: open)
        #endif
    }

    /// Stops listening, without waiting (for an inspector that goes away without `stop()`).
    func closeNow() {
        serverChannel.close(promise: nil)
        task.cancel()
    }

    /// Stops listening, closes every connection, and returns when they are closed.
    func stop() async {
        try? await serverChannel.close()
        task.cancel()
        await task.value
    }

    // MARK: Connections

    /// Sets up one accepted connection: HTTP, upgraded to a WebSocket when the routes allow it.
    private static func configure(
        _ channel: Channel,
        routes: InspectorRoutes,
        limits: Limits
    ) throws -> EventLoopFuture<Connection> {
        let maxMessageBytes = limits.maxMessageBytes
        let gate = UpgradeGate(routes: routes)
        let upgrader = NIOTypedWebSocketServerUpgrader<Connection>(
            maxFrameSize: maxMessageBytes,
            shouldUpgrade: { channel, _ in
                // `UpgradeGate` let only allowed upgrade requests through.
                channel.eventLoop.makeSucceededFuture(HTTPHeaders())
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    channel.pipeline.syncOperations.removeHandler(gate, promise: nil)
                    // A page may be silent for long: it is pinged instead of closed.
                    let closer = try channel.pipeline.syncOperations.handler(type: RequestHeadDeadline.self)
                    channel.pipeline.syncOperations.removeHandler(closer, promise: nil)
                    try channel.pipeline.syncOperations.addHandler(
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 1,
                            maxAccumulatedFrameCount: 4_096,
                            maxAccumulatedFrameSize: maxMessageBytes
                        )
                    )
                    try channel.pipeline.syncOperations.addHandler(WebSocketKeepAlive())
                    let socket = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                        wrappingChannelSynchronously: channel)
                    let page = PageConnection(
                        maxQueued: limits.maxQueuedMessages, storeID: InspectorRoutes.storeID(in: head.uri))
                    return Connection.webSocket(socket, page)
                }
            }
        )
        let upgrade = NIOTypedHTTPServerUpgradeConfiguration<Connection>(
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ResponsePartHandler())
                    return Connection.http(
                        try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                }
            }
        )
        let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
            configuration: .init(upgradeConfiguration: upgrade))
        let upgradeHandler = try channel.pipeline.syncOperations.handler(
            type: NIOTypedHTTPServerUpgradeHandler<Connection>.self)
        try channel.pipeline.syncOperations.addHandler(gate, position: .before(upgradeHandler))
        return negotiated
    }

    private static func serve(
        _ connection: EventLoopFuture<Connection>,
        routes: InspectorRoutes,
        directory: StoreDirectory
    ) async {
        do {
            switch try await connection.get() {
            case .http(let channel):
                try await serveHTTP(channel, routes: routes)
            case .webSocket(let channel, let page):
                directory.deliver(page)
                await page.run(on: channel)
            }
        } catch {
            // A connection that failed (bad request, reset) concerns nobody else.
        }
    }

    /// Answers one request and closes the connection.
    private static func serveHTTP(
        _ channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>,
        routes: InspectorRoutes
    ) async throws {
        let port = channel.channel.localAddress?.port ?? -1
        try await channel.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case .head(let head) = part else { continue }
                let response = routes.response(method: head.method, uri: head.uri, headers: head.headers, port: port)
                var headers = response.headers
                headers.replaceOrAdd(name: "Content-Length", value: String(response.body.readableBytes))
                headers.replaceOrAdd(name: "Connection", value: "close")
                try await outbound.write(
                    contentsOf: [
                        .head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers)),
                        .body(response.body),
                        .end(nil),
                    ]
                )
                return
            }
        }
    }
}

/// Lets through only the WebSocket upgrade requests ``InspectorRoutes`` allows: from any other
/// request it removes the `Upgrade` header, so that it is answered as a plain request (403).
///
/// Refusing in the upgrader's `shouldUpgrade` instead leaves the connection without an answer.
private final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    let routes: InspectorRoutes

    init(routes: InspectorRoutes) {
        self.routes = routes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.headers.contains(name: "Upgrade") else {
            context.fireChannelRead(data)
            return
        }
        let port = context.channel.localAddress?.port ?? -1
        if !routes.allowsWebSocket(uri: head.uri, headers: head.headers, port: port) {
            head.headers.remove(name: "Upgrade")
            head.headers.remove(name: "Connection")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}

/// Closes a connection that has not been answered within the idle timeout of opening: one
/// silent that long, and one that sends its request a byte at a time (each byte would restart an
/// idle timer, and a local program sending one every 29 s held every connection slot). An idle
/// socket holds a file descriptor of the app. The deadline ends when the server writes its
/// answer; the handler is removed when the connection becomes a page's WebSocket.
private final class RequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // The request was read whole: it is being answered.
        deadline?.cancel()
        deadline = nil
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Keeps an open page honest: after the idle timeout without a frame, it pings; after as long
/// again without one (a browser answers a ping with a pong by itself), it closes.
private final class WebSocketKeepAlive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var awaitingAnswer = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        awaitingAnswer = false
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if awaitingAnswer {
            context.close(promise: nil)
            return
        }
        awaitingAnswer = true
        let ping = WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))
        context.writeAndFlush(NIOAny(ping), promise: nil)
    }
}

/// Turns the `ByteBuffer` bodies the server writes into the `IOData` the HTTP encoder takes.
private final class ResponsePartHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPPart<HTTPResponseHead, ByteBuffer>
    typealias OutboundOut = HTTPServerResponsePart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part: HTTPServerResponsePart
        switch unwrapOutboundIn(data) {
        case .head(let head): part = .head(head)
        case .body(let buffer): part = .body(.byteBuffer(buffer))
        case .end(let trailers): part = .end(trailers)
        }
        context.write(wrapOutboundOut(part), promise: promise)
    }
}
