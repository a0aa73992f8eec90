import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP listener on 127.0.0.1 that answers the first request on each connection with a
/// kept-alive `200` (body `ok`), and closes the connection, unanswered, when a second request
/// arrives on it: a server whose keep-alive timeout runs out just as a client reuses the
/// connection (Node's 5 seconds, nginx's 75).
///
/// ```swift
/// try await PrismClosingListener.withRunning { listener in
///     let url = URL(string: "http://127.0.0.1:\(listener.port)/")!
///     // two requests in a row: the second is sent on the kept-alive connection and cut off
///     #expect(listener.requestsReceived == 3)  // and resent on a new one
/// }
/// ```
///
/// A request is counted when its head has arrived (its blank line), so a request's body must
/// not contain a blank line.
public final class PrismClosingListener: PrismLocalListener {
    /// The port it listens on (ephemeral).
    public let port: Int
    private let channel: any Channel
    private let counts: NIOLockedValueBox<Counts>

    struct Counts {
        var connections = 0
        var requests = 0
    }

    private init(channel: any Channel, counts: NIOLockedValueBox<Counts>) {
        self.channel = channel
        self.counts = counts
        self.port = channel.localAddress?.port ?? 0
    }

    /// Connections accepted so far.
    public var acceptedConnections: Int { counts.withLockedValue { $0.connections } }

    /// Request heads received so far, answered or not.
    public var requestsReceived: Int { counts.withLockedValue { $0.requests } }

    /// Starts a listener on 127.0.0.1 and an ephemeral port.
    public static func start() async throws -> PrismClosingListener {
        let counts = NIOLockedValueBox(Counts())
        let channel = try await bindLocalListener { AnswerOnce(counts: counts) }
        return PrismClosingListener(channel: channel, counts: counts)
    }

    /// Stops listening. Connections still open close when their client closes them.
    public func shutdown() async throws {
        try await channel.close()
    }

    /// Answers the first request head of its connection, closes on the second.
    private final class AnswerOnce: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let counts: NIOLockedValueBox<Counts>
        /// Where request heads end (event loop only).
        private var headEnds = RequestHeadEnds()
        private var heads = 0

        init(counts: NIOLockedValueBox<Counts>) { self.counts = counts }

        func channelActive(context: ChannelHandlerContext) {
            counts.withLockedValue { $0.connections += 1 }
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            for _ in 0..<headEnds.count(in: unwrapInboundIn(data)) {
                heads += 1
                counts.withLockedValue { $0.requests += 1 }
                if heads == 1 {
                    let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok"
                    context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
                } else {
                    context.close(promise: nil)
                    return
                }
            }
        }
    }
}
