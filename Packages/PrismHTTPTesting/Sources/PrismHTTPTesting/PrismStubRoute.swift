import Foundation
import PrismHTTP

/// Which requests a stub answers: a method (or any) and a path pattern, or a predicate.
///
/// A pattern is a path such as `/tasks/42`, where `*` stands for any one segment
/// (`/tasks/*`) and a final `**` for any rest (`/files/**`); the query is not compared (a
/// handler can read it). A pattern that starts with `http://` or `https://` compares the
/// scheme, host and port too.
public struct PrismStubRoute: Sendable, CustomStringConvertible {
    private let matches: @Sendable (PrismHTTPRequest) -> Bool
    /// How the route reads in a failure message, for example `GET /tasks/*`.
    public let description: String

    /// A route that answers `method` (any method when `nil`) on paths that match `pattern`.
    public init(_ method: PrismNetworkMethod? = nil, _ pattern: String) {
        let pattern = Pattern(pattern)
        self.matches = { request in
            (method == nil || request.method == method) && pattern.matches(request.url)
        }
        self.description = "\(method?.rawValue ?? "ANY") \(pattern.text)"
    }

    /// A route that answers every request for which `predicate` is true.
    public init(_ description: String = "a predicate", where predicate: @escaping @Sendable (PrismHTTPRequest) -> Bool)
    {
        self.matches = predicate
        self.description = description
    }

    /// Whether this route answers `request`.
    public func matches(_ request: PrismHTTPRequest) -> Bool {
        matches(request)
    }
}

/// A path pattern, split into segments once.
private struct Pattern: Sendable {
    let text: String
    let origin: String?
    let segments: [Substring]

    init(_ text: String) {
        self.text = text
        if text.hasPrefix("http://") || text.hasPrefix("https://"), let url = URL(string: text) {
            origin = Self.origin(of: url)
            segments = Self.segments(of: url.path)
        } else {
            origin = nil
            segments = Self.segments(of: text)
        }
    }

    func matches(_ url: URL) -> Bool {
        if let origin, Self.origin(of: url) != origin { return false }
        let path = Self.segments(of: url.path)
        var index = 0
        for segment in segments {
            if segment == "**" { return true }
            guard index < path.count, segment == "*" || segment == path[index] else { return false }
            index += 1
        }
        return index == path.count
    }

    static func segments(of path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
