import Foundation
import Logging
@_spi(PrismInternals) import PrismHTTP

/// What a client's subscriptions need to know of the client.
struct SubscriptionSettings: Sendable {
    /// The GraphQL endpoint (for errors).
    var endpointURL: URL
    /// The WebSocket URL, or nil when none can be derived (every subscription then fails with
    /// `invalidEndpoint`).
    var webSocketURL: URL?
    var additionalHeaders: [String: String]
    var networkClient: any PrismNetworkClient
    var configuration: PrismGraphQLSubscriptionConfiguration

    init(
        endpointURL: URL,
        additionalHeaders: [String: String],
        networkClient: any PrismNetworkClient,
        configuration: PrismGraphQLSubscriptionConfiguration
    ) {
        self.endpointURL = endpointURL
        self.webSocketURL = WebSocketURL.derived(from: configuration.url ?? endpointURL)
        self.additionalHeaders = additionalHeaders
        self.networkClient = networkClient
        self.configuration = configuration
    }

    /// The network client's logger: subscriptions log as its requests do, secrets redacted.
    var logger: Logger? { networkClient.logger }

    /// The WebSocket URL with its credentials redacted, for log lines and messages.
    var redactedURL: String {
        webSocketURL.map { PrismHTTPRedaction.redact($0) } ?? "<invalid URL>"
    }
}
