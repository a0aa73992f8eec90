import Foundation
import Prism

/// The demo server's task-sync routes as a `PrismNetworkEndpoint`: one value per request, built
/// from the server's base URL and a route.
struct TaskEndpoint: PrismNetworkEndpoint {
    /// One of the server's task routes.
    enum Route: Sendable {
        /// `GET /tasks`; with a `maxAge`, the server lets caches keep the list that many seconds.
        case list(maxAge: Int?)
        /// `PUT /tasks`: replaces the server's list.
        case replace(RemoteTaskUpload)
        /// `POST /tasks/fail-next?count=`: the server fails the next `count` requests (a demo of
        /// retries).
        case failNext(count: Int)
        /// `GET /tasks/events`: the list's revisions as Server-Sent Events, as they happen.
        case events
        /// `GET /download/<name>?bytes=&dropAfter=`: a file of `bytes` bytes, served in ranges;
        /// the demo server drops the first connection after `cutAt` bytes when given.
        case file(name: String, bytes: Int, cutAt: Int?)
    }

    /// The server, such as `http://127.0.0.1:8080`.
    var server: URL
    /// The route.
    var route: Route

    var scheme: PrismNetworkScheme { server.scheme?.lowercased() == "https" ? .https : .http }
    var host: String { server.host ?? "" }
    var port: Int? { server.port }

    /// The server's own path, then the route's segments, each escaped by `PrismPath` (a segment
    /// can never add another or climb with `..`).
    var path: String {
        let base = server.path.hasSuffix("/") ? String(server.path.dropLast()) : server.path
        switch route {
        case .list, .replace: return base + PrismPath.segments("tasks")
        case .failNext: return base + PrismPath.segments("tasks", "fail-next")
        case .events: return base + PrismPath.segments("tasks", "events")
        case .file(let name, _, _): return base + PrismPath.segments("download", name)
        }
    }

    var method: PrismNetworkMethod {
        switch route {
        case .list, .events, .file: return .get
        case .replace: return .put
        case .failNext: return .post
        }
    }

    var queryItems: [URLQueryItem]? {
        switch route {
        case .list(let maxAge): return maxAge.map { [URLQueryItem(name: "max-age", value: String($0))] }
        case .replace, .events: return nil
        case .failNext(let count): return [URLQueryItem(name: "count", value: String(count))]
        case .file(_, let bytes, let cutAt):
            return [URLQueryItem(name: "bytes", value: String(bytes))]
                + (cutAt.map { [URLQueryItem(name: "dropAfter", value: String($0))] } ?? [])
        }
    }

    var body: (any Encodable)? {
        if case .replace(let upload) = route { return upload }
        return nil
    }
}
