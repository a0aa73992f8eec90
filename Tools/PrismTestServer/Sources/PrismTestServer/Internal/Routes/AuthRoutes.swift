import HTTPTypes
import Hummingbird

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A bearer token that expires on demand: `GET /auth/protected` and `POST /auth/refresh`.
///
/// The current token starts as `token-0`. ``PrismTestServer/expireToken()`` makes it invalid until
/// the next refresh; each refresh makes `token-<n>` current (n = 1, 2, ...).
struct AuthRoutes: RouteGroup {
    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.get("/auth/protected") { request, _ -> Response in
            let (current, isValid) = self.state.withValues { ("token-\($0.tokenNumber)", $0.tokenIsValid) }
            let authorization = request.headers[.authorization] ?? ""
            let prefix = "Bearer "
            if isValid, authorization.hasPrefix(prefix), authorization.dropFirst(prefix.count) == current {
                return .json(["ok": true, "token": .string(current)])
            }
            return .jsonMessage("token expired", status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
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

    private struct RefreshBody: Decodable {
        var refreshToken: String?
    }
}
