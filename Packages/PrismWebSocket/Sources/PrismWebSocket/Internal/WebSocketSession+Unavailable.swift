#if !WebSocketSubscriptions || os(watchOS)
import Foundation

/// Where there is no WebSocket connection, every socket ends at once with `unavailable`, instead
/// of waiting and reconnecting forever:
/// - without the WebSocketSubscriptions trait (see Package.swift);
/// - on watchOS, where an ordinary app may not open a socket: Network.framework and
///   URLSessionWebSocketTask serve only audio-streaming apps and CallKit apps there (Apple's
///   TN3135, "Low-level networking on watchOS"); a connection waits with ENETDOWN forever.
extension WebSocketSession {
    func run() async {
        report(
            .openFailed(
                connection: number,
                .fatal(PrismWebSocketError(code: .unavailable, message: Self.unavailable, url: context.url)),
                credential: nil))
    }

    #if os(watchOS)
    static let unavailable =
        "WebSockets are not available on watchOS: an app may not open one there (Apple's TN3135). Open it from the paired iPhone app, or poll."
    #else
    static let unavailable =
        "This build of PrismWebSocket has no connection: WebSockets need Prism's WebSocketSubscriptions package trait (on by default; it is off when Prism is added with `traits: []`)."
    #endif
}
#endif
