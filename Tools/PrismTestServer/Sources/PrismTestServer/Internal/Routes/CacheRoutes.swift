import HTTPTypes
import Hummingbird

/// `GET /cache/:name?max-age=<s>&no-store=1&no-cache=1&private=1&public=1&must-revalidate=1&vary=<names>&delay=<ms>`.
///
/// The body counts the requests that reached the server for this name, so a test can tell a
/// response served from a cache (same `hit`) from one fetched again (next `hit`). With `delay`,
/// every request but the first waits `ms` before answering (a slow revalidation), and the wait
/// ends early when the client leaves or the server stops.
struct CacheRoutes: RouteGroup {
    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.get("/cache/:name") { request, context -> Response in
            let name = context.parameter("name")
            let hit = self.state.nextCacheHit(name)
            if hit > 1, let delay = request.query["delay"] {
                guard let milliseconds = Int(delay), (0...StatusRoutes.maximumDelay).contains(milliseconds) else {
                    return .jsonMessage("delay must be a number of milliseconds from 0 to 600000", status: .badRequest)
                }
                guard await context.pause(milliseconds: milliseconds) else { return .interrupted }
            }
            var headers = HTTPFields()
            if let cacheControl = Self.cacheControl(request.query) {
                headers[.cacheControl] = cacheControl
            }
            if let vary = request.query["vary"], !vary.isEmpty {
                headers[.vary] = vary
            }
            return .json(["name": .string(name), "hit": .int(hit)], headers: headers)
        }
    }

    /// The `Cache-Control` value the query asks for, directives in a fixed order; nil for none.
    static func cacheControl(_ query: [String: String]) -> String? {
        var directives: [String] = []
        for flag in ["public", "private", "no-store", "no-cache", "must-revalidate"] where query[flag] == "1" {
            directives.append(flag)
        }
        if let maxAge = query["max-age"].flatMap({ Int($0) }), maxAge >= 0 {
            directives.append("max-age=\(maxAge)")
        }
        return directives.isEmpty ? nil : directives.joined(separator: ", ")
    }
}
