#if WebSocketSubscriptions && !os(watchOS)
import Foundation
import PrismHTTP

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

    /// Header fields the WebSocket upgrade sets itself, or that mean nothing on it.
    private static let excludedHeaders: Set<String> = [
        "host", "connection", "upgrade", "content-type", "content-length", "accept", "transfer-encoding",
        "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol", "sec-websocket-extensions",
    ]

    /// The upgrade request as the network client prepares any request (the additional headers,
    /// then its interceptors, its authenticator and its checks: `prepare(_:options:)`), and the
    /// `connection_init` payload: the configured parameters, and the credential headers the
    /// prepared request carries (`Authorization`, and every header PrismHTTP treats as secret but
    /// cookies) under their names.
    func prepare(_ url: URL) async throws -> Prepared {
        let upgrade = PrismHTTPRequest(
            url: WebSocketURL.upgradeRequestURL(for: url), method: .get,
            headers: PrismHTTPHeaders(settings.additionalHeaders))
        let prepared = try await settings.networkClient.prepare(upgrade, options: PrismRequestOptions())
        let request = prepared.request

        var payload = settings.configuration.connectionParameters
        for field in request.headers where Self.isCredential(field.name) {
            if let existing = payload.keys.first(where: { $0.lowercased() == field.name.lowercased() }) {
                payload[existing] = nil
            }
            payload[field.name] = .string(field.value)
        }

        // The network client checked every name and value (the pipeline's validation), and the
        // connection checks them again on the wire: nothing here re-implements either.
        var headers: [(name: String, value: String)] = []
        var sent = PrismHTTPHeaders()
        for field in request.headers where !Self.excludedHeaders.contains(field.name.lowercased()) {
            headers.append((field.name, field.value))
            sent.add(name: field.name, value: field.value)
        }
        return Prepared(
            url: WebSocketURL.derived(from: request.url) ?? url,
            headers: headers,
            requestHeaders: sent,
            initMessage: GraphQLTransportWS.connectionInit(payload: payload),
            payloadKeys: Array(payload.keys),
            credential: prepared.credential
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
