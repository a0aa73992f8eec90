import Foundation
import PrismCache
import PrismSupport

/// What HTTP stores of a response, and what a stored response says (RFC 9111 §3, §4).
extension PrismCacheEntry {
    /// Statuses cacheable by default.
    static let cacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

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
    init?(
        storing response: PrismHTTPResponse, request: PrismHTTPRequest, cacheInterval: Duration?,
        requestTime: Double, responseTime: Double
    ) {
        let status = response.statusCode
        guard (200..<600).contains(status), status != 206, status != 304 else { return nil }
        let control = CacheControl(response.headers)
        if control.forbidsStoring(status: status) { return nil }
        guard let varyNames = response.headers.varyNames else { return nil }
        let explicit = control.maxAge != nil || control.maxAgeIsInvalid || response.headers.contains("Expires")
        guard Self.cacheableStatuses.contains(status) || explicit || control.isPublic else { return nil }
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
        self.init(
            data: response.body,
            statusCode: status,
            fields: Self.storedFields(of: response.headers).filter {
                !control.noCacheFields.contains($0.name.lowercased())
            },
            ttl: ttl,
            initialAge: HTTPFreshness.duration(age),
            varyingRequestHeaders: request.values(ofVaried: varyNames)
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
        var dropped = Self.hopByHop
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

    /// The header names this stored response varies on, lowercased; nil for `Vary: *`.
    var varyNames: [String]? {
        header("Vary").flatMap { PrismHTTPHeaders(["Vary": $0]).varyNames }
    }

    /// Whether this entry may be served to `request`: the request sends the same values for every
    /// header the stored response varies on (RFC 9111 §4.1).
    func matches(_ request: PrismHTTPRequest) -> Bool {
        guard let vary = header("Vary") else { return true }
        guard let names = PrismHTTPHeaders(["Vary": vary]).varyNames else { return false }
        return request.values(ofVaried: names) == varyingRequestHeaders
    }

    /// How long this entry has been stale; zero while it is fresh.
    var staleness: Duration {
        max(.zero, .zero - remainingFreshness)
    }

    var canRevalidate: Bool {
        etag != nil || lastModified != nil
    }

    /// The one byte range `request` asks of `entry`'s body (RFC 9110 §14.1.2: `bytes=a-b`,
    /// `bytes=a-`, `bytes=-n`), when `entry` is a complete `200` to a `GET` and the request's
    /// `If-Range`, if any, matches it (§13.1.5: its strong `ETag`, or its `Last-Modified`);
    /// nil to answer with the whole response, as a server may: several ranges, another unit, a
    /// range that is not satisfiable or not understood.
    func byteRange(for request: PrismHTTPRequest) -> Range<Int>? {
        guard request.method == .get, statusCode == 200 else { return nil }
        let lines = request.headers.values(for: "Range")
        guard lines.count == 1 else { return nil }
        if let ifRange = request.headers["If-Range"]?.trimmingCharacters(in: .whitespaces) {
            let matches =
                ifRange.hasPrefix("\"")
                ? etag.map { $0.trimmingCharacters(in: .whitespaces) == ifRange } ?? false
                : lastModified.map { HTTPDate.parse($0) != nil && HTTPDate.parse($0) == HTTPDate.parse(ifRange) }
                    ?? false
            guard matches else { return nil }
        }
        let value = lines[0].trimmingCharacters(in: .whitespaces)
        guard value.count > 6, value.prefix(6).lowercased() == "bytes=" else { return nil }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let length = data.count
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

    /// The fields of a 304 that update the stored entry: every field it carries but the
    /// hop-by-hop ones and `Content-Length`, which describe the 304 itself (RFC 9111 §3.2, §4.3.4).
    static func refreshedFields(from notModified: PrismHTTPResponse) -> [PrismCacheEntry.Field] {
        storedFields(of: notModified.headers).filter { $0.name.lowercased() != "content-length" }
    }

    /// The stored fields of this entry as a 304's `fields` update them: every line of a field the
    /// 304 carries replaced by its lines.
    func updatedHeaders(by fields: [PrismCacheEntry.Field]) -> PrismHTTPHeaders {
        let replaced = Set(fields.map { $0.name.lowercased() })
        let kept = self.fields.filter { !replaced.contains($0.name.lowercased()) }
        return PrismHTTPHeaders((kept + fields).map { PrismHTTPHeaders.Field(name: $0.name, value: $0.value) })
    }

    /// The time to live after a 304: the endpoint's `cacheInterval` for a 2xx, else the
    /// freshness of the stored fields updated by the 304's (``HTTPFreshness``).
    func ttlAfterRevalidation(
        _ notModified: PrismHTTPResponse, cacheInterval: Duration?, requestTime: Double, responseTime: Double
    ) -> Duration {
        let fields = updatedHeaders(by: Self.refreshedFields(from: notModified))
        if CacheControl(fields).noCache { return .zero }
        if let cacheInterval, (200..<300).contains(statusCode) { return cacheInterval }
        guard let lifetime = HTTPFreshness.lifetime(of: fields, status: statusCode, responseTime: responseTime)
        else { return .zero }
        // The age is the 304's: the stored response's own Age is not part of it.
        let age = HTTPFreshness.ageOnArrival(
            of: notModified.headers, requestTime: requestTime, responseTime: responseTime)
        return HTTPFreshness.duration(lifetime - age)
    }
}

extension PrismHTTPResponse {
    /// The response `entry` holds, for `request`, from `source`: its field lines as received,
    /// and, unless the server just confirmed it (``PrismResponseSource/revalidated``), an `Age` of
    /// its current age in whole seconds, replacing the stored one (RFC 9111 §4, §5.1).
    init(cached entry: PrismCacheEntry, request: PrismHTTPRequest, source: PrismResponseSource = .cache) {
        let validated = source == .revalidated
        var fields: [PrismHTTPHeaders.Field] = []
        fields.reserveCapacity(entry.fields.count + 1)
        for field in entry.fields where validated || !Self.isAge(field.name) {
            fields.append(PrismHTTPHeaders.Field(name: field.name, value: field.value))
        }
        let age = entry.age
        if !validated {
            let seconds = min(max(0, age.components.seconds), Int64(HTTPFreshness.deltaSecondsCap))
            fields.append(PrismHTTPHeaders.Field(name: "Age", value: String(seconds)))
        }
        self.init(
            statusCode: entry.statusCode, headers: PrismHTTPHeaders(fields), body: entry.data, url: request.url,
            request: request)
        if let range = entry.byteRange(for: request) {
            // A complete stored response answers a range request with the part asked for
            // (RFC 9111 §3.4, RFC 9110 §14.2, §15.3.7).
            statusCode = 206
            body = entry.data.subdata(in: range)
            if headers.contains("Content-Length") { headers["Content-Length"] = String(range.count) }
            headers["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(entry.data.count)"
        }
        self.source = source
        self.age = age
    }

    private static func isAge(_ name: String) -> Bool {
        name.utf8.count == 3 && name.lowercased() == "age"
    }

    /// The answer to an `only-if-cached` request that nothing stored can answer: a 504, as
    /// RFC 9111 §5.2.1.7 says, and nothing sent.
    static func notCached(_ request: PrismHTTPRequest) -> PrismHTTPResponse {
        PrismHTTPResponse(
            statusCode: 504, headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Data("Not in the cache, and the request said only-if-cached.".utf8), url: request.url,
            request: request)
    }
}
