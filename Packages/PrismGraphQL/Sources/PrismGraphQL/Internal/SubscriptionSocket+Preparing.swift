#if canImport(WSClient)
import Foundation
import HTTPTypes
import PrismHTTP

extension SubscriptionSocket {
    /// The upgrade request's headers and the `connection_init` message of one connection.
    struct Prepared {
        /// The headers of the upgrade request, the subprotocol included.
        var headers: HTTPFields
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

    /// The upgrade request as the client's adapter would send it (additional headers, then every
    /// interceptor, then the authenticator), and the `connection_init` payload: the configured
    /// parameters, and the credential headers (`Authorization`, and any header the authenticator
    /// set) under their names.
    func prepare(_ url: URL) async throws -> Prepared {
        var request = PrismHTTPRequest(
            url: WebSocketURL.upgradeRequestURL(for: url), method: .get,
            headers: PrismHTTPHeaders(connection.settings.additionalHeaders))
        var credentialHeaders: [(name: String, value: String)] = []
        var credential: String?
        if let adapter = connection.settings.adapter {
            for interceptor in adapter.interceptors { request = try await interceptor.adapt(request) }
            if let authenticator = adapter.authenticator {
                let before = request.headers
                let authorized = try await authenticator.authorize(request)
                credential = authorized.credential
                for field in authorized.request.headers where before[field.name] != field.value {
                    credentialHeaders.append((field.name, field.value))
                }
                request = authorized.request
            }
        }
        if let authorization = request.headers["Authorization"],
            !credentialHeaders.contains(where: { $0.name.lowercased() == "authorization" })
        {
            credentialHeaders.append(("Authorization", authorization))
        }

        var payload = connection.settings.configuration.connectionParameters
        for header in credentialHeaders {
            if let existing = payload.keys.first(where: { $0.lowercased() == header.name.lowercased() }) {
                payload[existing] = nil
            }
            payload[header.name] = .string(header.value)
        }

        var headers = HTTPFields()
        var sent = PrismHTTPHeaders()
        for field in request.headers where !Self.excludedHeaders.contains(field.name.lowercased()) {
            guard let name = HTTPField.Name(field.name), Self.isValidValue(field.value) else {
                throw PrismGraphQLError(
                    code: .requestFailed,
                    message:
                        "The header \(field.name.filter { !$0.isNewline }) cannot be sent on the upgrade request: its name or value is not valid HTTP.",
                    url: connection.settings.endpointURL)
            }
            headers.append(HTTPField(name: name, value: field.value))
            sent.add(name: field.name, value: field.value)
        }
        headers[.secWebSocketProtocol] = GraphQLTransportWS.subprotocol
        return Prepared(
            headers: headers,
            requestHeaders: sent,
            initMessage: GraphQLTransportWS.connectionInit(payload: payload),
            payloadKeys: Array(payload.keys),
            credential: credential
        )
    }

    /// Whether `value` has no CR, LF, NUL or other control character but tab.
    private static func isValidValue(_ value: String) -> Bool {
        !value.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
    }
}
#endif
