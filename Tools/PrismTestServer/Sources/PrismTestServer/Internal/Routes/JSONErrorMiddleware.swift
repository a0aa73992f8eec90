import HTTPTypes
import Hummingbird

/// Turns Hummingbird's errors into the server's JSON error bodies.
///
/// An unknown path, or a known path with a method it does not serve, becomes
/// 404 `{"message": "not found", "path": <path>}`; any other `HTTPError` (a body over the size limit,
/// say) becomes its status with `{"message": <reason>}`.
struct JSONErrorMiddleware: RouterMiddleware {
    typealias Context = TestServerRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            if error.status == .notFound {
                return .jsonMessage(
                    "not found",
                    status: .notFound,
                    extra: [.init(key: "path", value: .string(request.uri.path))]
                )
            }
            return .jsonMessage(error.body ?? error.status.reasonPhrase, status: error.status, headers: error.headers)
        }
    }
}
