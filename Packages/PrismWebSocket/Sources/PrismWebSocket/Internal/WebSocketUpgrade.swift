import Foundation
@_spi(PrismInternals) import PrismHTTP

/// A WebSocket's upgrade request as the network client prepares any request: the additional
/// headers, then its interceptors, its authenticator and its checks (`prepare(_:options:)`).
/// PrismWebSocket and PrismGraphQL's subscriptions open their sockets with it.
@_spi(PrismInternals) public struct WebSocketUpgrade: Sendable {
    /// The WebSocket URL, as the interceptors left it.
    public var url: URL
    /// The prepared request, every header field included (credentials too).
    public var request: PrismHTTPRequest
    /// The fields the upgrade request carries: the prepared ones but those the upgrade sets
    /// itself or that mean nothing on it.
    public var headers: [(name: String, value: String)]
    /// The same fields as PrismHTTP headers, for a log line (redacted there).
    public var sentHeaders: PrismHTTPHeaders
    /// What identifies the authenticator's credentials, for a refresh.
    public var credential: String?

    /// Header fields the WebSocket upgrade sets itself, or that mean nothing on it.
    static let excludedHeaders: Set<String> = [
        "host", "connection", "upgrade", "content-type", "content-length", "accept", "transfer-encoding",
        "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol", "sec-websocket-extensions",
    ]

    /// Prepares the upgrade request to `url` (a `ws` or `wss` URL) through `client`.
    ///
    /// - Throws: What the client's interceptors, authenticator or checks throw.
    public static func prepare(
        _ url: URL, additionalHeaders: [String: String], client: any PrismNetworkClient
    ) async throws -> WebSocketUpgrade {
        let upgrade = PrismHTTPRequest(
            url: WebSocketURL.upgradeRequestURL(for: url), method: .get,
            headers: PrismHTTPHeaders(additionalHeaders))
        let prepared = try await client.prepare(upgrade, options: PrismRequestOptions())
        // The network client checked every name and value (the pipeline's validation), and the
        // connection checks them again on the wire: nothing here re-implements either.
        var headers: [(name: String, value: String)] = []
        var sent = PrismHTTPHeaders()
        for field in prepared.request.headers where !excludedHeaders.contains(field.name.lowercased()) {
            headers.append((field.name, field.value))
            sent.add(name: field.name, value: field.value)
        }
        return WebSocketUpgrade(
            url: WebSocketURL.derived(from: prepared.request.url) ?? url,
            request: prepared.request,
            headers: headers,
            sentHeaders: sent,
            credential: prepared.credential)
    }
}
