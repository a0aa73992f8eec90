#if WebSocketSubscriptions && !os(watchOS)
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOWebSocket
@_spi(PrismInternals) import PrismHTTP
import PrismSupport

/// The connection over SwiftNIO.
extension WebSocketSession {
    private var configuration: PrismWebSocketConfiguration { context.configuration }

    /// Prepares the upgrade request, opens the connection, then reads until it ends.
    func run() async {
        guard WebSocketURL.derived(from: context.url) != nil else {
            let failure = PrismWebSocketError(
                code: .invalidURL,
                message:
                    "A WebSocket URL must be an absolute ws, wss, http or https URL with a host. Nothing was sent.",
                url: context.url)
            return report(.openFailed(connection: number, .fatal(failure), credential: nil))
        }
        let upgrade: WebSocketUpgrade
        do {
            upgrade = try await WebSocketUpgrade.prepare(
                context.url, additionalHeaders: configuration.additionalHeaders, client: context.client)
        } catch is CancellationError {
            return report(.openFailed(connection: number, .aborted, credential: nil))
        } catch {
            let failure = PrismWebSocketError(
                code: .requestFailed,
                message: "The WebSocket's upgrade request could not be prepared: \(DecodingErrorText.describe(error))",
                url: context.url, underlying: error)
            return report(.openFailed(connection: number, .fatal(failure), credential: nil))
        }
        let credential = upgrade.credential
        if isAborted { return report(.openFailed(connection: number, .aborted, credential: credential)) }
        log(
            "WebSocket: connecting",
            metadata: ["headers": "\(PrismHTTPRedaction.redact(upgrade.sentHeaders).dictionary)"])

        let attempt = WebSocketConnection.Attempt()
        onAbort { attempt.abort() }
        let socket: WebSocketConnection.Socket
        let response: HTTPResponseHead
        let check: InboundCheck
        do {
            (socket, response, check) = try await WebSocketConnection.open(
                upgrade.url,
                headers: upgrade.headers,
                subprotocols: configuration.subprotocols,
                requireSubprotocol: configuration.requiresSubprotocol,
                tls: context.client.tlsConfiguration ?? .default,
                maximumMessageSize: configuration.maximumMessageSize,
                attempt: attempt)
        } catch {
            return report(.openFailed(connection: number, openFailure(error), credential: credential))
        }
        var headers = PrismHTTPHeaders()
        for field in response.headers { headers.add(name: field.name, value: field.value) }
        let handshake = PrismWebSocketHandshake(
            subprotocol: headers["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces),
            headers: headers, connection: number)
        let end = await exchange(socket, check: check, handshake: handshake, credential: credential)
        setWriter(nil)
        ended()
        context.current.withLock { current in
            if current === self { current = nil }
        }
        report(.ended(connection: number, end))
    }

    private func openFailure(_ error: any Error) -> WebSocketStateMachine.OpenFailure {
        switch error {
        case WebSocketConnection.OpenFailure.refused(let status, let fields):
            var headers = PrismHTTPHeaders()
            for field in fields { headers.add(name: field.name, value: field.value) }
            return .refused(status: status, headers: headers)
        case WebSocketConnection.OpenFailure.subprotocolNotChosen(let chosen):
            return .fatal(
                PrismWebSocketError(
                    code: .subprotocolRefused,
                    message: "The server chose the subprotocol \(chosen.map { "\"\($0)\"" } ?? "none"); "
                        + "asked for: \(configuration.subprotocols.map { "\"\($0)\"" }.joined(separator: ", ")).",
                    url: context.url))
        case WebSocketConnection.OpenFailure.aborted, is CancellationError:
            return .aborted
        case let error as PrismHTTPError where error.code == .pinMismatch || error.code == .invalidTLSConfiguration:
            return .fatal(
                PrismWebSocketError(code: .tlsFailed, message: error.message, url: context.url, underlying: error))
        case is NIOSSLError, is BoringSSLError:
            // An untrusted or expired certificate, a wrong host name: another attempt meets the same.
            return .fatal(
                PrismWebSocketError(
                    code: .tlsFailed, message: "The TLS handshake failed: \(error)", url: context.url,
                    underlying: error))
        default:
            if isAborted { return .aborted }
            return .transport(
                PrismWebSocketError(
                    code: .connectionLost,
                    message: "The WebSocket could not be opened: \(DecodingErrorText.describe(error))",
                    url: context.url, underlying: error))
        }
    }

    // MARK: The exchange

    /// Reports the connection open, then reads until it ends: messages go to the queue (waiting
    /// while it is full), pings are answered, pongs and the close frame reported.
    private func exchange(
        _ socket: WebSocketConnection.Socket, check: InboundCheck, handshake: PrismWebSocketHandshake,
        credential: String?
    ) async -> WebSocketStateMachine.End {
        let channel = socket.channel
        onAbort { channel.close(promise: nil) }
        do {
            return try await socket.executeThenClose { inbound, outbound in
                setWriter { outgoing in
                    switch outgoing {
                    case .message(.text(let text)):
                        try await outbound.write(.clientText(text))
                    case .message(.binary(let data)):
                        try await outbound.write(.clientBinary(data))
                    case .ping(let count):
                        var payload = ByteBuffer()
                        payload.writeInteger(count)
                        try await outbound.write(.clientControl(.ping, data: payload))
                    case .close(let code, let reason):
                        try await outbound.write(.clientClose(code: code.rawValue, reason: reason))
                    }
                }
                // A connection aborted meanwhile (its open timer fired, the app closed the
                // socket) is not announced: its channel is closed, and its end comes next.
                if !isAborted {
                    context.current.withLock { $0 = self }
                    context.queue.append(.connected(handshake))
                }
                report(.opened(connection: number, credential: credential))
                log("WebSocket: connected", metadata: ["subprotocol": "\(handshake.subprotocol ?? "-")"])
                for try await frame in inbound {
                    switch frame.opcode {
                    case .text:
                        let data = frame.unmaskedData
                        guard let text = String(bytes: data.readableBytesView, encoding: .utf8) else {
                            // RFC 6455, 8.1: text that is not UTF-8 fails the connection, with 1007.
                            try? await outbound.write(
                                .clientClose(code: PrismWebSocketCloseCode.invalidPayload.rawValue, reason: ""))
                            return .failed(
                                PrismWebSocketError(
                                    code: .protocolViolation,
                                    message:
                                        "The server sent a text message that is not UTF-8; the connection was closed with 1007.",
                                    url: context.url, closeCode: .invalidPayload))
                        }
                        await deliver(.text(text))
                    case .binary:
                        await deliver(.binary(Data(buffer: frame.unmaskedData)))
                    case .ping:
                        // Its pong carries the same bytes (RFC 6455, 5.5.3).
                        try await outbound.write(.clientControl(.pong, data: frame.unmaskedData))
                    case .pong:
                        var payload = frame.unmaskedData
                        pongReceived(payload.readableBytes == 8 ? payload.readInteger(as: UInt64.self) : nil)
                        report(.pong(connection: number))
                    case .connectionClose:
                        let code = frame.closeCode.map(PrismWebSocketCloseCode.init(rawValue:))
                        let reason = frame.closeReason
                        if !closeSent {
                            // The close handshake: answer with the same code, then the server ends
                            // the TCP connection (RFC 6455, 5.5.1).
                            let echo =
                                code.map { WebSocketFrame.clientClose(code: $0.rawValue, reason: "") }
                                ?? WebSocketFrame(
                                    fin: true, opcode: .connectionClose, maskKey: .random(), data: ByteBuffer())
                            try? await outbound.write(echo)
                        }
                        return .closedByPeer(code: code, reason: reason)
                    default:
                        break
                    }
                }
                if let error = check.error { return end(after: error) }
                return .dropped(
                    PrismWebSocketError(
                        code: .connectionLost, message: "The server ended the connection without a close frame.",
                        url: context.url))
            }
        } catch {
            return end(after: check.error ?? error)
        }
    }

    /// Hands `message` to the queue, telling the driver while it waits for the consumer.
    private func deliver(_ message: PrismWebSocketMessage) async {
        await context.queue.push(
            message,
            waiting: { report(.consumerWaiting(true)) },
            resumed: { report(.consumerWaiting(false)) })
    }

    private func end(after error: any Error) -> WebSocketStateMachine.End {
        switch error {
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge, NIOWebSocketError.invalidFrameLength:
            return .failed(
                PrismWebSocketError(
                    code: .messageTooLarge,
                    message: "The server sent a message larger than the limit of \(configuration.maximumMessageSize) "
                        + "bytes; the connection was closed with 1009.",
                    url: context.url, closeCode: .messageTooBig, underlying: error))
        case is InboundCheck.MaskedFrame:
            return .failed(
                PrismWebSocketError(
                    code: .protocolViolation,
                    message:
                        "The server sent a masked frame (servers must not mask); the connection was closed with 1002.",
                    url: context.url, closeCode: .protocolError, underlying: error))
        case is NIOWebSocketError, is NIOWebSocketFrameAggregator.Error:
            return .failed(
                PrismWebSocketError(
                    code: .protocolViolation, message: "The server broke the WebSocket protocol: \(error)",
                    url: context.url, closeCode: .protocolError, underlying: error))
        default:
            return .dropped(
                PrismWebSocketError(
                    code: .connectionLost,
                    message: "The WebSocket connection was lost: \(DecodingErrorText.describe(error))",
                    url: context.url, underlying: error))
        }
    }
}
#endif
