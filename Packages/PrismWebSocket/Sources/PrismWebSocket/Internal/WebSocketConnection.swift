#if WebSocketSubscriptions && !os(watchOS)
import Foundation
import PrismSupport
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
@_spi(PrismInternals) import PrismHTTP

#if os(iOS) || os(tvOS) || os(visionOS)
import NIOTransportServices
#endif

/// One client WebSocket over SwiftNIO: TCP, TLS for `wss`, the HTTP/1.1 upgrade, then whole
/// messages (fragments joined, at most `maximumMessageSize` bytes).
///
/// Every step before the socket is open can be abandoned: ``Attempt/abort()`` (a timer's, or the
/// calling task's cancellation) closes the channel, which ends the connect, the TLS handshake or
/// the wait for the upgrade's answer at once. A server that accepts the connection and never
/// answers the upgrade cannot hold it.
@_spi(PrismInternals) public enum WebSocketConnection {
    /// Opens a TCP connection the platform's way: on iOS (Mac Catalyst included), tvOS and
    /// visionOS through Network.framework (NIOTransportServices), which brings up the cellular
    /// radio and honours VPN On Demand as BSD sockets do not; elsewhere with SwiftNIO's POSIX
    /// sockets. (watchOS has no WebSocket for ordinary apps: Apple's TN3135.)
    private static func connectTCP<Output: Sendable>(
        host: String, port: Int, channelInitializer: @escaping @Sendable (any Channel) -> EventLoopFuture<Output>
    ) async throws -> Output {
        #if os(iOS) || os(tvOS) || os(visionOS)
        try await NIOTSConnectionBootstrap(group: NIOTSEventLoopGroup.singleton)
            .connect(host: host, port: port, channelInitializer: channelInitializer)
        #else
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port, channelInitializer: channelInitializer)
        #endif
    }

    /// A socket being opened, that a timer or a cancelled task can abandon.
    public final class Attempt: Sendable {
        private enum State {
            case starting
            case connected(any Channel)
            case aborted
        }

        private let state = PrismLocked(State.starting)

        /// An attempt not yet connected.
        public init() {}

        /// Closes the channel (or the one about to be made); the open then fails.
        public func abort() {
            let channel: (any Channel)? = state.withLock { state in
                defer { state = .aborted }
                if case .connected(let channel) = state { return channel }
                return nil
            }
            channel?.close(promise: nil)
        }

        /// Whether ``abort()`` was called.
        public var isAborted: Bool {
            state.withLock { if case .aborted = $0 { true } else { false } }
        }

        fileprivate func connected(_ channel: any Channel) {
            let aborted = state.withLock { state -> Bool in
                if case .aborted = state { return true }
                state = .connected(channel)
                return false
            }
            if aborted { channel.close(promise: nil) }
        }
    }

    /// An open socket: what it reads, how it writes, and the upgrade's answer.
    public typealias Socket = NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

    /// Why a socket could not be opened.
    public enum OpenFailure: Error {
        /// The server answered the upgrade with something else than `101 Switching Protocols`:
        /// its status (0 when it sent no response head) and header fields.
        case refused(status: Int, headers: HTTPHeaders)
        /// The server switched protocols to a subprotocol that was not asked for, or to none when
        /// one was required.
        case subprotocolNotChosen(String?)
        /// ``Attempt/abort()`` ended it.
        case aborted
    }

    private enum Upgrade: Sendable {
        case upgraded(Socket, HTTPResponseHead, InboundCheck)
        case refused(Int, HTTPHeaders)
    }

    /// Opens a socket to `url` (`ws` or `wss`) with `headers` on the upgrade request and
    /// `subprotocols` asked for (the server must choose one of them, or, unless
    /// `requireSubprotocol`, none), through `attempt`.
    public static func open(
        _ url: URL,
        headers: [(name: String, value: String)],
        subprotocols: [String],
        requireSubprotocol: Bool,
        tls: PrismTLSConfiguration,
        maximumMessageSize: Int,
        attempt: Attempt
    ) async throws -> (Socket, HTTPResponseHead, InboundCheck) {
        guard let host = url.host, !host.isEmpty else { throw OpenFailure.refused(status: 0, headers: [:]) }
        let secure = url.scheme?.lowercased() == "wss"
        let port = url.port ?? (secure ? 443 : 80)
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }

        var requestHeaders = HTTPHeaders()
        let defaultPort = secure ? 443 : 80
        requestHeaders.add(name: "Host", value: url.port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host)
        for (name, value) in headers { requestHeaders.add(name: name, value: value) }
        if !subprotocols.isEmpty {
            requestHeaders.replaceOrAdd(name: "Sec-WebSocket-Protocol", value: subprotocols.joined(separator: ", "))
        }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: requestHeaders)
        if !secure && !tls.pins(for: host).isEmpty { throw CertificatePinning.cleartext(host: host, url: url) }
        let sslContext: NIOSSLContext?
        do {
            sslContext = secure ? try NIOSSLContext(configuration: WebSocketTLS.configuration(tls)) : nil
        } catch let error as PrismHTTPError {
            throw error
        } catch {
            throw PrismHTTPError(
                code: .invalidTLSConfiguration,
                message: "NIOSSL refused the TLS settings (a client key that does not match its certificate?).",
                url: url, underlying: error)
        }
        let serverName = isIPAddress(host) ? nil : host

        let upgrade: EventLoopFuture<Upgrade>
        do {
            upgrade = try await withTaskCancellationHandler {
                try await connectTCP(host: host, port: port) { channel in
                    attempt.connected(channel)
                    return channel.eventLoop.makeCompletedFuture {
                        // Over TLS, nothing is written until the handshake is done and the
                        // server's key has passed the host's pins.
                        var ready = channel.eventLoop.makeSucceededVoidFuture()
                        if let sslContext {
                            let verified = channel.eventLoop.makePromise(of: Void.self)
                            let sync = channel.pipeline.syncOperations
                            try sync.addHandler(
                                try NIOSSLClientHandler(context: sslContext, serverHostname: serverName))
                            try sync.addHandler(HandshakeGate(host: host, tls: tls, url: url, verified: verified))
                            ready = verified.futureResult
                        }
                        return ready.flatMapThrowing {
                            try configure(channel, head: head, maximumMessageSize: maximumMessageSize)
                        }.flatMap { $0 }
                    }
                }
            } onCancel: {
                attempt.abort()
            }
        } catch {
            if attempt.isAborted { throw OpenFailure.aborted }
            throw error
        }
        let result: Upgrade
        do {
            result = try await withTaskCancellationHandler {
                try await upgrade.get()
            } onCancel: {
                attempt.abort()
            }
        } catch {
            if attempt.isAborted { throw OpenFailure.aborted }
            throw error
        }
        switch result {
        case .refused(let status, let headers):
            throw OpenFailure.refused(status: status, headers: headers)
        case .upgraded(let channel, let response, let check):
            let chosen = response.headers.first(name: "Sec-WebSocket-Protocol")?
                .trimmingCharacters(in: .whitespaces)
            let acceptable = chosen.map { subprotocols.contains($0) } ?? !requireSubprotocol
            guard acceptable else {
                try? await channel.channel.close()
                throw OpenFailure.subprotocolNotChosen(chosen)
            }
            return (channel, response, check)
        }
    }

    /// The pipeline of a client socket: TLS, HTTP/1.1, and the WebSocket upgrader, whose result is
    /// the upgraded channel (frames, fragments joined) or the status of a refusal.
    private static func configure(
        _ channel: any Channel,
        head: HTTPRequestHead,
        maximumMessageSize: Int
    ) throws -> EventLoopFuture<Upgrade> {
        let sync = channel.pipeline.syncOperations
        let encoder = HTTPRequestEncoder()
        // A header with CR, LF or NUL never reaches the wire, whoever prepared the request.
        let validator = NIOHTTPRequestHeadersValidator()
        let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
        let status = ResponseStatusRecorder()
        try sync.addHandler(encoder)
        try sync.addHandler(validator)
        try sync.addHandler(decoder)
        try sync.addHandler(status)
        let frameLimit = max(1, min(maximumMessageSize, Int(UInt32.max)))
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: frameLimit) { channel, response in
            channel.eventLoop.makeCompletedFuture {
                let check = InboundCheck()
                try channel.pipeline.syncOperations.addHandler(check)
                try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4_096,
                        maxAccumulatedFrameSize: frameLimit))
                return .upgraded(try Socket(wrappingChannelSynchronously: channel), response, check)
            }
        }
        let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
            upgradeRequestHead: head,
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.close(promise: nil)
                return channel.eventLoop.makeSucceededFuture(
                    .refused(Int(status.head?.status.code ?? 0), status.head?.headers ?? [:]))
            }
        )
        let handler = NIOTypedHTTPClientUpgradeHandler(
            httpHandlers: [encoder, validator, decoder, status], upgradeConfiguration: configuration)
        try sync.addHandler(handler)
        return handler.upgradeResultFuture
    }

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: 0)) != nil
    }
}

/// Refuses what a client must not accept, and keeps the error that ended the connection.
///
/// SwiftNIO's protocol error handler answers a frame too large or malformed with a close frame
/// (1009, 1002) and closes the channel: the reader then sees its frames end, not the error. The
/// error is kept here for it (``error``). A masked frame from the server is refused the same way
/// (RFC 6455, 5.1: a client closes the connection on one).
@_spi(PrismInternals) public final class InboundCheck: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    /// The frames read.
    public typealias InboundIn = WebSocketFrame
    /// The frames passed on.
    public typealias InboundOut = WebSocketFrame

    /// A masked frame came from the server.
    public struct MaskedFrame: Error {}

    private let failure = PrismLocked<(any Error)?>(nil)

    /// The first error the connection met, if any.
    public var error: (any Error)? { failure.withLock { $0 } }

    /// Passes `data` on, unless it is a masked frame: then closes the connection with 1002.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard frame.maskKey == nil else {
            record(MaskedFrame())
            var payload = context.channel.allocator.buffer(capacity: 2)
            payload.writeInteger(UInt16(1002))
            let close = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(NIOAny(close)).whenComplete { _ in loopBound.value.close(promise: nil) }
            return
        }
        context.fireChannelRead(data)
    }

    /// Keeps `error` (the first one) and passes it on.
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        record(error)
        context.fireErrorCaught(error)
    }

    private func record(_ error: any Error) {
        failure.withLock { if $0 == nil { $0 = error } }
    }
}

/// Notes the status of the upgrade's answer on its way to the upgrade handler, so that a refusal
/// can say which it was.
private final class ResponseStatusRecorder: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    // Written and read on the channel's event loop only.
    private(set) var head: HTTPResponseHead?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), self.head == nil { self.head = head }
        context.fireChannelRead(data)
    }
}

@_spi(PrismInternals) extension WebSocketFrame {
    /// A text frame from the client: final, masked as RFC 6455 requires of clients.
    public static func clientText(_ text: String) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
    }

    /// A binary frame from the client: final, masked.
    public static func clientBinary(_ bytes: some Collection<UInt8>) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: bytes))
    }

    /// A control frame (ping or pong) from the client carrying `data`, masked.
    public static func clientControl(_ opcode: WebSocketOpcode, data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
    }

    /// A close frame from the client with `code` and `reason` (at most 120 bytes of it, so that
    /// the frame stays within the 125 a control frame may carry).
    public static func clientClose(code: Int, reason: String) -> WebSocketFrame {
        var data = ByteBuffer()
        data.writeInteger(UInt16(clamping: code))
        data.writeString(String(reason.utf8.prefix(120)) ?? "")
        return WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
    }

    /// The close code a close frame carries, if any.
    public var closeCode: Int? {
        var data = self.unmaskedData
        return data.readInteger(as: UInt16.self).map(Int.init)
    }

    /// The reason a close frame carries after its code ("" when none, or not UTF-8).
    public var closeReason: String {
        var data = self.unmaskedData
        guard data.readInteger(as: UInt16.self) != nil else { return "" }
        return data.readString(length: data.readableBytes) ?? ""
    }
}
#endif
