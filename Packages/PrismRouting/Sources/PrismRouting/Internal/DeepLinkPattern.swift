/// A parsed deep-link pattern such as `/users/:id/repos?page=`.
struct DeepLinkPattern: Sendable {
    enum Segment: Hashable, Sendable {
        case literal(String)
        case parameter(String)
    }

    /// The pattern as registered.
    let text: String
    /// The path, one entry per segment; empty for the root pattern `/`.
    let segments: [Segment]
    /// The query parameters the pattern declares, in order.
    let queryNames: [String]

    /// The names of the path parameters.
    var pathNames: [String] {
        segments.compactMap {
            if case .parameter(let name) = $0 { name } else { nil }
        }
    }

    /// What two patterns must share to match the same URLs: the literals and where the
    /// parameters are, whatever the parameters are called.
    var shape: [String?] {
        segments.map {
            if case .literal(let text) = $0 { text } else { nil }
        }
    }

    /// Parses `text`, stopping with a message on a pattern that cannot be meant.
    init(_ text: String) {
        self.text = text
        let (path, query) = Self.split(text)
        precondition(
            !path.contains("://"),
            """
            Deep-link pattern "\(text)" has a scheme: patterns are paths such as "/users/:id". \
            List schemes and hosts in PrismDeepLinks(schemes:hosts:) instead.
            """
        )
        precondition(
            !path.contains("#"),
            "Deep-link pattern \"\(text)\" has a fragment (#): patterns are paths with an optional query."
        )
        segments = path.split(separator: "/", omittingEmptySubsequences: true).map { part in
            guard part.hasPrefix(":") else { return .literal(String(part)) }
            let name = String(part.dropFirst())
            Self.checkName(name, in: text)
            return .parameter(name)
        }
        queryNames = (query ?? "").split(separator: "&", omittingEmptySubsequences: true).map { item in
            let pieces = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pieces[0])
            precondition(
                pieces.count == 1 || pieces[1].isEmpty,
                """
                Deep-link pattern "\(text)" gives the query parameter "\(name)" a value: write "\(name)=" \
                and read it with value(_:) or optionalValue(_:) in the handler.
                """
            )
            Self.checkName(name, in: text)
            return name
        }
        let names = pathNames + queryNames
        precondition(
            Set(names).count == names.count,
            "Deep-link pattern \"\(text)\" declares a parameter twice: give each parameter its own name."
        )
    }

    /// The values of the path parameters when `path` matches, else `nil`.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, component) in zip(segments, path) {
            switch segment {
            case .literal(let text):
                guard text == component else { return nil }
            case .parameter(let name):
                values[name] = component
            }
        }
        return values
    }

    /// Whether this pattern beats `other` when both match a URL: at the first segment where one
    /// has a literal and the other a parameter, the literal wins.
    func isMoreSpecific(than other: DeepLinkPattern) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }

    private static func split(_ text: String) -> (path: Substring, query: Substring?) {
        guard let mark = text.firstIndex(of: "?") else { return (text[...], nil) }
        return (text[..<mark], text[text.index(after: mark)...])
    }

    private static func checkName(_ name: String, in text: String) {
        precondition(
            !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" },
            """
            Deep-link pattern "\(text)" has a parameter without a usable name ("\(name)"): \
            use letters, digits, "_" or "-", as in ":id" or "page=".
            """
        )
    }
}
