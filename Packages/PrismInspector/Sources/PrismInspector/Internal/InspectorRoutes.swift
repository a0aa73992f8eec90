import NIOCore
import NIOHTTP1

/// What the server answers, decided from the request alone: the page and its assets under
/// `/<token>/`, the WebSocket at `/<token>/socket` from the page's own origin, and nothing
/// else to anybody.
///
/// A request must also name the server as `127.0.0.1:<port>`, the address it is bound to, in
/// its `Host` header, so that a page of another site that a DNS trick points at 127.0.0.1 is
/// refused even before the token is checked. One name only: `localhost` may resolve to `::1`,
/// where another program of the machine can listen on the same port and serve a page of its
/// own as `http://localhost:<port>`, which would then be this page's origin.
struct InspectorRoutes: Sendable {
    /// One response.
    struct Response {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: ByteBuffer
    }

    /// The secret that every path starts with.
    let token: String

    /// The path of the WebSocket.
    var socketPath: String { "/\(token)/socket" }

    /// The response to a request that is not a WebSocket upgrade the server accepted.
    func response(method: HTTPMethod, uri: String, headers: HTTPHeaders, port: Int) -> Response {
        guard isAddressedToUs(headers, port: port) else {
            return refusal(.forbidden, "This address is not the inspector's.")
        }
        let path = pathOf(uri)
        guard let rest = pathAfterToken(path) else {
            return refusal(.forbidden, "The inspector needs the token: open the full URL it printed.")
        }
        guard method == .GET else {
            var response = refusal(.methodNotAllowed, "The inspector serves GET requests only.")
            response.headers.add(name: "Allow", value: "GET")
            return response
        }
        if rest.isEmpty {
            // `/<token>`: the page's assets are relative to `/<token>/`.
            var response = refusal(.permanentRedirect, "")
            response.headers.add(name: "Location", value: "/\(token)/")
            return response
        }
        guard let asset = InspectorAssets.asset(at: String(rest.dropFirst())) else {
            if rest == "/socket" {
                return refusal(.forbidden, "The inspector's WebSocket accepts only its own page.")
            }
            return refusal(.notFound, "Not found.")
        }
        var response = Response(
            status: .ok,
            headers: securityHeaders(headers, port: port),
            body: ByteBuffer(bytes: asset.bytes)
        )
        response.headers.add(name: "Content-Type", value: asset.contentType)
        return response
    }

    /// Whether a WebSocket upgrade request may go ahead: right token, right host, and an
    /// `Origin` that is the inspector's own page (a page of any other site is refused, even
    /// one that learned the token).
    func allowsWebSocket(uri: String, headers: HTTPHeaders, port: Int) -> Bool {
        guard isAddressedToUs(headers, port: port), pathOf(uri) == socketPath else { return false }
        let origins = headers["Origin"]
        guard origins.count == 1, let origin = origins.first?.lowercased() else { return false }
        return origin == "http://127.0.0.1:\(port)"
    }

    /// The store a WebSocket's URI asks for (`/<token>/socket?store=2`), 0 when none.
    static func storeID(in uri: String) -> Int {
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return 0 }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "store", let id = Int(parts[1]), id > 0 { return id }
        }
        return 0
    }

    // MARK: Checks

    private func isAddressedToUs(_ headers: HTTPHeaders, port: Int) -> Bool {
        let hosts = headers["Host"]
        guard hosts.count == 1, let host = hosts.first?.lowercased() else { return false }
        return host == "127.0.0.1:\(port)"
    }

    private func pathOf(_ uri: String) -> Substring {
        uri.prefix { $0 != "?" && $0 != "#" }
    }

    /// What follows `/<token>` in `path` (empty, or starting with `/`), or nil when the path
    /// does not start with the token. Compares every byte whatever the first mismatch, so that
    /// timing tells nothing of the token.
    private func pathAfterToken(_ path: Substring) -> Substring? {
        let expected = Array("/\(token)".utf8)
        let given = Array(path.utf8.prefix(expected.count))
        guard given.count == expected.count else { return nil }
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        guard difference == 0 else { return nil }
        let rest = path.dropFirst(expected.count)
        guard rest.isEmpty || rest.hasPrefix("/") else { return nil }
        return rest
    }

    // MARK: Responses

    private func refusal(_ status: HTTPResponseStatus, _ message: String) -> Response {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        return Response(
            status: status, headers: headers, body: ByteBuffer(string: message.isEmpty ? "" : message + "\n"))
    }

    /// Headers that keep the page to itself: its own scripts and styles only, its WebSocket
    /// only, no framing, no referrer (the token is in the URL), nothing cached.
    private func securityHeaders(_ request: HTTPHeaders, port: Int) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(
            name: "Content-Security-Policy",
            value:
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                + "connect-src 'self' ws://127.0.0.1:\(port); "
                + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        )
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "X-Frame-Options", value: "DENY")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Cross-Origin-Resource-Policy", value: "same-origin")
        return headers
    }
}

/// The page's files, compiled into the module from `Resources/`.
enum InspectorAssets {
    struct Asset {
        let bytes: [UInt8]
        let contentType: String
    }

    static func asset(at name: String) -> Asset? {
        switch name {
        case "", "index.html": Asset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")
        case "inspector.css": Asset(bytes: PackageResources.inspector_css, contentType: "text/css; charset=utf-8")
        case "inspector.js":
            Asset(bytes: PackageResources.inspector_js, contentType: "text/javascript; charset=utf-8")
        default: nil
        }
    }
}
