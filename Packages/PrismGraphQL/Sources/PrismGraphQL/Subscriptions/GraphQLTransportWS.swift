import Foundation
import PrismHTTP

/// The `graphql-transport-ws` protocol (graphql-ws's PROTOCOL.md): the messages, as JSON text,
/// and what the close codes mean to a client.
enum GraphQLTransportWS {
    /// The WebSocket subprotocol the client asks for.
    static let subprotocol = "graphql-transport-ws"

    /// A message from the server, as far as the connection needs to read it: its type and id.
    /// The payload is decoded by the subscription it belongs to.
    struct Incoming: Decodable {
        var type: String
        var id: String?
    }

    /// The payload of an `error` message: the GraphQL errors.
    struct ErrorMessage: Decodable {
        var payload: [PrismGraphQLResponseError]
    }

    /// A text message from the server, as the connection's state machine reads it.
    static func parse(_ text: String) -> SubscriptionStateMachine.Inbound {
        let data = Data(text.utf8)
        guard let incoming = try? decoder.decode(Incoming.self, from: data) else { return .invalid(parseFailure) }
        switch incoming.type {
        case "connection_ack": return .acknowledged
        case "ping": return .ping
        case "pong": return .pong
        case "next", "error", "complete":
            guard let id = incoming.id else { return .invalid("The server sent \(incoming.type) without an id.") }
            switch incoming.type {
            case "next": return .next(id: id, message: data)
            case "error": return .error(id: id, errors: (try? decoder.decode(ErrorMessage.self, from: data))?.payload)
            default: return .complete(id: id)
            }
        default:
            return .invalid("The server sent a message of unknown type \(incoming.type).")
        }
    }

    /// Why a message that is not a JSON object with a `type` is refused.
    static let parseFailure =
        "The server sent a message that is not a graphql-transport-ws message (a JSON object with a type)."

    private static let decoder = JSONDecoder()

    /// `{"type": "connection_init", "payload": {...}}`.
    static func connectionInit(payload: [String: PrismGraphQLValue]) -> String {
        struct Message: Encodable {
            var type = "connection_init"
            var payload: [String: PrismGraphQLValue]
        }
        return text(of: Message(payload: payload)) ?? #"{"type":"connection_init"}"#
    }

    /// `{"id", "type": "subscribe", "payload": {"query", "operationName", "variables"}}`.
    static func subscribe(id: String, payload: GraphQLRequestBody) throws -> String {
        struct Message: Encodable {
            var id: String
            var type = "subscribe"
            var payload: GraphQLRequestBody
        }
        return String(decoding: try encoder.encode(Message(id: id, payload: payload)), as: UTF8.self)
    }

    /// `{"id", "type": "complete"}`.
    static func complete(id: String) -> String {
        text(of: ["id": id, "type": "complete"]) ?? #"{"type":"complete"}"#
    }

    static let ping = #"{"type":"ping"}"#
    static let pong = #"{"type":"pong"}"#

    private static func text(of value: some Encodable) -> String? {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }

    private static let encoder: JSONEncoder = {
        let encoder = PrismJSON.makeEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    // MARK: Close codes

    /// What a close means for the subscriptions on the socket.
    enum CloseMeaning: Equatable {
        /// The server may be back: reconnect as the policy says.
        case reconnect
        /// The exchange went wrong on one side: `subscriptionProtocolViolation`.
        case protocolViolation
        /// The server refused the client: `subscriptionRejected` (credentials, policy).
        case rejected
        /// The credentials were refused: refresh them once if the client can, then `rejected`.
        case unauthorized
    }

    /// The meaning of close code `code` (nil: the socket ended without a close frame).
    static func meaning(ofClose code: Int?) -> CloseMeaning {
        switch code {
        case 4401, 4403: .unauthorized
        case 1008, 4500: .rejected
        case 1002, 1003, 1007, 4004, 4400, 4406, 4409, 4429: .protocolViolation
        default: .reconnect
        }
    }

    /// Close codes the client sends.
    enum ClientClose {
        /// The server sent something the protocol does not allow (graphql-ws's BadResponse).
        static let badResponse = 4004
        /// No `connection_ack` in time (graphql-ws's ConnectionAcknowledgementTimeout).
        static let acknowledgementTimeout = 4504
    }
}
