import HTTPTypes
import Hummingbird
import PrismSupport

/// Revalidation: `GET /etag/:name` (+ `POST .../bump`) and `GET /last-modified/:name` (+ `POST .../bump`).
///
/// Both answer `Cache-Control: no-cache`, so a cache must revalidate every time, and a test sees
/// every revalidation in ``PrismTestServer/hits(_:)``.
struct ConditionalRoutes: RouteGroup {
    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.get("/etag/:name") { request, context -> Response in
            let name = context.parameter("name")
            let version = self.state.withValues { $0.etagVersions[name, default: 1] }
            let etag = Self.etag(name: name, version: version)
            let headers: HTTPFields = [.eTag: etag, .cacheControl: "no-cache"]
            if let ifNoneMatch = request.headers[values: .ifNoneMatch].joined(separator: ",").nilIfEmpty,
                Self.matches(ifNoneMatch, etag: etag)
            {
                return Response(status: .notModified, headers: headers)
            }
            return .json(
                ["name": .string(name), "version": .int(version), "payload": .string("\(name) at version \(version)")],
                headers: headers
            )
        }

        router.post("/etag/:name/bump") { _, context -> Response in
            let name = context.parameter("name")
            let version = self.state.withValues { values in
                values.etagVersions[name, default: 1] += 1
                return values.etagVersions[name]!
            }
            return Response(status: .noContent, headers: [.eTag: Self.etag(name: name, version: version)])
        }

        router.get("/last-modified/:name") { request, context -> Response in
            let name = context.parameter("name")
            let (version, date) = self.state.withValues {
                $0.lastModified[name, default: (1, ServerState.initialLastModified)]
            }
            let lastModified = HTTPDate.format(date)
            let headers: HTTPFields = [.lastModified: lastModified, .cacheControl: "no-cache"]
            if let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse), date <= since {
                return Response(status: .notModified, headers: headers)
            }
            return .json(
                [
                    "name": .string(name),
                    "version": .int(version),
                    "lastModified": .string(lastModified),
                    "payload": .string("\(name) at version \(version)"),
                ],
                headers: headers
            )
        }

        router.post("/last-modified/:name/bump") { _, context -> Response in
            let name = context.parameter("name")
            let date = self.state.withValues { values in
                var entry = values.lastModified[name, default: (1, ServerState.initialLastModified)]
                entry.version += 1
                entry.date += 1
                values.lastModified[name] = entry
                return entry.date
            }
            return Response(status: .noContent, headers: [.lastModified: HTTPDate.format(date)])
        }
    }

    /// The strong entity tag of version `version` of `name`: `"<name>-v<version>"`, quotes included.
    static func etag(name: String, version: Int) -> String {
        "\"\(name)-v\(version)\""
    }

    /// Whether an `If-None-Match` value matches `etag` (weak comparison, RFC 9110 §13.1.2).
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        let candidates = ifNoneMatch.split(separator: ",").map { $0.trimmingWhitespace() }
        return candidates.contains { candidate in
            candidate == "*" || (candidate.hasPrefix("W/") ? String(candidate.dropFirst(2)) : candidate) == etag
        }
    }
}
