import HTTPTypes
import Hummingbird
import PrismSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `ANY /status/:code` and `GET /delay/:ms`.
struct StatusRoutes: RouteGroup {
    /// The longest wait `/delay/:ms` accepts: 10 minutes.
    static let maximumDelay = 600_000

    func register(on router: Router<TestServerRequestContext>) {
        router.on("/status/:code", methods: anyMethod) { request, context -> Response in
            guard let code = Int(context.parameter("code")), (200...599).contains(code) else {
                return .jsonMessage(
                    "status must be a number from 200 to 599 (1xx is not a final status)",
                    status: .badRequest
                )
            }
            let query = request.query
            var headers = HTTPFields()
            for (name, value) in RequestTarget.queryItems(request.uri.query) where name.hasPrefix("header.") {
                guard let fieldName = HTTPField.Name(String(name.dropFirst("header.".count))) else {
                    return .jsonMessage("'\(name)' is not a valid header name", status: .badRequest)
                }
                headers.append(HTTPField(name: fieldName, value: value))
            }
            if let retryAfter = Self.retryAfter(query) {
                headers[.retryAfter] = retryAfter
            }
            let status = HTTPResponse.Status(code: code)
            if [204, 205, 304].contains(code) {
                return Response(status: status, headers: headers)
            }
            return .json(
                ["status": .int(code), "message": .string("status \(code)")], status: status, headers: headers)
        }

        router.on("/delay/:ms", methods: [.get, .post]) { _, context -> Response in
            guard let milliseconds = Int(context.parameter("ms")), (0...Self.maximumDelay).contains(milliseconds)
            else {
                return .jsonMessage("delay must be a number of milliseconds from 0 to 600000", status: .badRequest)
            }
            guard await context.pause(milliseconds: milliseconds) else { return .interrupted }
            return .json(["delayed": .int(milliseconds)])
        }
    }

    /// The `Retry-After` value that `?retryAfter=<s>` (and `&retryAfterDate=1`) asks for.
    ///
    /// The HTTP-date form is now + s, rounded up to the next whole second, so that a client never
    /// computes a wait shorter than s - 1.
    static func retryAfter(_ query: [String: String]) -> String? {
        guard let seconds = query["retryAfter"].flatMap({ Int($0) }), seconds >= 0 else { return nil }
        if query["retryAfterDate"] == "1" {
            let now = Date().timeIntervalSince1970
            return HTTPDate.format(Int64(now.rounded(.up)) + Int64(seconds))
        }
        return String(seconds)
    }
}
