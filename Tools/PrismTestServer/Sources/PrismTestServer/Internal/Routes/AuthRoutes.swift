import HTTPTypes
import Hummingbird

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A bearer token that expires on demand: `GET /auth/protected`, `GET /auth/etag/:name` and
/// `POST /auth/refresh`.
///
/// `GET /auth/etag/:name` is protected too, and revalidated: its 200 carries the `ETag` of
/// `/etag/:name` and `Cache-Control: max-age=0` (stale at once), and a matching `If-None-Match`
/// gets a 304 with `Cache-Control: max-age=60` (the refreshed entry is fresh for a minute).
///
/// The current token starts as `token-0`. ``PrismTestServer/expireToken()`` makes it invalid until
/// the next refresh; each refresh makes `token-<n>` current (n = 1, 2, ...).
struct AuthRoutes: RouteGroup {
    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.get("/auth/protected") { request, _ -> Response in
            if self.isAuthorized(request) {
                return .json(["ok": true, "token": .string(self.state.withValues { "token-\($0.tokenNumber)" })])
            }
            return .jsonMessage("token expired", status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
        }

        router.get("/auth/etag/:name") { request, context -> Response in
            guard self.isAuthorized(request) else {
                return .jsonMessage("token expired", status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
            }
            let name = context.parameter("name")
            let version = self.state.withValues { $0.etagVersions[name, default: 1] }
            let etag = ConditionalRoutes.etag(name: name, version: version)
            if let ifNoneMatch = request.headers[values: .ifNoneMatch].joined(separator: ",").nilIfEmpty,
                ConditionalRoutes.matches(ifNoneMatch, etag: etag)
            {
                return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "max-age=60"])
            }
            return .json(
                ["name": .string(name), "version": .int(version)],
                headers: [.eTag: etag, .cacheControl: "max-age=0"])
        }

        router.post("/auth/refresh") { request, context -> Response in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            let refresh = try? JSONDecoder().decode(RefreshBody.self, from: Data(body.readableBytesView))
            guard let refreshToken = refresh?.refreshToken, !refreshToken.isEmpty else {
                return .jsonMessage("a JSON body {\"refreshToken\": \"...\"} is required", status: .badRequest)
            }
            if let delay = request.query["delay"].flatMap({ Int($0) }), delay > 0 {
                guard await context.pause(milliseconds: min(delay, StatusRoutes.maximumDelay)) else {
                    return .interrupted
                }
            }
            let number = self.state.withValues { values in
                values.tokenNumber += 1
                values.tokenIsValid = true
                values.refreshCount += 1
                return values.tokenNumber
            }
            return .json(["accessToken": .string("token-\(number)"), "refreshToken": .string("refresh-\(number)")])
        }
    }

    /// Whether `request` carries the current token, and it has not expired.
    private func isAuthorized(_ request: Request) -> Bool {
        let (current, isValid) = state.withValues { ("token-\($0.tokenNumber)", $0.tokenIsValid) }
        let authorization = request.headers[.authorization] ?? ""
        let prefix = "Bearer "
        return isValid && authorization.hasPrefix(prefix) && authorization.dropFirst(prefix.count) == current
    }

    private struct RefreshBody: Decodable {
        var refreshToken: String?
    }
}
