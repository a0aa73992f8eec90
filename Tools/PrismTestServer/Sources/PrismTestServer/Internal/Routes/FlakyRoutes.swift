import HTTPTypes
import Hummingbird

/// Routes that fail a given number of times, then succeed: `ANY /flaky/:name` and
/// `GET /timeout-then-ok/:name`. Attempts are counted per name (and per route).
struct FlakyRoutes: RouteGroup {
    /// How long `/timeout-then-ok/:name` holds its first attempts unless `delay` is given.
    static let defaultTimeoutDelay = 2000

    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.on("/flaky/:name", methods: anyMethod) { request, context -> Response in
            let name = context.parameter("name")
            let query = request.query
            let failures = max(query["failures"].flatMap { Int($0) } ?? 0, 0)
            let attempt = self.state.nextFlakyAttempt(name)
            guard attempt <= failures else {
                return .json(["name": .string(name), "attempt": .int(attempt)])
            }
            let code = query["status"].flatMap { Int($0) }.flatMap { (200...599).contains($0) ? $0 : nil } ?? 503
            var headers = HTTPFields()
            if let retryAfter = StatusRoutes.retryAfter(query) {
                headers[.retryAfter] = retryAfter
            }
            return .json(
                [
                    "name": .string(name),
                    "attempt": .int(attempt),
                    "message": .string("failure \(attempt) of \(failures)"),
                ],
                status: HTTPResponse.Status(code: code),
                headers: headers
            )
        }

        router.get("/timeout-then-ok/:name") { request, context -> Response in
            let name = context.parameter("name")
            let query = request.query
            let failures = max(query["failures"].flatMap { Int($0) } ?? 0, 0)
            let delay = min(
                max(query["delay"].flatMap { Int($0) } ?? Self.defaultTimeoutDelay, 0), StatusRoutes.maximumDelay)
            let attempt = self.state.nextTimeoutAttempt(name)
            let delayed = attempt <= failures ? delay : 0
            guard await context.pause(milliseconds: delayed) else { return .interrupted }
            return .json(["name": .string(name), "attempt": .int(attempt), "delayed": .int(delayed)])
        }
    }
}
