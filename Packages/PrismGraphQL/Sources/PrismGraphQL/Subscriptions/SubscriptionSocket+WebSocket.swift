#if WebSocketSubscriptions && !os(watchOS)
import Foundation
import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
@_spi(PrismInternals) import PrismHTTP
import PrismSupport
@_spi(PrismInternals) import PrismWebSocket

/// The socket over PrismWebSocket's SwiftNIO connection (the WebSocketSubscriptions trait, on by
/// default).
extension SubscriptionSocket {
    private var configuration: PrismGraphQLSubscriptionConfiguration { settings.configuration }

    /// Prepares the upgrade request, opens the socket, sends `connection_init`, then reports
    /// every message until the socket ends.
    func run() async {
        guard let url = settings.webSocketURL else {
            return report(
                .socketOpenFailed(
                    socket: number,
                    .preparation(
                        PrismGraphQLError(
                            code: .invalidEndpoint,
                            message: "The subscription URL must be an absolute ws, wss, http or https URL with a host.",
                            url: configuration.url ?? settings.endpointURL))))
        }
        let prepared: Prepared
        do {
            prepared = try await prepare(url)
        } catch {
            return report(.socketOpenFailed(socket: number, preparationFailure(error)))
        }
        if isAbandoned { return report(.socketOpenFailed(socket: number, .abandoned)) }
        settings.logger?.debug(
            "GraphQL subscriptions: connecting to \(settings.redactedURL)",
            metadata: [
                "headers": "\(PrismHTTPRedaction.redact(prepared.requestHeaders).dictionary)",
                // The payload carries credentials: only its member names are logged.
                "initPayload": "\(prepared.payloadKeys.sorted())",
            ])

        let attempt = WebSocketConnection.Attempt()
        onAbort { attempt.abort() }
        let socket: WebSocketConnection.Socket
        do {
            (socket, _, _) = try await WebSocketConnection.open(
                prepared.url,
                headers: prepared.headers,
                subprotocols: [GraphQLTransportWS.subprotocol],
                requireSubprotocol: true,
                tls: settings.networkClient.tlsConfiguration ?? .default,
                maximumMessageSize: configuration.maximumMessageSize,
                attempt: attempt)
        } catch {
            return report(.socketOpenFailed(socket: number, openFailure(error)))
        }
        let end = await exchange(socket, initMessage: prepared.initMessage, credential: prepared.credential)
        report(.socketEnded(socket: number, end))
    }

    private func preparationFailure(_ error: any Error) -> SubscriptionStateMachine.OpenFailure {
        switch error {
        case is CancellationError:
            return .abandoned
        case let error as PrismGraphQLError:
            return .preparation(error)
        case let error as PrismHTTPError:
            return .preparation(
                PrismGraphQLError(
                    code: .requestFailed,
                    message: "The subscriptions' upgrade request could not be prepared: \(error.message)",
                    url: settings.endpointURL, underlying: error))
        default:
            return .preparation(
                PrismGraphQLError(
                    code: .requestFailed,
                    message:
                        "The subscriptions' upgrade request could not be prepared: \(DecodingErrorText.describe(error))",
                    url: settings.endpointURL, underlying: error))
        }
    }

    private func openFailure(_ error: any Error) -> SubscriptionStateMachine.OpenFailure {
        switch error {
        case WebSocketConnection.OpenFailure.refused(let status, _): .refused(status: status)
        case WebSocketConnection.OpenFailure.subprotocolNotChosen(let chosen): .subprotocol(chosen)
        case WebSocketConnection.OpenFailure.aborted: .abandoned
        case is CancellationError: .abandoned
        case let error as PrismHTTPError where error.code == .pinMismatch || error.code == .invalidTLSConfiguration:
            // Another attempt would meet the same key, or the same settings.
            .preparation(
                PrismGraphQLError(
                    code: .requestFailed, message: "The subscriptions' WebSocket was refused: \(error.message)",
                    url: settings.endpointURL, underlying: error))
        default:
            .transport(
                lostError(
                    "The subscriptions' WebSocket could not be opened: \(DecodingErrorText.describe(error))", error))
        }
    }

    // MARK: The exchange

    /// Sends `connection_init`, reports the socket open, then reports every message until the
    /// socket ends, while a writer sends what the driver queues. WebSocket pings are answered
    /// here; everything else is the state machine's to decide.
    private func exchange(_ socket: WebSocketConnection.Socket, initMessage: String, credential: String?) async
        -> SubscriptionStateMachine.SocketEnd
    {
        let channel = socket.channel
        onAbort { channel.close(promise: nil) }
        do {
            return try await socket.executeThenClose { inbound, outbound in
                try await outbound.write(.clientText(initMessage))
                report(.socketOpened(socket: number, credential: credential))
                return try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await item in self.outgoing {
                            switch item {
                            case .text(let text):
                                if text == GraphQLTransportWS.pong { self.pongWritten() }
                                try await outbound.write(.clientText(text))
                            case .close(let code, let reason):
                                // A server that never answers the close cannot hold the socket.
                                channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
                                try await outbound.write(.clientClose(code: code, reason: reason))
                                return
                            }
                        }
                    }
                    var end = SubscriptionStateMachine.SocketEnd.dropped(
                        lostError("The server closed the subscriptions' WebSocket without a close frame.", nil))
                    do {
                        reading: for try await frame in inbound {
                            switch frame.opcode {
                            case .text:
                                report(
                                    .received(
                                        socket: number, GraphQLTransportWS.parse(String(buffer: frame.unmaskedData))))
                            case .binary:
                                report(
                                    .received(
                                        socket: number,
                                        .invalid(
                                            "The server sent a binary message; graphql-transport-ws messages are text.")
                                    ))
                            case .ping:
                                // A WebSocket-level ping: its pong carries the same bytes.
                                try await outbound.write(
                                    WebSocketFrame(
                                        fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
                            case .connectionClose:
                                end = .closed(code: frame.closeCode)
                                break reading
                            default:
                                break
                            }
                        }
                    } catch {
                        group.cancelAll()
                        throw error
                    }
                    group.cancelAll()
                    return end
                }
            }
        } catch {
            if error is NIOWebSocketError || error is NIOWebSocketFrameAggregator.Error {
                let limit = configuration.maximumMessageSize
                let message =
                    switch error {
                    case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge,
                        NIOWebSocketError.invalidFrameLength:
                        "The server sent a message larger than the limit of \(limit) bytes."
                    default: "The server broke the WebSocket protocol: \(error)"
                    }
                return .protocolError(message)
            }
            return .dropped(
                lostError("The subscriptions' WebSocket failed: \(DecodingErrorText.describe(error))", error))
        }
    }

    private func lostError(_ message: String, _ underlying: (any Error)?) -> PrismHTTPError {
        PrismHTTPError(
            code: .connectionFailed, message: message, url: settings.webSocketURL, method: .get, underlying: underlying)
    }
}
#endif
