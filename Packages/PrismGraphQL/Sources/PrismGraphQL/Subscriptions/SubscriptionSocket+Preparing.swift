#if WebSocketSubscriptions && !os(watchOS)
import Foundation
import PrismHTTP
@_spi(PrismInternals) import PrismWebSocket

extension SubscriptionSocket {
    /// The upgrade request's headers and the `connection_init` message of one connection.
    struct Prepared {
        /// The WebSocket URL, as the interceptors left it.
        var url: URL
        /// The headers of the upgrade request (the subprotocol is asked for when it is sent).
        var headers: [(name: String, value: String)]
        /// The same as PrismHTTP headers, for the log line (redacted there).
        var requestHeaders: PrismHTTPHeaders
        var initMessage: String
        /// The member names of the init payload (its values may be credentials).
        var payloadKeys: [String]
        /// What identifies the authenticator's credentials, for a refresh.
        var credential: String?
    }

    /// The upgrade request as the network client prepares any request (PrismWebSocket's
    /// `WebSocketUpgrade`: the additional headers, then its interceptors, its authenticator and its
    /// checks), and the `connection_init` payload: the configured parameters, and the credential
    /// headers the prepared request carries (`Authorization`, and every header PrismHTTP treats as
    /// secret but cookies) under their names.
    func prepare(_ url: URL) async throws -> Prepared {
        let upgrade = try await WebSocketUpgrade.prepare(
            url, additionalHeaders: settings.additionalHeaders, client: settings.networkClient)

        var payload = settings.configuration.connectionParameters
        for field in upgrade.request.headers where Self.isCredential(field.name) {
            if let existing = payload.keys.first(where: { $0.lowercased() == field.name.lowercased() }) {
                payload[existing] = nil
            }
            payload[field.name] = .string(field.value)
        }
        return Prepared(
            url: upgrade.url,
            headers: upgrade.headers,
            requestHeaders: upgrade.sentHeaders,
            initMessage: GraphQLTransportWS.connectionInit(payload: payload),
            payloadKeys: Array(payload.keys),
            credential: upgrade.credential
        )
    }

    /// Whether the header `name` carries a credential that `connection_init` repeats: servers
    /// read credentials there, since browsers cannot set headers on a WebSocket.
    private static func isCredential(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered != "cookie" && PrismHTTPRedaction.isSensitive(name)
    }

}
#endif
