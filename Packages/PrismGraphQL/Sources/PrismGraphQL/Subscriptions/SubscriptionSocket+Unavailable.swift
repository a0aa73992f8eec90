#if !WebSocketSubscriptions
import Foundation

/// Without the WebSocketSubscriptions trait (see Package.swift) there is no WebSocket client:
/// every socket fails at once, so each subscription ends with `subscriptionsUnavailable`.
extension SubscriptionSocket {
    func run() async {
        report(
            .socketOpenFailed(
                socket: number,
                .preparation(
                    PrismGraphQLError(
                        code: .subscriptionsUnavailable,
                        message:
                            "This build of PrismGraphQL has no WebSocket client: subscriptions need Prism's WebSocketSubscriptions package trait (on by default; it is off when Prism is added with `traits: []`).",
                        url: settings.endpointURL))))
    }
}
#endif
