// A WebSocket through Prism's client: its authenticator, interceptors, TLS settings and logger
// apply to the upgrade. It compiles with the package; it needs a WebSocket server to run
// (PrismWebSocket's tests run one, Python's websockets).
// snippet.hide
import Foundation
import PrismHTTP
import PrismWebSocket

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// snippet.show
// snippet.chat
/// Reads a chat room's messages until the room closes; says hello on every (re)connection.
func followRoom(_ room: URL, tokens: PrismBearerTokenAuthenticator) async throws {
    let client = PrismNetworkAdapter(cache: nil, authenticator: tokens)
    var configuration = PrismWebSocketConfiguration()
    configuration.subprotocols = ["chat.v2"]
    configuration.pingInterval = .seconds(20)
    let socket = PrismWebSocket(url: room, client: client, configuration: configuration)

    for try await event in socket.events {
        switch event {
        case .connected(let handshake):
            print("connected (\(handshake.subprotocol ?? "no subprotocol"))")
            try await socket.send("hello")
        case .message(.text(let text)):
            print(text)
        case .message(.binary(let data)):
            print("\(data.count) bytes")
        case .disconnected(let error, let delay):
            print("lost (\(error.message)); again in \(delay)")
        case .closed(let code, let reason):
            print("closed: \(code.map(String.init(describing:)) ?? "-") \(reason)")
        }
    }
}
// snippet.end
