#if WebSocketSubscriptions
import Foundation
import HTTPTypes
import Logging
import NIOWebSocket
@_spi(PrismInternals) import PrismHTTP
import WSClient

/// The socket over swift-websocket's `WSClient` (the WebSocketSubscriptions trait, on by default).
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

        let (outgoing, continuation) = AsyncStream<SubscriptionConnection.Outgoing>.makeStream()
        let progress = SocketProgress()
        let client = WebSocketClient(
            url: prepared.url.absoluteString,
            configuration: WebSocketClientConfiguration(
                maxFrameSize: configuration.maximumMessageSize,
                additionalHeaders: prepared.headers,
                closeTimeout: .seconds(2),
                autoPing: .disabled,
                validateUTF8: true
            ),
            // WSClient's trace lines quote frames, connection_init (credentials) included: it
            // never gets the app's logger.
            logger: Self.silentLogger
        ) { inbound, outbound, _ in
            try await exchange(
                inbound: inbound, outbound: outbound, outgoing: outgoing, continuation: continuation,
                initMessage: prepared.initMessage, progress: progress)
        }

        let closeCode: Int?
        do {
            closeCode = try await client.run().map { Int(UInt16(webSocketErrorCode: $0.closeCode)) }
        } catch {
            continuation.finish()
            if let failure = progress.failure { return .failed(failure) }
            if progress.closedByClient || Task.isCancelled || error is CancellationError { return .idle }
            if let error = error as? WebSocketClientError,
                [.serverSentMessageTooLarge, .serverSentDataInconsistentWithMessage, .serverProtocolError].contains(
                    error)
            {
                return .failed(violation("The server broke the WebSocket protocol: \(error)", closeCode: nil))
            }
            return .lost(
                lostError("The subscriptions' WebSocket failed: \(PrismHTTPError.describe(error))", error),
                acknowledged: progress.isAcknowledged)
        }
        continuation.finish()
        if let failure = progress.failure { return .failed(failure) }
        if progress.closedByClient || Task.isCancelled { return .idle }
        if let reason = progress.lostReason {
            return .lost(lostError(reason, nil), acknowledged: progress.isAcknowledged)
        }
        guard let closeCode else {
            return .lost(
                lostError("The server closed the subscriptions' WebSocket without a close frame.", nil),
                acknowledged: progress.isAcknowledged)
        }
        switch GraphQLTransportWS.meaning(ofClose: closeCode) {
        case .reconnect:
            return .lost(
                lostError("The server closed the subscriptions' WebSocket (code \(closeCode)).", nil),
                acknowledged: progress.isAcknowledged)
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

    // MARK: The exchange

    /// Sends `connection_init`, then reads every message until the socket closes, while a
    /// writer sends what the subscriptions queue, a timer waits for the acknowledgement, and
    /// (once acknowledged) another sends keep-alive pings.
    private func exchange(
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        outgoing: AsyncStream<SubscriptionConnection.Outgoing>,
        continuation: AsyncStream<SubscriptionConnection.Outgoing>.Continuation,
        initMessage: String,
        progress: SocketProgress
    ) async throws {
        try await outbound.write(.text(initMessage))
        let configuration = self.configuration
        let settings = self.settings
        // Not a child task: it ends with the acknowledgement, so that nothing sleeps on the
        // clock for it afterwards.
        let acknowledgementTimer = Task {
            do { try await configuration.sleep(configuration.connectionAckTimeout) } catch { return }
            let timeout = PrismGraphQLError(
                code: .connectionAckTimeout,
                message: "The server did not acknowledge connection_init within \(configuration.connectionAckTimeout).",
                url: settings.endpointURL)
            if progress.failIfNotAcknowledged(timeout) {
                try? await outbound.close(
                    WebSocketErrorCode(codeNumber: GraphQLTransportWS.ClientClose.acknowledgementTimeout),
                    reason: "Connection acknowledgement timeout")
            }
        }
        defer { acknowledgementTimer.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await item in outgoing {
                    switch item {
                    case .text(let text):
                        try await outbound.write(.text(text))
                    case .close(let code, let reason):
                        try await outbound.close(WebSocketErrorCode(codeNumber: code), reason: reason)
                        return
                    case .finish:
                        progress.closeByClient()
                        try await outbound.close(.normalClosure, reason: nil)
                        return
                    }
                }
            }
            var messages = inbound.messages(maxSize: configuration.maximumMessageSize).makeAsyncIterator()
            do {
                reading: while let message = try await messages.next() {
                    let text: String
                    switch message {
                    case .text(let string):
                        text = string
                    case .binary:
                        await fail(
                            "The server sent a binary message; graphql-transport-ws messages are text.", progress,
                            outbound)
                        break reading
                    }
                    switch handle(text, continuation: continuation, progress: progress) {
                    case .continue:
                        break
                    case .acknowledged:
                        // The timer ends and the keep-alive starts before any subscription is
                        // sent, so that nothing sleeps on the clock for the acknowledgement once
                        // a subscription runs.
                        acknowledgementTimer.cancel()
                        if let interval = configuration.keepAliveInterval {
                            group.addTask { try await keepAlive(every: interval, continuation, progress, outbound) }
                        }
                        _ = connection.acknowledged(socket: number, continuation)
                    case .violation(let message):
                        await fail(message, progress, outbound)
                        break reading
                    }
                }
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
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
            continuation.yield(.text(GraphQLTransportWS.pong))
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
        _ progress: SocketProgress,
        _ outbound: WebSocketOutboundWriter
    ) async throws {
        while true {
            try await configuration.sleep(interval)
            guard progress.sendPing() else {
                settings.logger?.warning("GraphQL subscriptions: no pong within \(interval), closing the socket")
                try? await outbound.close(.goingAway, reason: "No pong")
                return
            }
            continuation.yield(.text(GraphQLTransportWS.ping))
        }
    }

    /// Ends the exchange for a protocol violation: every subscription will fail with it, and the
    /// socket is closed with 4004 (graphql-ws's Bad response).
    private func fail(_ message: String, _ progress: SocketProgress, _ outbound: WebSocketOutboundWriter) async {
        settings.logger?.warning(
            "GraphQL subscriptions: protocol violation by the server, closing",
            metadata: ["url": "\(settings.redactedURL)"])
        progress.fail(violation(message, closeCode: nil))
        try? await outbound.close(
            WebSocketErrorCode(codeNumber: GraphQLTransportWS.ClientClose.badResponse), reason: "Bad response")
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

    private static let silentLogger = Logger(
        label: "PrismGraphQL.WebSocket", factory: { _ in SwiftLogNoOpLogHandler() })
}
#endif
