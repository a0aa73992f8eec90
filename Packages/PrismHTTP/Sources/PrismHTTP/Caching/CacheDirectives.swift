import Foundation
@_spi(PrismInternals) import PrismCache
import PrismSupport

/// The parts of `Cache-Control` that decide whether and how long a response is cached.
///
/// Every field line counts, as one comma-separated list (RFC 9110 §5.3: a `no-store` on a second
/// line is as binding as on the first); commas inside a quoted value (`no-cache="a, b"`) do not
/// split it; names are case-insensitive; the first `max-age` counts.
struct CacheControl: Equatable {
    var maxAge: Int?
    /// A `max-age` that is not delta-seconds: the response is stale on arrival.
    var maxAgeIsInvalid = false
    var noStore = false
    var noCache = false
    var mustRevalidate = false
    /// `stale-while-revalidate=N` (RFC 5861 §3): how long past its freshness the response may be
    /// served while it is revalidated in the background.
    var staleWhileRevalidate: Int?
    /// `stale-if-error=N` (RFC 5861 §4): how long past its freshness the response may be served
    /// when revalidating it fails.
    var staleIfError: Int?
    /// The fields a qualified `no-cache="a, b"` names, lowercased (§5.2.2.4): never served
    /// from the cache, so not stored; the rest of the response is.
    var noCacheFields: Set<String> = []
    /// `must-understand` (§5.2.2.3): store only if the status's caching rules are understood,
    /// and then regardless of `no-store`.
    var mustUnderstand = false
    /// `public` (§5.2.2.9): storable whatever the status, and a heuristic lifetime allowed.
    var isPublic = false

    /// The statuses whose caching rules Prism understands: those RFC 9110 defines.
    static let understoodStatuses: Set<Int> = Set(200...206).union(300...308).subtracting([305, 306])
        .union(400...417).union([421, 422, 426]).union(500...505)

    /// Whether a response with `status` and these directives must not be stored: `no-store`,
    /// unless `must-understand` comes with a status whose rules are understood; with
    /// `must-understand`, any status whose rules are not.
    func forbidsStoring(status: Int) -> Bool {
        if mustUnderstand { return !Self.understoodStatuses.contains(status) }
        return noStore
    }
    /// The directives of every `Cache-Control` field line of `headers`.
    init(_ headers: PrismHTTPHeaders) {
        self.init(lines: headers.values(for: "Cache-Control"))
    }

    /// The directives of one field value (lines already joined by commas), or none.
    init(_ header: String?) {
        self.init(lines: header.map { [$0] } ?? [])
    }

    private init(lines: [String]) {
        var seenMaxAge = false
        for line in lines {
            for directive in Self.directives(line) {
                switch directive.name {
                case "max-age":
                    guard !seenMaxAge else { continue }
                    seenMaxAge = true
                    if let value = directive.value.flatMap(HTTPFreshness.deltaSeconds) {
                        maxAge = value
                    } else {
                        maxAgeIsInvalid = true
                    }
                case "no-store": noStore = true
                case "no-cache":
                    if let fields = directive.value, !fields.trimmingCharacters(in: .whitespaces).isEmpty {
                        for field in fields.split(separator: ",") {
                            noCacheFields.insert(field.trimmingCharacters(in: .whitespaces).lowercased())
                        }
                    } else {
                        noCache = true
                    }
                case "must-revalidate", "proxy-revalidate": mustRevalidate = true
                case "must-understand": mustUnderstand = true
                case "public": isPublic = true
                case "stale-while-revalidate" where staleWhileRevalidate == nil:
                    staleWhileRevalidate = directive.value.flatMap(HTTPFreshness.deltaSeconds)
                case "stale-if-error" where staleIfError == nil:
                    staleIfError = directive.value.flatMap(HTTPFreshness.deltaSeconds)
                default: break
                }
            }
        }
    }

    /// The members of a comma-separated field value, split at commas outside quoted strings
    /// (a quoted string's `\"` and `\\` are quoted pairs, RFC 9110 §5.6.4), untrimmed.
    static func members(_ value: String) -> [Substring] {
        var members: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var escaped = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                members.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        members.append(value[start...])
        return members
    }

    /// The directives of a field value: lowercased names, values without their quotes, each
    /// quoted pair (`\"`, `\\`) read as the character after its backslash (RFC 9110 §5.6.4).
    static func directives(_ value: String) -> [(name: String, value: String?)] {
        members(value).compactMap { member in
            let parts = member.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            guard !name.isEmpty else { return nil }
            guard parts.count > 1 else { return (name, nil) }
            let text = parts[1].trimmingCharacters(in: .whitespaces)
            guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return (name, text) }
            var unquoted = ""
            var escaped = false
            for character in text.dropFirst().dropLast() {
                if !escaped && character == "\\" {
                    escaped = true
                } else {
                    unquoted.append(character)
                    escaped = false
                }
            }
            return (name, unquoted)
        }
    }
}

/// The directives of a request's own `Cache-Control` that a private cache acts on
/// (RFC 9111 §5.2.1, RFC 5861 §4), and `Pragma: no-cache` when the request has no
/// `Cache-Control` (§5.4).
///
/// | Directive | What the cache does |
/// | --- | --- |
/// | `no-cache`, `max-age=0` | Asks the server before using a stored response, whatever the policy |
/// | `max-age=N` | Uses a stored response only if it is at most N seconds old |
/// | `min-fresh=N` | Uses a stored response only if it stays fresh for N more seconds |
/// | `max-stale[=N]` | Uses a stale response (at most N seconds stale; any, without N) without asking, unless the response forbids it |
/// | `stale-if-error=N` | When asking the server fails, uses a response at most N seconds stale |
/// | `only-if-cached` | Never asks the server: a stored response the policy may serve, else a 504 |
/// | `no-store` | Neither reads nor stores (``PrismHTTPRequest/isCacheable``) |
/// | `Pragma: no-cache` | As `no-cache`, unless the request has a `Cache-Control` |
///
/// A directive given twice counts the first time; one whose value is not delta-seconds is
/// ignored (`max-stale` without a value means any staleness).
struct RequestCacheControl {
    var noCache = false
    var onlyIfCached = false
    var maxAge: Int?
    var minFresh: Int?
    var maxStale: Int?
    var staleIfError: Int?

    /// No directives: a request whose headers are not read as directives (an operation's).
    init() {}

    /// The directives of `headers`.
    init(_ headers: PrismHTTPHeaders) {
        let lines = headers.values(for: "Cache-Control")
        if lines.isEmpty {
            noCache = headers.values(for: "Pragma").contains { value in
                CacheControl.directives(value).contains { $0.name == "no-cache" }
            }
            return
        }
        for line in lines {
            for directive in CacheControl.directives(line) {
                let seconds = directive.value.flatMap(HTTPFreshness.deltaSeconds)
                switch directive.name {
                case "no-cache": noCache = true
                case "only-if-cached": onlyIfCached = true
                case "max-age" where maxAge == nil:
                    maxAge = seconds
                    if seconds == 0 { noCache = true }
                case "min-fresh" where minFresh == nil: minFresh = seconds
                case "max-stale" where maxStale == nil:
                    maxStale = directive.value == nil ? Int.max : seconds
                case "stale-if-error" where staleIfError == nil: staleIfError = seconds
                default: break
                }
            }
        }
    }

    /// Whether a fresh `entry` answers the request without asking the server: not when the
    /// request asks for a younger one (`max-age`) or one that stays fresh longer (`min-fresh`).
    func acceptsFresh(_ entry: PrismCacheEntry) -> Bool {
        if noCache { return false }
        if let maxAge, entry.age > .seconds(maxAge) { return false }
        if let minFresh, entry.remainingFreshness < .seconds(minFresh) { return false }
        return true
    }

}
