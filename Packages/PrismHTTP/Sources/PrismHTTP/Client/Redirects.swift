import Foundation

/// The scheme, host and port of a URL: two URLs are same-origin when all three match
/// (RFC 6454), so `http://127.0.0.1:80` and `http://localhost:80` are two origins.
struct Origin: Hashable {
    var scheme: String
    var host: String
    var port: Int

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }
}

/// How the transports that ship follow redirects (``PrismRedirectPolicy``): one place, so that
/// AsyncHTTPClient and URLSession follow the same rules. Both transports are told never to
/// follow a redirect themselves.
enum Redirects {
    /// The statuses that redirect (300 and 305 are not followed).
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The next hop of a redirect chain: the request, and whether its body is sent again.
    struct Hop {
        var request: PrismHTTPRequest
        var keepsBody: Bool
    }

    /// Sends `request` with `send`, following redirects as `policy` says.
    ///
    /// `send` receives each hop's request and whether to send the body (a body that is not
    /// resent has already been removed from the request).
    nonisolated(nonsending) static func follow(
        _ request: PrismHTTPRequest,
        hasBody: Bool,
        policy: PrismRedirectPolicy,
        send: nonisolated(nonsending) (PrismHTTPRequest, _ withBody: Bool) async throws -> PrismHTTPResponse
    ) async throws -> PrismHTTPResponse {
        try await follow(request, hasBody: hasBody, policy: policy, send: send, head: { $0 }, discard: { _ in })
    }

    /// ``follow(_:hasBody:policy:send:)`` for any kind of answer, a streamed one among them:
    /// `head` gives an answer's status and headers, and `discard` is called with each
    /// redirect's answer before the next hop is sent (a stream is closed there).
    nonisolated(nonsending) static func follow<Answer>(
        _ request: PrismHTTPRequest,
        hasBody: Bool,
        policy: PrismRedirectPolicy,
        send: nonisolated(nonsending) (PrismHTTPRequest, _ withBody: Bool) async throws -> Answer,
        head: (Answer) -> PrismHTTPResponse,
        discard: (Answer) async -> Void
    ) async throws -> Answer {
        var hop = Hop(request: request, keepsBody: hasBody)
        var followed = 0
        while true {
            let answer = try await send(hop.request, hop.keepsBody)
            let response = head(answer)
            guard
                let next = nextHop(
                    after: response, to: hop.request, bodyIsSent: hop.keepsBody, original: request.url, policy: policy)
            else { return answer }
            await discard(answer)
            guard followed < policy.maximum else {
                throw PrismHTTPError(
                    code: .tooManyRedirects,
                    message: "The server redirected more than \(policy.maximum) times in a row.",
                    url: request.url,
                    method: request.method,
                    statusCode: response.statusCode,
                    headers: response.headers
                )
            }
            followed += 1
            hop = next
        }
    }

    /// The request that follows `response`, or nil when `response` is the final answer: not a
    /// redirect, no usable `Location`, or a redirect the rules refuse.
    static func nextHop(
        after response: PrismHTTPResponse,
        to request: PrismHTTPRequest,
        bodyIsSent: Bool,
        original: URL,
        policy: PrismRedirectPolicy
    ) -> Hop? {
        guard policy.scope != .none, statuses.contains(response.statusCode),
            let location = response.headers["Location"]?.trimmingCharacters(in: .whitespaces), !location.isEmpty,
            let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
            let targetOrigin = Origin(target), targetOrigin.scheme == "http" || targetOrigin.scheme == "https",
            let currentOrigin = Origin(request.url)
        else { return nil }
        // Never from https to http: the credentials and the answer would travel in clear.
        if currentOrigin.scheme == "https" && targetOrigin.scheme == "http" { return nil }
        if policy.scope == .sameOrigin, Origin(original) != targetOrigin { return nil }

        var next = request
        next.url = target
        var keepsBody = bodyIsSent
        let becomesGET =
            (response.statusCode == 303 && request.method != .head)
            || ((response.statusCode == 301 || response.statusCode == 302) && request.method == .post)
        if becomesGET {
            next.method = .get
            keepsBody = false
        }
        if !keepsBody {
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Transfer-Encoding", "Content-Encoding"] {
                next.headers[name] = nil
            }
        }
        if currentOrigin != targetOrigin {
            // A body is never sent to another origin (a 307 or 308 would resend it).
            if keepsBody { return nil }
            for field in request.headers where isCredential(field.name) {
                next.headers[field.name] = nil
            }
        }
        return Hop(request: next, keepsBody: keepsBody)
    }

    /// Whether a header must not follow a redirect to another origin: credentials, cookies,
    /// every name ``PrismHTTPRedaction`` treats as secret, and the headers that name the origin.
    static func isCredential(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return PrismHTTPRedaction.isSensitive(name) || lowered == "origin" || lowered == "host"
            || lowered == "referer"
    }
}
