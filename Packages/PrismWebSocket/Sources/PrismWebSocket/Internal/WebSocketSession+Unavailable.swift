#if os(watchOS)
import Foundation

/// watchOS has no WebSocket for an ordinary app: Network.framework and URLSessionWebSocketTask
/// serve only audio-streaming apps and CallKit apps there (Apple's TN3135, "Low-level networking
/// on watchOS"); a connection waits with ENETDOWN forever. Every socket ends at once.
extension WebSocketSession {
    func run() async {
        report(
            .openFailed(
                connection: number,
                .fatal(
                    PrismWebSocketError(
                        code: .unavailable,
                        message:
                            "WebSockets are not available on watchOS: an app may not open one there (Apple's TN3135). Open it from the paired iPhone app, or poll.",
                        url: context.url)),
                credential: nil))
    }
}
#endif
