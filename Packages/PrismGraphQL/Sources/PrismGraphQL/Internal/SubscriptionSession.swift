import Foundation
import Logging
import PrismHTTP

/// The life of a client's WebSocket while subscriptions remain: connect, and when the socket is
/// lost, reconnect as the policy says (every subscription is sent again on the new socket); when
/// it fails for good, end every subscription with the error.
struct SubscriptionSession {
    let connection: SubscriptionConnection

    private var settings: SubscriptionSettings { connection.settings }

    func run() async {
        // Consecutive failed connections, and whether the credentials were refreshed: both start
        // again only after a connection that stayed up (stableConnectionInterval), so that a
        // server that acknowledges and drops at once runs out the policy and gets one refresh.
        var attempt = 0
        var refreshed = false
        while true {
            let socket = SubscriptionSocket(connection: connection, number: connection.nextSocket())
            let outcome = await socket.run()
            connection.socketEnded(socket.number)
            switch outcome {
            case .idle:
                break
            case .failed(let error):
                settings.logger?.warning(
                    "GraphQL subscriptions failed: \(error.code)",
                    metadata: [
                        "url": "\(settings.redactedURL)", "closeCode": "\(error.closeCode.map(String.init) ?? "-")",
                    ])
                connection.failAll(error)
            case .unauthorized(let refusal, let credential):
                if !refreshed, connection.hasSubscribers {
                    refreshed = true
                    settings.logger?.debug(
                        "GraphQL subscriptions: credentials refused (close code \(refusal.closeCode ?? 0)), refreshing")
                    do {
                        // A client without an authenticator has nothing to renew: the refusal stands.
                        if try await !settings.networkClient.refreshCredentials(replacing: credential) {
                            connection.failAll(refusal)
                        }
                    } catch {
                        var rejected = PrismGraphQLError(
                            code: .subscriptionRejected,
                            message: "The server refused the credentials and refreshing them failed.",
                            url: settings.endpointURL, underlying: error)
                        rejected.closeCode = refusal.closeCode
                        connection.failAll(rejected)
                    }
                } else {
                    settings.logger?.warning(
                        "GraphQL subscriptions failed: \(refusal.code)",
                        metadata: ["url": "\(settings.redactedURL)", "closeCode": "\(refusal.closeCode ?? 0)"])
                    connection.failAll(refusal)
                }
            case .lost(let failure, let stable):
                if stable {
                    attempt = 0
                    refreshed = false
                }
                attempt += 1
                guard connection.hasSubscribers, !Task.isCancelled else { break }
                guard let policy = settings.configuration.reconnectPolicy,
                    let delay = policy.delay(afterAttempt: attempt, failure: PrismRetryFailure(error: failure))
                else {
                    settings.logger?.warning(
                        "GraphQL subscriptions: the WebSocket was lost and is not reconnected",
                        metadata: ["url": "\(settings.redactedURL)", "attempts": "\(attempt)"])
                    connection.failAll(
                        PrismGraphQLError(
                            code: .requestFailed,
                            message:
                                "The subscriptions' WebSocket was lost and not reconnected (\(attempt) attempt(s)): \(failure.message)",
                            url: settings.endpointURL, underlying: failure))
                    break
                }
                settings.logger?.warning(
                    "GraphQL subscriptions: the WebSocket was lost, reconnecting",
                    metadata: [
                        "url": "\(settings.redactedURL)", "attempt": "\(attempt)",
                        "milliseconds":
                            "\(delay.components.seconds * 1_000 + delay.components.attoseconds / 1_000_000_000_000_000)",
                    ])
                if delay > .zero {
                    try? await settings.configuration.sleep(delay)
                }
            }
            if connection.sessionShouldEnd(cancelled: Task.isCancelled) { return }
        }
    }
}
