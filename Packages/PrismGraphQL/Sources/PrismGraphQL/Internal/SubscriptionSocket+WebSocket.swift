#if WebSocketSubscriptions
import Foundation
import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
@_spi(PrismInternals) import PrismHTTP

/// The socket over Prism's own SwiftNIO WebSocket connection (the WebSocketSubscriptions trait,
/// on by default).
extension SubscriptionSocket {
    private var settings: SubscriptionSettings { connection.settings }
    private var configuration: PrismGraphQLSubscriptionConfiguration { settings.configuration }

    func run() async -> Outcome {
        guard let url = settings.webSocketURL else {
            return .failed(
                PrismGraphQLError(
                    code: .invalidEndpoint,
                    message: "The subscription URL must be an absolute ws, wss, http or https URL with a host.",
                    url: configuration.url ?? settings.endpointURL))
        }
        let prepared: Prepared
        do {
            prepared = try await prepare(url)
        } catch is CancellationError {
            return .idle
        } catch let error as PrismGraphQLError {
            return .failed(error)
        } catch let error as PrismHTTPError {
            return .failed(
                PrismGraphQLError(
                    code: .requestFailed,
                    message: "The subscriptions' upgrade request could not be prepared: \(error.message)",
                    url: settings.endpointURL, underlying: error))
        } catch {
            return .failed(
                PrismGraphQLError(
                    code: .requestFailed,
                    message:
                        "The subscriptions' upgrade request could not be prepared: \(PrismHTTPError.describe(error))",
                    url: settings.endpointURL, underlying: error))
        }
        settings.logger?.debug(
            "GraphQL subscriptions: connecting to \(settings.redactedURL)",
            metadata: [
                "headers": "\(PrismHTTPRedaction.redact(prepared.requestHeaders).dictionary)",
                // The payload carries credentials: only its member names are logged.
                "initPayload": "\(prepared.payloadKeys.sorted())",
            ])

        // One timer from the first byte to the acknowledgement: the connect, the TLS handshake
        // and the upgrade are bounded by it as much as connection_init is. Before the upgrade is
        // answered it abandons the socket (a lost one, reconnected as the policy says); after, the
        // server had its chance to acknowledge (connectionAckTimeout ends every subscription).
        let progress = SocketProgress()
        let attempt = WebSocketConnection.Attempt()
        let (outgoing, continuation) = AsyncStream<SubscriptionConnection.Outgoing>.makeStream()
        let configuration = self.configuration
        let endpointURL = settings.endpointURL
        let acknowledgementTimer = Task {
            do { try await configuration.sleep(configuration.connectionAckTimeout) } catch { return }
            if !progress.isUpgraded {
                progress.upgradeTimedOut()
                attempt.abort()
                return
            }
            let timeout = PrismGraphQLError(
                code: .connectionAckTimeout,
                message: "The server did not acknowledge connection_init within \(configuration.connectionAckTimeout).",
                url: endpointURL)
            if progress.failIfNotAcknowledged(timeout) {
                continuation.yield(
                    .close(
                        code: GraphQLTransportWS.ClientClose.acknowledgementTimeout,
                        reason: "Connection acknowledgement timeout"))
            }
        }
        defer { acknowledgementTimer.cancel() }

        let channel: WebSocketConnection.Socket
        do {
            (channel, _) = try await WebSocketConnection.open(
                prepared.url,
                headers: prepared.headers,
                subprotocol: GraphQLTransportWS.subprotocol,
                tlsConfiguration: TLSConfiguration.makeClientConfiguration(),
                maximumMessageSize: configuration.maximumMessageSize,
                attempt: attempt)
        } catch {
            continuation.finish()
            return openFailed(error, progress: progress, credential: prepared.credential)
        }
        progress.upgraded()

        let closeCode: Int?
        do {
            closeCode = try await exchange(
                channel, outgoing: outgoing, continuation: continuation, initMessage: prepared.initMessage,
                progress: progress, acknowledgementTimer: acknowledgementTimer)
        } catch {
            continuation.finish()
            if let failure = progress.failure { return .failed(failure) }
            if progress.closedByClient || Task.isCancelled || error is CancellationError { return .idle }
            if error is NIOWebSocketError || error is NIOWebSocketFrameAggregator.Error {
                let limit = configuration.maximumMessageSize
                let message =
                    switch error {
                    case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge,
                        NIOWebSocketError.invalidFrameLength:
                        "The server sent a message larger than the limit of \(limit) bytes."
                    default: "The server broke the WebSocket protocol: \(error)"
                    }
                return .failed(violation(message, closeCode: nil))
            }
            return .lost(
                lostError("The subscriptions' WebSocket failed: \(PrismHTTPError.describe(error))", error),
                stable: progress.isStable)
        }
        continuation.finish()
        if let failure = progress.failure { return .failed(failure) }
        if progress.closedByClient || Task.isCancelled { return .idle }
        if let reason = progress.lostReason {
            return .lost(lostError(reason, nil), stable: progress.isStable)
        }
        guard let closeCode else {
            return .lost(
                lostError("The server closed the subscriptions' WebSocket without a close frame.", nil),
                stable: progress.isStable)
        }
        switch GraphQLTransportWS.meaning(ofClose: closeCode) {
        case .reconnect:
            return .lost(
                lostError("The server closed the subscriptions' WebSocket (code \(closeCode)).", nil),
                stable: progress.isStable)
        case .protocolViolation:
            return .failed(
                violation(
                    "The server closed the WebSocket with code \(closeCode): the protocol exchange went wrong.",
                    closeCode: closeCode))
        case .rejected:
            var error = PrismGraphQLError(
                code: .subscriptionRejected,
                message: "The server refused the subscriptions' connection (close code \(closeCode)).",
                url: settings.endpointURL)
            error.closeCode = closeCode
            return .failed(error)
        case .unauthorized:
            var error = PrismGraphQLError(
                code: .subscriptionRejected,
                message: "The server refused the subscriptions' credentials (close code \(closeCode)).",
                url: settings.endpointURL)
            error.closeCode = closeCode
            return .unauthorized(error, credential: prepared.credential)
        }
    }

    /// What a socket that could not be opened means: a refused upgrade is the server's answer
    /// (401 and 403 refuse the credentials; 408, 429 and 5xx are worth another try; any other
    /// status ends every subscription), a subprotocol the server did not choose is a protocol
    /// violation, and everything else (no answer in time, no connection) is a lost socket.
    private func openFailed(_ error: any Error, progress: SocketProgress, credential: String?) -> Outcome {
        if Task.isCancelled { return .idle }
        switch error {
        case WebSocketConnection.OpenFailure.refused(let status):
            var refusal = PrismGraphQLError(
                code: .subscriptionRejected,
                message: "The server refused the subscriptions' WebSocket upgrade with HTTP \(status).",
                url: settings.endpointURL)
            refusal.statusCode = status
            switch status {
            case 401, 403:
                return .unauthorized(refusal, credential: credential)
            case 408, 429, 500...599:
                let failure = PrismHTTPError(
                    code: .unacceptableStatus, message: refusal.message, url: settings.webSocketURL, method: .get,
                    statusCode: status)
                return .lost(failure, stable: false)
            default:
                return .failed(refusal)
            }
        case WebSocketConnection.OpenFailure.subprotocolNotChosen(let chosen):
            return .failed(
                violation(
                    "The server upgraded without choosing the \(GraphQLTransportWS.subprotocol) subprotocol "
                        + "(it chose \(chosen.map { "\"\($0)\"" } ?? "none")).",
                    closeCode: nil))
        case WebSocketConnection.OpenFailure.aborted where progress.didUpgradeTimeOut:
            return .lost(
                PrismHTTPError(
                    code: .timedOut,
                    message:
                        "The server did not answer the subscriptions' WebSocket upgrade within \(configuration.connectionAckTimeout).",
                    url: settings.webSocketURL, method: .get),
                stable: false)
        case WebSocketConnection.OpenFailure.aborted:
            return .idle
        default:
            return .lost(
                lostError("The subscriptions' WebSocket could not be opened: \(PrismHTTPError.describe(error))", error),
                stable: false)
        }
    }

    // MARK: The exchange

    /// Sends `connection_init`, then reads every message until the socket closes, while a
    /// writer sends what the subscriptions queue and (once acknowledged) another sends keep-alive
    /// pings. Returns the server's close code, if it sent one.
    private func exchange(
        _ channel: WebSocketConnection.Socket,
        outgoing: AsyncStream<SubscriptionConnection.Outgoing>,
        continuation: AsyncStream<SubscriptionConnection.Outgoing>.Continuation,
        initMessage: String,
        progress: SocketProgress,
        acknowledgementTimer: Task<Void, Never>
    ) async throws -> Int? {
        let configuration = self.configuration
        let nio = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(.clientText(initMessage))
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await item in outgoing {
                        switch item {
                        case .text(let text):
                            if text == GraphQLTransportWS.pong { progress.pongWritten() }
                            try await outbound.write(.clientText(text))
                        case .close(let code, let reason):
                            try await Self.close(nio, outbound, code: code, reason: reason)
                            return
                        case .finish:
                            progress.closeByClient()
                            try await Self.close(nio, outbound, code: 1000, reason: "")
                            return
                        }
                    }
                }
                var closeCode: Int?
                do {
                    reading: for try await frame in inbound {
                        switch frame.opcode {
                        case .text:
                            let text = String(buffer: frame.unmaskedData)
                            switch handle(text, continuation: continuation, progress: progress) {
                            case .continue:
                                break
                            case .acknowledged:
                                // The timer ends and the keep-alive starts before any subscription
                                // is sent, so that nothing sleeps on the clock for the
                                // acknowledgement once a subscription runs.
                                acknowledgementTimer.cancel()
                                if let interval = configuration.keepAliveInterval {
                                    group.addTask { try await keepAlive(every: interval, continuation, progress) }
                                }
                                group.addTask {
                                    try await configuration.sleep(configuration.stableConnectionInterval)
                                    progress.markStable()
                                }
                                _ = connection.acknowledged(socket: number, continuation)
                            case .violation(let message):
                                await fail(message, progress, nio, outbound)
                                break reading
                            }
                        case .binary:
                            await fail(
                                "The server sent a binary message; graphql-transport-ws messages are text.", progress,
                                nio, outbound)
                            break reading
                        case .ping:
                            // A WebSocket-level ping: its pong carries the same bytes.
                            try await outbound.write(
                                WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
                        case .connectionClose:
                            closeCode = frame.closeCode
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
                return closeCode
            }
        }
    }

    /// Sends a close frame, and closes the channel if the server has not closed it within two
    /// seconds (a server that never answers a close cannot hold the socket).
    private static func close(
        _ channel: any Channel, _ outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>, code: Int, reason: String
    ) async throws {
        channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        try await outbound.write(.clientClose(code: code, reason: reason))
    }

    /// What reading one message led to.
    private enum Handled {
        case `continue`
        case acknowledged
        case violation(String)
    }

    /// Routes one message from the server.
    private func handle(
        _ text: String,
        continuation: AsyncStream<SubscriptionConnection.Outgoing>.Continuation,
        progress: SocketProgress
    ) -> Handled {
        let data = Data(text.utf8)
        guard let incoming = try? Self.decoder.decode(GraphQLTransportWS.Incoming.self, from: data) else {
            return .violation(
                "The server sent a message that is not a graphql-transport-ws message (a JSON object with a type).")
        }
        switch incoming.type {
        case "connection_ack":
            guard progress.acknowledge() else { return .continue }
            settings.logger?.debug("GraphQL subscriptions: connection acknowledged by \(settings.redactedURL)")
            return .acknowledged
        case "ping":
            // At most one pong waits to be written: a server that floods pings while not reading
            // cannot fill the client's memory with pongs.
            if progress.queuePong() { continuation.yield(.text(GraphQLTransportWS.pong)) }
            return .continue
        case "pong":
            progress.pongReceived()
            return .continue
        case "next", "error", "complete":
            guard progress.isAcknowledged else {
                return .violation("The server sent \(incoming.type) before connection_ack.")
            }
            guard let id = incoming.id else { return .violation("The server sent \(incoming.type) without an id.") }
            switch connection.route(id) {
            case .unknown:
                return .violation("The server sent \(incoming.type) for id \(id), which the client never used.")
            case .ended:
                // A message that crossed the client's complete: dropped.
                return .continue
            case .active(let subscriber):
                return deliver(incoming.type, id: id, data: data, to: subscriber)
            }
        default:
            return .violation("The server sent a message of unknown type \(incoming.type).")
        }
    }

    /// Gives a `next`, `error` or `complete` to its subscription.
    private func deliver(
        _ type: String, id: String, data: Data, to subscriber: SubscriptionConnection.Subscriber
    ) -> Handled {
        switch type {
        case "next":
            if let error = subscriber.next(data) {
                connection.end(id, sendComplete: true)?.finish(error)
            }
        case "error":
            guard let message = try? Self.decoder.decode(GraphQLTransportWS.ErrorMessage.self, from: data) else {
                return .violation("The server sent an error message whose payload is not a list of GraphQL errors.")
            }
            let messages = message.payload.map(\.description).joined(separator: "; ")
            connection.end(id, sendComplete: false)?.finish(
                PrismGraphQLError(
                    code: .graphQLErrors, message: "The server ended the subscription with errors: \(messages)",
                    url: settings.endpointURL, operationName: subscriber.operationName, errors: message.payload))
            settings.logger?.debug("GraphQL subscription \(id) ended by the server with errors")
        default:
            connection.end(id, sendComplete: false)?.finish(nil)
            settings.logger?.debug("GraphQL subscription \(id) completed by the server")
        }
        return .continue
    }

    /// Sends a `ping` every `interval`; a ping still unanswered when the next is due closes the
    /// socket as lost.
    private func keepAlive(
        every interval: Duration,
        _ continuation: AsyncStream<SubscriptionConnection.Outgoing>.Continuation,
        _ progress: SocketProgress
    ) async throws {
        while true {
            try await configuration.sleep(interval)
            guard progress.sendPing() else {
                settings.logger?.warning("GraphQL subscriptions: no pong within \(interval), closing the socket")
                continuation.yield(.close(code: 1001, reason: "No pong"))
                return
            }
            continuation.yield(.text(GraphQLTransportWS.ping))
        }
    }

    /// Ends the exchange for a protocol violation: every subscription will fail with it, and the
    /// socket is closed with 4004 (graphql-ws's Bad response).
    private func fail(
        _ message: String, _ progress: SocketProgress, _ channel: any Channel,
        _ outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    ) async {
        settings.logger?.warning(
            "GraphQL subscriptions: protocol violation by the server, closing",
            metadata: ["url": "\(settings.redactedURL)"])
        progress.fail(violation(message, closeCode: nil))
        try? await Self.close(
            channel, outbound, code: GraphQLTransportWS.ClientClose.badResponse, reason: "Bad response")
    }

    private func violation(_ message: String, closeCode: Int?) -> PrismGraphQLError {
        var error = PrismGraphQLError(code: .subscriptionProtocolViolation, message: message, url: settings.endpointURL)
        error.closeCode = closeCode
        return error
    }

    private func lostError(_ message: String, _ underlying: (any Error)?) -> PrismHTTPError {
        PrismHTTPError(
            code: .connectionFailed, message: message, url: settings.webSocketURL, method: .get, underlying: underlying)
    }

    private static let decoder = JSONDecoder()
}
#endif
