import Foundation
import PrismHTTP

/// One whole WebSocket message: text or bytes (fragments are joined before it is delivered).
public enum PrismWebSocketMessage: Sendable, Hashable {
    /// A text message (UTF-8 on the wire).
    case text(String)
    /// A binary message.
    case binary(Data)
}

/// A WebSocket close code (RFC 6455, section 7.4): the registered ones by name, and any other
/// (an application's 4000-4999, say) by its number.
public struct PrismWebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code's number.
    public let rawValue: Int

    /// Creates the code `rawValue`.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = Self(rawValue: 1000)
    /// 1001: the endpoint is going away (a server restarting, a page left).
    public static let goingAway = Self(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = Self(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot accept (binary to a text-only endpoint, say).
    public static let unsupportedData = Self(rawValue: 1003)
    /// 1005: the close frame carried no code (never sent, only reported).
    public static let noStatusReceived = Self(rawValue: 1005)
    /// 1006: the connection ended without a close frame (never sent, only reported).
    public static let abnormalClosure = Self(rawValue: 1006)
    /// 1007: a message's data did not match its type (text that is not UTF-8).
    public static let invalidPayload = Self(rawValue: 1007)
    /// 1008: a message broke the endpoint's policy.
    public static let policyViolation = Self(rawValue: 1008)
    /// 1009: a message too large for the endpoint.
    public static let messageTooBig = Self(rawValue: 1009)
    /// 1010: the server did not agree to an extension the client needs.
    public static let mandatoryExtension = Self(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    public static let internalServerError = Self(rawValue: 1011)
    /// 1012: the service is restarting.
    public static let serviceRestart = Self(rawValue: 1012)
    /// 1013: try again later (the server is overloaded).
    public static let tryAgainLater = Self(rawValue: 1013)
    /// 1014: a gateway's upstream answered badly.
    public static let badGateway = Self(rawValue: 1014)

    /// The close codes after which a ``PrismWebSocket`` reconnects (as its reconnect policy
    /// allows) by default: the server going away or restarting, overloaded or failing inside, a
    /// gateway failing, and a close without a code. After any other the socket ends.
    public static let reconnecting: Set<Self> = [
        .goingAway, .noStatusReceived, .abnormalClosure, .internalServerError, .serviceRestart, .tryAgainLater,
        .badGateway,
    ]

    /// The number.
    public var description: String { String(rawValue) }
}

/// What the server answered to a socket's upgrade request.
public struct PrismWebSocketHandshake: Sendable {
    /// The subprotocol the server chose among those asked for, if any.
    public let subprotocol: String?
    /// The header fields of the server's `101 Switching Protocols`.
    public let headers: PrismHTTPHeaders
    /// Which connection of the socket this is: 1 for the first, 2 for the first reconnection, ...
    public let connection: Int

    /// Creates a handshake (for tests of code that handles events).
    public init(subprotocol: String?, headers: PrismHTTPHeaders, connection: Int) {
        self.subprotocol = subprotocol
        self.headers = headers
        self.connection = connection
    }
}

/// What a ``PrismWebSocket`` reports, in order, through ``PrismWebSocket/events``.
public enum PrismWebSocketEvent: Sendable {
    /// A connection opened (the first, or one after a reconnection).
    case connected(PrismWebSocketHandshake)
    /// A message from the server.
    case message(PrismWebSocketMessage)
    /// The connection was lost (`error` says how) and another opens after `reconnectingIn`, as
    /// the reconnect policy says. Messages sent meanwhile throw `notConnected`.
    case disconnected(PrismWebSocketError, reconnectingIn: Duration)
    /// The socket closed for good with a close handshake: the client's ``PrismWebSocket/close(code:reason:)``
    /// (the code the server answered with), or the server's close with `normalClosure`. The
    /// sequence ends after it.
    case closed(code: PrismWebSocketCloseCode?, reason: String)
}
