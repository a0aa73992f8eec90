import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// A channel handler in every connection's pipeline, between HTTP parsing and Hummingbird's request
/// handling (Hummingbird's `HTTP1Channel.Configuration.additionalChannelHandlers`).
///
/// It does what a route cannot:
/// - answers `Expect: 100-continue` with `100 Continue`, so that clients send their bodies at once;
/// - fixes the connection's socket receive buffer at ``receiveBufferSize``: Linux autotunes it up
///   to `tcp_rmem`'s maximum (32 MB on this machine), which would take in a whole upload before
///   the route reads a byte; with a small buffer a slow reader slows the client down at once, so
///   a client's upload progress follows what the server has read (loopback throughput does not
///   suffer: its round trip is a few microseconds);
/// - records every request head and counts its body bytes as they arrive (``ServerState``), before
///   routing, so dropped and unknown requests are recorded too;
/// - `/drop`: reads the whole request, then closes the TCP connection without writing a byte;
/// - `/drop-mid-body`: reads the whole request, writes a `200` head with `Content-Length: length`
///   and the first `sent` bytes of the body, flushes them, then closes the connection;
/// - closes the connection as soon as the client closes its side, so that routes waiting in the
///   middle of a response notice that the client left.
///
/// Requests to those two paths never reach Hummingbird. Any request pipelined on the same
/// connection is lost with it, as it would be with a real server that dies.
final class ConnectionTapHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    /// The path that closes the connection without answering.
    static let dropPath = "/drop"
    /// The path that closes the connection in the middle of the response body.
    static let dropMidBodyPath = "/drop-mid-body"
    /// `Content-Length` announced by `/drop-mid-body` unless `length` is given.
    static let defaultDeclaredLength = 1_048_576
    /// Body bytes sent by `/drop-mid-body` before closing unless `sent` is given.
    static let defaultSentLength = 16_384

    /// The socket receive buffer of every connection (the kernel doubles it for bookkeeping).
    static let receiveBufferSize = 256 << 10

    private enum Mode {
        case pass
        case drop
        case dropMidBody(declared: Int, sent: Int)
    }

    private let state: ServerState
    private var mode = Mode.pass
    private var recordID: Int?

    init(state: ServerState) {
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let option = ChannelOptions.socketOption(.so_rcvbuf)
        try? context.channel.syncOptions?.setOption(option, value: Self.receiveBufferSize)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = self.unwrapInboundIn(data)
        switch part {
        case .head(let head):
            let target = RequestTarget(head.path ?? "/")
            self.recordID = self.state.record(method: head.method.rawValue, target: target, headers: head.headerFields)
            switch target.path {
            case Self.dropPath:
                self.mode = .drop
                return
            case Self.dropMidBodyPath:
                let query = RequestTarget.queryDictionary(target.query)
                let declared = query["length"].flatMap { Int($0) }.map { max($0, 1) } ?? Self.defaultDeclaredLength
                let sent = query["sent"].flatMap { Int($0) }.map { min(max($0, 0), declared - 1) }
                self.mode = .dropMidBody(declared: declared, sent: sent ?? min(Self.defaultSentLength, declared - 1))
                return
            default:
                self.mode = .pass
                self.answerExpectContinue(head, context: context)
            }
        case .body(let buffer):
            if let recordID = self.recordID {
                self.state.addBodyBytes(buffer.readableBytes, toRecord: recordID)
            }
            if case .pass = self.mode {
                break
            }
            return
        case .end:
            switch self.mode {
            case .pass:
                break
            case .drop:
                context.close(promise: nil)
                return
            case .dropMidBody(let declared, let sent):
                self.writePartialResponse(context: context, declared: declared, sent: sent)
                return
            }
        }
        context.fireChannelRead(data)
    }

    /// A client that closes its side of the connection is gone: close ours too, so that a route
    /// waiting in the middle of a response (`/hostile/stall`, `/hostile/drip`, `/delay`) notices at
    /// once rather than at its next write. (The channel allows half-closure, so without this the
    /// server would learn of it only by writing.)
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Clients (curl, and so URLSession on Linux) ask before sending a large body and wait up to a
    /// second for the answer; Hummingbird does not give it by itself.
    private func answerExpectContinue(_ head: HTTPRequest, context: ChannelHandlerContext) {
        if head.headerFields[.expect]?.lowercased() == "100-continue" {
            context.writeAndFlush(self.wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
    }

    private func writePartialResponse(context: ChannelHandlerContext, declared: Int, sent: Int) {
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/octet-stream"
        head.headerFields[.contentLength] = String(declared)
        context.write(self.wrapOutboundOut(.head(head)), promise: nil)
        let body = PayloadCache.pattern(offset: 0, count: sent)
        let flushed = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(self.wrapOutboundOut(.body(body)), promise: flushed)
        let channel = context.channel
        flushed.futureResult.whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
