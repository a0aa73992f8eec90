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
/// | `no-store` | Neither reads nor stores (``HTTPCaching/isCacheable(_:)``) |
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

/// HTTP caching rules (RFC 9111, the parts a private client cache needs), plus the rule that
/// keeps users apart: an entry is keyed on the request's credentials too.
enum HTTPCaching {
    /// Statuses cacheable by default.
    static let cacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The cache key of `request` as it is sent (after the interceptors and the authenticator):
    /// its method, its URL and, when it carries credentials, a SHA-256 of them, so that a
    /// response to one credential is never served to another (another user after a sign-out,
    /// another token per endpoint). The credentials themselves never appear in the key.
    ///
    /// Made once per request and hashed once (``PrismCacheKey``), then used for the lookup, the
    /// store and the invalidation.
    static func key(for request: PrismHTTPRequest) -> PrismCacheKey {
        // A GET an endpoint built, unchanged since: its key was made with its URL.
        if let key = request.builtGetKey { return key }
        return key(method: request.method, url: request.url, digest: credentialDigest(request.headers))
    }

    /// The key of a request with `method` to `url` whose credentials hash to `digest`.
    static func key(method: PrismNetworkMethod, url: URL, digest: String?) -> PrismCacheKey {
        let url = url.absoluteString
        let method = method.rawValue
        // One allocation, sized beforehand.
        var text = ""
        text.reserveCapacity(method.utf8.count + 1 + url.utf8.count + (digest.map { 13 + $0.utf8.count } ?? 0))
        text += method
        text += " "
        text += url
        if let digest {
            text += " credentials:"
            text += digest
        }
        return PrismCacheKey(text)
    }

    /// A SHA-256 of the credential-bearing headers (`Authorization`, `Proxy-Authorization`,
    /// `Cookie`, and every header ``PrismHTTPRedaction`` treats as secret), or nil when there
    /// are none.
    static func credentialDigest(_ headers: PrismHTTPHeaders) -> String? {
        var credentials: [(name: String, value: String)] = []
        for field in headers where PrismHTTPRedaction.isSensitive(field.name) {
            credentials.append((field.name.lowercased(), field.value))
        }
        guard !credentials.isEmpty else { return nil }
        credentials.sort { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        var hasher = SHA256()
        for (name, value) in credentials {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: Data([0]))
            hasher.update(data: Data(value.utf8))
            hasher.update(data: Data([0]))
        }
        return Hexadecimal.lowercase(hasher.finalize())
    }

    /// Whether `exchange` invalidates stored responses: a method that is not safe (or not known
    /// to be) answered with a non-error status (RFC 9111 §4.4).
    static func invalidates(_ exchange: Exchange) -> Bool {
        !exchange.sent.method.isSafe && (200..<400).contains(exchange.response.statusCode)
    }

    /// The URLs such an answer invalidates: its target, and its `Location` and
    /// `Content-Location` when they are on the same origin (§4.4: another origin's entries are
    /// not its to drop).
    static func invalidatedURLs(by exchange: Exchange) -> [URL] {
        let target = exchange.sent.url
        var urls = [target]
        for name in ["Location", "Content-Location"] {
            guard let value = exchange.response.headers[name],
                let url = URL(string: value, relativeTo: exchange.response.url)?.absoluteURL,
                url.scheme?.lowercased() == target.scheme?.lowercased(),
                url.host?.lowercased() == target.host?.lowercased(), url.port == target.port
            else { continue }
            urls.append(url)
        }
        return urls
    }

    /// Whether `key` is the key of a stored `GET` or `HEAD` response of one of `urls`, with any
    /// credentials (``key(for:)``).
    static func isKey(_ key: String, ofAny urls: [String]) -> Bool {
        for url in urls {
            for method in ["GET ", "HEAD "] {
                let base = method + url
                if key == base || key.hasPrefix(base + " credentials:") || key.hasPrefix(base + " vary:") {
                    return true
                }
            }
        }
        return false
    }

    /// The answer to an `only-if-cached` request that nothing stored can answer: a 504, as
    /// RFC 9111 §5.2.1.7 says, and nothing sent.
    static func notCached(_ request: PrismHTTPRequest) -> PrismHTTPResponse {
        PrismHTTPResponse(
            statusCode: 504, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Data("Not in the cache, and the request said only-if-cached.".utf8), url: request.url,
            request: request)
    }

    static func isCacheable(_ request: PrismHTTPRequest) -> Bool {
        (request.method == .get || request.method == .head) && !CacheControl(request.headers).noStore
    }

    /// The header names a stored response varies on, lowercased; nil for `Vary: *`.
    static func varyNames(of entry: PrismCacheEntry) -> [String]? {
        entry.header("Vary").flatMap { varyNames(PrismHTTPHeaders(["Vary": $0])) }
    }

    /// The header names `response` varies on, lowercased; nil for `Vary: *` (never reusable).
    static func varyNames(_ headers: PrismHTTPHeaders) -> [String]? {
        var names: [String] = []
        for value in headers.values(for: "Vary") {
            for name in value.split(separator: ",") {
                let name = name.trimmingCharacters(in: .whitespaces).lowercased()
                if name == "*" { return nil }
                if !name.isEmpty { names.append(name) }
            }
        }
        return names
    }

    /// The values `request` sends for `names`, joined as one field would be, trimmed; a secret
    /// header's value (`Vary: Authorization`) as a SHA-256 only, so that the entry never holds
    /// the credential itself.
    static func values(of names: [String], in request: PrismHTTPRequest) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            let sent = request.headers.values(for: name)
            guard !sent.isEmpty else { continue }
            let value = normalized(sent, of: name)
            if PrismHTTPRedaction.isSensitive(name) {
                values[name] = "sha256:" + (credentialDigest(PrismHTTPHeaders([name: value])) ?? "")
            } else {
                values[name] = value
            }
        }
        return values
    }

    /// Headers whose members are case-insensitive tokens in no particular order: the same
    /// preferences written differently select the same variant.
    private static let unorderedTokenLists: Set<String> = ["accept-language", "accept-encoding"]

    /// The lines of a header as one value that compares equal for equivalent requests (RFC 9111
    /// §4.1 lets a cache normalise): members split at commas outside quotes, trimmed, empty ones
    /// dropped, joined with ", "; for `Accept-Language` and `Accept-Encoding`, lowercased and
    /// sorted too.
    static func normalized(_ lines: [String], of name: String) -> String {
        var members: [String] = []
        for line in lines {
            for member in CacheControl.members(line) {
                let trimmed = member.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { members.append(trimmed) }
            }
        }
        if unorderedTokenLists.contains(name.lowercased()) {
            members = members.map { $0.lowercased().replacingOccurrences(of: " ", with: "") }.sorted()
        }
        return members.joined(separator: ", ")
    }

    /// The key one variant of a response that varies is stored under, beside the most recent one
    /// under `key` itself: `key`, then `vary:` and a SHA-256 of what the request sent for the
    /// headers it varies on (RFC 9111 §4.1: a cache may keep several).
    static func variantKey(of key: PrismCacheKey, values: [String: String]) -> PrismCacheKey {
        var hasher = SHA256()
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: Data([0]))
            hasher.update(data: Data(value.utf8))
            hasher.update(data: Data([0]))
        }
        return PrismCacheKey(key.string + " vary:" + Hexadecimal.lowercase(hasher.finalize()))
    }

    /// Whether `key` is one of the variants kept beside `primary` (``variantKey(of:values:)``).
    static func isVariant(_ key: PrismCacheKey, of primary: PrismCacheKey) -> Bool {
        key.string.hasPrefix(primary.string + " vary:")
    }

    /// Whether `entry` may be served to `request`: the request sends the same values for every
    /// header the stored response varies on (RFC 9111 §4.1).
    static func varyMatches(_ entry: PrismCacheEntry, _ request: PrismHTTPRequest) -> Bool {
        guard let vary = entry.header("Vary") else { return true }
        guard let names = varyNames(PrismHTTPHeaders(["Vary": vary])) else { return false }
        return values(of: names, in: request) == entry.varyingRequestHeaders
    }

    /// The statuses `stale-if-error` covers (RFC 5861 §4).
    static let staleIfErrorStatuses: Set<Int> = [500, 502, 503, 504]

    /// How long `entry` has been stale; zero while it is fresh.
    static func staleness(of entry: PrismCacheEntry) -> Duration {
        max(.zero, .zero - entry.remainingFreshness)
    }

    /// The entry to store for `response` to `request` (as sent), or nil when it must not be
    /// stored.
    ///
    /// The time to live is the endpoint's `cacheInterval` for a 2xx (an error status is cached
    /// only as the server's own headers allow), else the response's freshness lifetime less its
    /// age on arrival (``HTTPFreshness``: `max-age`, `Expires`, a heuristic from
    /// `Last-Modified`); a response with only validators (`ETag`, `Last-Modified`) is stored
    /// stale, to be revalidated; `no-cache` stores it stale; `no-store` (on any field line) and
    /// `Vary: *` store nothing. A status a cache may not reuse by default is stored only with an
    /// explicit lifetime (RFC 9111 §3); `206` and `304` never are. Hop-by-hop fields are not
    /// stored (§3.1).
    static func entry(
        for response: PrismHTTPResponse, request: PrismHTTPRequest, cacheInterval: Duration?,
        requestTime: Double, responseTime: Double
    ) -> PrismCacheEntry? {
        let status = response.statusCode
        guard (200..<600).contains(status), status != 206, status != 304 else { return nil }
        let control = CacheControl(response.headers)
        if control.forbidsStoring(status: status) { return nil }
        guard let varyNames = varyNames(response.headers) else { return nil }
        let explicit = control.maxAge != nil || control.maxAgeIsInvalid || response.headers.contains("Expires")
        guard cacheableStatuses.contains(status) || explicit || control.isPublic else { return nil }
        let hasValidators = response.headers.contains("ETag") || response.headers.contains("Last-Modified")
        let ttl: Duration
        if control.noCache {
            ttl = .zero
        } else if let cacheInterval, response.isSuccess {
            ttl = cacheInterval
        } else if let fresh = HTTPFreshness.timeToLive(
            of: response.headers, status: status, requestTime: requestTime, responseTime: responseTime)
        {
            ttl = fresh
        } else if hasValidators {
            ttl = .zero
        } else {
            return nil
        }
        // Stale on arrival, it is still kept when it can be revalidated, or when its lifetime
        // was given explicitly: a request's max-stale, stale-if-error or an unreachable server
        // may still let it answer.
        guard ttl > .zero || hasValidators || explicit else { return nil }
        let age = HTTPFreshness.ageOnArrival(of: response.headers, requestTime: requestTime, responseTime: responseTime)
        return PrismCacheEntry(
            data: response.body,
            statusCode: status,
            fields: storedFields(of: response.headers).filter { !control.noCacheFields.contains($0.name.lowercased()) },
            ttl: ttl,
            initialAge: HTTPFreshness.duration(age),
            varyingRequestHeaders: values(of: varyNames, in: request)
        )
    }

    /// Fields a cache never stores (RFC 9111 §3.1): the connection's own (RFC 9110 §7.6.1), and
    /// those meant for the proxy alone.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "trailer",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
    ]

    /// `headers`' field lines in order, without hop-by-hop fields, the fields `Connection`
    /// names, and `Age` (the entry keeps the age on arrival, and a hit says its age now).
    static func storedFields(of headers: PrismHTTPHeaders) -> [PrismCacheEntry.Field] {
        var dropped = hopByHop
        dropped.insert("age")
        for value in headers.values(for: "Connection") {
            for name in value.split(separator: ",") {
                dropped.insert(name.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        var fields: [PrismCacheEntry.Field] = []
        fields.reserveCapacity(headers.count)
        for field in headers where !dropped.contains(field.name.lowercased()) {
            fields.append(PrismCacheEntry.Field(name: field.name, value: field.value))
        }
        return fields
    }

    /// `request` with the conditional headers that revalidate `entry`.
    static func conditional(_ request: PrismHTTPRequest, revalidating entry: PrismCacheEntry) -> PrismHTTPRequest {
        var request = request
        if let etag = entry.etag { request.headers["If-None-Match"] = entityTag(etag) }
        if let lastModified = entry.lastModified { request.headers["If-Modified-Since"] = lastModified }
        return request
    }

    /// A stored `ETag` as an entity tag (RFC 9110 §8.8.3): as it is when quoted (`"v1"`,
    /// `W/"v1"`); quoted when a server sent it bare (`v1`, which many servers do), so that an
    /// origin comparing the `If-None-Match` it receives with its quoted tag finds them equal.
    static func entityTag(_ etag: String) -> String {
        let trimmed = etag.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("\"") || trimmed.hasPrefix("W/\"") || trimmed.isEmpty || trimmed.contains("\"") {
            return trimmed
        }
        return "\"" + trimmed + "\""
    }

    static func canRevalidate(_ entry: PrismCacheEntry) -> Bool {
        entry.etag != nil || entry.lastModified != nil
    }

    /// The response `entry` holds, for `request`, from `source`: its field lines as received,
    /// and, unless the server just confirmed it (``PrismResponseSource/revalidated``), an `Age` of
    /// its current age in whole seconds, replacing the stored one (RFC 9111 §4, §5.1).
    static func response(from entry: PrismCacheEntry, request: PrismHTTPRequest, source: PrismResponseSource = .cache)
        -> PrismHTTPResponse
    {
        let validated = source == .revalidated
        var fields: [PrismHTTPHeaders.Field] = []
        fields.reserveCapacity(entry.fields.count + 1)
        for field in entry.fields where validated || !isAge(field.name) {
            fields.append(PrismHTTPHeaders.Field(name: field.name, value: field.value))
        }
        let age = entry.age
        if !validated {
            let seconds = min(max(0, age.components.seconds), Int64(HTTPFreshness.deltaSecondsCap))
            fields.append(PrismHTTPHeaders.Field(name: "Age", value: String(seconds)))
        }
        var response = PrismHTTPResponse(
            statusCode: entry.statusCode, headers: PrismHTTPHeaders(fields), body: entry.data, url: request.url,
            request: request)
        if let range = byteRange(of: request, in: entry) {
            // A complete stored response answers a range request with the part asked for
            // (RFC 9111 §3.4, RFC 9110 §14.2, §15.3.7).
            response.statusCode = 206
            response.body = entry.data.subdata(in: range)
            if response.headers.contains("Content-Length") { response.headers["Content-Length"] = String(range.count) }
            response.headers["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(entry.data.count)"
        }
        response.source = source
        response.age = age
        return response
    }

    /// The one byte range `request` asks of `entry`'s body (RFC 9110 §14.1.2: `bytes=a-b`,
    /// `bytes=a-`, `bytes=-n`), when `entry` is a complete `200` to a `GET` and the request's
    /// `If-Range`, if any, matches it (§13.1.5: its strong `ETag`, or its `Last-Modified`);
    /// nil to answer with the whole response, as a server may: several ranges, another unit, a
    /// range that is not satisfiable or not understood.
    static func byteRange(of request: PrismHTTPRequest, in entry: PrismCacheEntry) -> Range<Int>? {
        guard request.method == .get, entry.statusCode == 200 else { return nil }
        let lines = request.headers.values(for: "Range")
        guard lines.count == 1 else { return nil }
        if let ifRange = request.headers["If-Range"]?.trimmingCharacters(in: .whitespaces) {
            let matches =
                ifRange.hasPrefix("\"")
                ? entry.etag.map { $0.trimmingCharacters(in: .whitespaces) == ifRange } ?? false
                : entry.lastModified.map { HTTPDate.parse($0) != nil && HTTPDate.parse($0) == HTTPDate.parse(ifRange) }
                    ?? false
            guard matches else { return nil }
        }
        let value = lines[0].trimmingCharacters(in: .whitespaces)
        guard value.count > 6, value.prefix(6).lowercased() == "bytes=" else { return nil }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let length = entry.data.count
        func number(_ text: String) -> Int? {
            guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(text) ?? Int.max
        }
        if first.isEmpty {
            guard let suffix = number(last), suffix > 0, length > 0 else { return nil }
            return max(0, length - suffix)..<length
        }
        guard let start = number(first), start < length else { return nil }
        if last.isEmpty { return start..<length }
        guard let end = number(last), end >= start else { return nil }
        return start..<(end >= length - 1 ? length : end + 1)
    }

    private static func isAge(_ name: String) -> Bool {
        name.utf8.count == 3 && name.lowercased() == "age"
    }

    /// The fields of a 304 that update the stored entry: every field it carries but the
    /// hop-by-hop ones and `Content-Length`, which describe the 304 itself (RFC 9111 §3.2, §4.3.4).
    static func refreshedFields(from notModified: PrismHTTPResponse) -> [PrismCacheEntry.Field] {
        storedFields(of: notModified.headers).filter { $0.name.lowercased() != "content-length" }
    }

    /// The stored fields of `entry` as a 304's `fields` update them: every line of a field the
    /// 304 carries replaced by its lines.
    static func updatedHeaders(of entry: PrismCacheEntry, by fields: [PrismCacheEntry.Field]) -> PrismHTTPHeaders {
        let replaced = Set(fields.map { $0.name.lowercased() })
        let kept = entry.fields.filter { !replaced.contains($0.name.lowercased()) }
        return PrismHTTPHeaders((kept + fields).map { PrismHTTPHeaders.Field(name: $0.name, value: $0.value) })
    }

    /// The time to live after a 304: the endpoint's `cacheInterval` for a 2xx, else the
    /// freshness of the stored fields updated by the 304's (``HTTPFreshness``).
    static func ttlAfterRevalidation(
        _ notModified: PrismHTTPResponse, entry: PrismCacheEntry, cacheInterval: Duration?, requestTime: Double,
        responseTime: Double
    ) -> Duration {
        let fields = updatedHeaders(of: entry, by: refreshedFields(from: notModified))
        if CacheControl(fields).noCache { return .zero }
        if let cacheInterval, (200..<300).contains(entry.statusCode) { return cacheInterval }
        guard let lifetime = HTTPFreshness.lifetime(of: fields, status: entry.statusCode, responseTime: responseTime)
        else { return .zero }
        // The age is the 304's: the stored response's own Age is not part of it.
        let age = HTTPFreshness.ageOnArrival(
            of: notModified.headers, requestTime: requestTime, responseTime: responseTime)
        return HTTPFreshness.duration(lifetime - age)
    }
}
