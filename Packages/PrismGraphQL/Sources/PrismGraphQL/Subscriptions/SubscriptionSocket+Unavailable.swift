#if !WebSocketSubscriptions || os(watchOS)
import Foundation

/// Where there is no WebSocket client, every socket fails at once, so each subscription ends with
/// `subscriptionsUnavailable` instead of waiting and reconnecting forever:
/// - without the WebSocketSubscriptions trait (see Package.swift);
/// - on watchOS, where an ordinary app may not open a socket: Network.framework and
///   URLSessionWebSocketTask serve only audio-streaming apps and CallKit apps there (Apple's
///   TN3135, "Low-level networking on watchOS"); a connection waits with ENETDOWN forever.
extension SubscriptionSocket {
    func run() async {
        report(
            .socketOpenFailed(
                socket: number,
                .preparation(
                    PrismGraphQLError(
                        code: .subscriptionsUnavailable, message: Self.unavailable, url: settings.endpointURL))))
    }

    #if os(watchOS)
    static let unavailable =
        "GraphQL subscriptions are not available on watchOS: an app may not open a WebSocket there (Network.framework and URLSessionWebSocketTask serve only audio-streaming and CallKit apps, Apple's TN3135). Queries and mutations work; subscribe from the paired iPhone app, or poll."
    #else
    static let unavailable =
        "This build of PrismGraphQL has no WebSocket client: subscriptions need Prism's WebSocketSubscriptions package trait (on by default; it is off when Prism is added with `traits: []`)."
    #endif
}
#endif
