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
enum WebSocketConnection {
    /// Opens a TCP connection the platform's way: on iOS (Mac Catalyst included), tvOS and
    /// visionOS through Network.framework (NIOTransportServices), which brings up the cellular
    /// radio and honours VPN On Demand as BSD sockets do not; elsewhere with SwiftNIO's POSIX
    /// sockets. (watchOS has no subscription socket: see SubscriptionSocket+Unavailable.swift.)
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
    final class Attempt: Sendable {
        private enum State {
            case starting
            case connected(any Channel)
            case aborted
        }

        private let state = PrismLocked(State.starting)

        /// Closes the channel (or the one about to be made); the open then fails.
        func abort() {
            let channel: (any Channel)? = state.withLock { state in
                defer { state = .aborted }
                if case .connected(let channel) = state { return channel }
                return nil
            }
            channel?.close(promise: nil)
        }

        var isAborted: Bool {
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
    typealias Socket = NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

    /// Why a socket could not be opened.
    enum OpenFailure: Error {
        /// The server answered the upgrade with something else than `101 Switching Protocols`.
        case refused(status: Int)
        /// The server switched protocols without choosing the subprotocol asked for.
        case subprotocolNotChosen(String?)
        /// ``Attempt/abort()`` ended it.
        case aborted
    }

    private enum Upgrade: Sendable {
        case upgraded(Socket, HTTPResponseHead)
        case refused(Int)
    }

    /// Opens a socket to `url` (`ws` or `wss`) with `headers` on the upgrade request and
    /// `subprotocol` asked for, through `attempt`.
    static func open(
        _ url: URL,
        headers: [(name: String, value: String)],
        subprotocol: String,
        tls: PrismTLSConfiguration,
        maximumMessageSize: Int,
        attempt: Attempt
    ) async throws -> (Socket, HTTPResponseHead) {
        guard let host = url.host, !host.isEmpty else { throw OpenFailure.refused(status: 0) }
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
        requestHeaders.replaceOrAdd(name: "Sec-WebSocket-Protocol", value: subprotocol)
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: requestHeaders)
        if !secure && !tls.pins(for: host).isEmpty { throw CertificatePinning.cleartext(host: host, url: url) }
        let sslContext: NIOSSLContext?
        do {
            sslContext = secure ? try NIOSSLContext(configuration: SubscriptionTLS.configuration(tls)) : nil
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
        case .refused(let status):
            throw OpenFailure.refused(status: status)
        case .upgraded(let channel, let response):
            let chosen = response.headers.first(name: "Sec-WebSocket-Protocol")?
                .trimmingCharacters(in: .whitespaces)
            guard chosen == subprotocol else {
                try? await channel.channel.close()
                throw OpenFailure.subprotocolNotChosen(chosen)
            }
            return (channel, response)
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
                try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 4_096,
                        maxAccumulatedFrameSize: frameLimit))
                return .upgraded(try Socket(wrappingChannelSynchronously: channel), response)
            }
        }
        let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
            upgradeRequestHead: head,
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.close(promise: nil)
                return channel.eventLoop.makeSucceededFuture(.refused(status.status ?? 0))
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

/// Notes the status of the upgrade's answer on its way to the upgrade handler, so that a refusal
/// can say which it was.
private final class ResponseStatusRecorder: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias InboundOut = HTTPClientResponsePart

    // Written and read on the channel's event loop only.
    private(set) var status: Int?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), status == nil { status = Int(head.status.code) }
        context.fireChannelRead(data)
    }
}

extension WebSocketFrame {
    /// A text frame from the client: final, masked as RFC 6455 requires of clients.
    static func clientText(_ text: String) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
    }

    /// A close frame from the client with `code` and `reason`.
    static func clientClose(code: Int, reason: String) -> WebSocketFrame {
        var data = ByteBuffer()
        data.writeInteger(UInt16(clamping: code))
        data.writeString(String(reason.utf8.prefix(120)) ?? "")
        return WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
    }

    /// The close code a close frame carries, if any.
    var closeCode: Int? {
        var data = self.unmaskedData
        return data.readInteger(as: UInt16.self).map(Int.init)
    }
}
#endif
