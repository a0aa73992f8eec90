#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A cached HTTP response: its body, status, header fields, how long it stays fresh, how old it
/// was when stored, and the validators that let a client revalidate it when it is stale.
///
/// ```swift
/// let entry = PrismCacheEntry(data: responseData, statusCode: 200, ttl: .seconds(300))
/// await cache.set(entry, for: "github/users/octocat")
/// ```
///
/// The header fields keep the order and the repetition they arrived with (two `Set-Cookie`
/// lines stay two ``Field``s); ``headers`` is the same fields as a dictionary, repeated ones
/// joined. An entry is a value: copying one copies a reference to its body and fields, never the
/// bytes.
public struct PrismCacheEntry: Sendable, Equatable {
    /// One header field line of the stored response.
    public struct Field: Sendable, Hashable {
        /// The field's name, as received.
        public var name: String
        /// The field's value, as received.
        public var value: String

        /// A field line `name: value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// What does not change as an entry is read, behind one reference: a lookup copies the
    /// entry without touching each of these.
    private final class Content: Sendable {
        let data: Data
        let statusCode: Int
        let fields: [Field]
        let varyingRequestHeaders: [String: String]

        init(data: Data, statusCode: Int, fields: [Field], varyingRequestHeaders: [String: String]) {
            self.data = data
            self.statusCode = statusCode
            self.fields = fields
            self.varyingRequestHeaders = varyingRequestHeaders
        }

        func with(
            data: Data? = nil, statusCode: Int? = nil, fields: [Field]? = nil,
            varyingRequestHeaders: [String: String]? = nil
        ) -> Content {
            Content(
                data: data ?? self.data, statusCode: statusCode ?? self.statusCode, fields: fields ?? self.fields,
                varyingRequestHeaders: varyingRequestHeaders ?? self.varyingRequestHeaders)
        }
    }

    private var content: Content

    /// The response body.
    public var data: Data {
        get { content.data }
        set { content = content.with(data: newValue) }
    }

    /// The response's HTTP status code.
    public var statusCode: Int {
        get { content.statusCode }
        set { content = content.with(statusCode: newValue) }
    }

    /// The response's header field lines, in the order received, a repeated field as separate
    /// lines.
    public var fields: [Field] {
        get { content.fields }
        set { content = content.with(fields: newValue) }
    }

    /// The response headers as a dictionary by name as first received; the lines of a repeated
    /// field are joined with ", ". Setting it replaces ``fields``. Prefer ``fields`` and
    /// ``header(_:)``: a field such as `Set-Cookie` cannot be joined.
    public var headers: [String: String] {
        get {
            var result: [String: String] = [:]
            var names: [String: String] = [:]
            for field in content.fields {
                let lowered = field.name.lowercased()
                if let name = names[lowered] {
                    result[name] = result[name]! + ", " + field.value
                } else {
                    names[lowered] = field.name
                    result[field.name] = field.value
                }
            }
            return result
        }
        set { fields = Self.fields(of: newValue) }
    }

    /// How long after it is stored the entry is fresh. After that, ``PrismResponseCache/get(for:)-(String)``
    /// returns nil, but the entry stays available for revalidation until it is evicted.
    public var ttl: Duration

    /// How old the response already was when it was stored (its `Age` and the time it spent
    /// on the way, RFC 9111 §4.2.3); zero for a response made on the spot.
    public var initialAge: Duration

    /// How long the entry has been in the cache: set by the cache on every entry a lookup or
    /// `get` returns, zero on an entry that was not read from a cache.
    public internal(set) var timeInCache: Duration = .zero

    /// The response's age now: ``initialAge`` plus ``timeInCache``, what a cache sends as `Age`.
    public var age: Duration { initialAge + timeInCache }

    /// How much longer the entry stays fresh (``ttl`` less ``timeInCache``): negative by as much
    /// as it is stale.
    public var remainingFreshness: Duration { ttl - timeInCache }

    /// The values the request that stored the entry sent for the headers its response varies on
    /// (`Vary`), by lowercased name; a header the request did not send is absent. An HTTP client
    /// serves the entry only to a request that sends the same values.
    public var varyingRequestHeaders: [String: String] {
        get { content.varyingRequestHeaders }
        set { content = content.with(varyingRequestHeaders: newValue) }
    }

    /// Creates an entry that is fresh for `ttl` after it is stored.
    ///
    /// - Parameters:
    ///   - data: The response body.
    ///   - statusCode: The response's status code.
    ///   - headers: The response headers (in no particular order: use
    ///     ``init(data:statusCode:fields:ttl:initialAge:varyingRequestHeaders:)`` to keep it).
    ///   - ttl: How long after it is stored the entry is fresh.
    ///   - varyingRequestHeaders: The request's values of the headers named in the response's
    ///     `Vary`, by lowercased name.
    public init(
        data: Data,
        statusCode: Int,
        headers: [String: String] = [:],
        ttl: Duration,
        varyingRequestHeaders: [String: String] = [:]
    ) {
        self.init(
            data: data, statusCode: statusCode, fields: Self.fields(of: headers), ttl: ttl,
            varyingRequestHeaders: varyingRequestHeaders)
    }

    /// Creates an entry of the response's field lines as received, fresh for `ttl` after it is
    /// stored.
    ///
    /// - Parameters:
    ///   - data: The response body.
    ///   - statusCode: The response's status code.
    ///   - fields: The response's header field lines, in order, a repeated field as separate lines.
    ///   - ttl: How long after it is stored the entry is fresh.
    ///   - initialAge: How old the response was when it arrived (RFC 9111 §4.2.3).
    ///   - varyingRequestHeaders: The request's values of the headers named in the response's
    ///     `Vary`, by lowercased name.
    public init(
        data: Data,
        statusCode: Int,
        fields: [Field],
        ttl: Duration,
        initialAge: Duration = .zero,
        varyingRequestHeaders: [String: String] = [:]
    ) {
        self.content = Content(
            data: data, statusCode: statusCode, fields: fields, varyingRequestHeaders: varyingRequestHeaders)
        self.ttl = ttl
        self.initialAge = initialAge
    }

    /// The `ETag` header, for `If-None-Match`.
    public var etag: String? { header("ETag") }

    /// The `Last-Modified` header, for `If-Modified-Since`.
    public var lastModified: String? { header("Last-Modified") }

    /// The value of the header called `name`, compared without regard to case; the lines of a
    /// repeated field joined with ", ".
    public func header(_ name: String) -> String? {
        // No array for the usual answer, one line or none: this runs on every cache hit (`Vary`).
        var found: String?
        var joined: String?
        for field in content.fields where Self.sameName(field.name, name) {
            if let first = found {
                joined = (joined ?? first) + ", " + field.value
            } else {
                found = field.value
            }
        }
        return joined ?? found
    }

    /// The values of every line of the field called `name`, in order, compared without regard
    /// to case.
    public func values(for name: String) -> [String] {
        content.fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether two field names are the same, ASCII letters compared without regard to case.
    private static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        for (left, right) in zip(lhs.utf8, rhs.utf8) where left != right {
            let lower = left | 0x20
            guard lower == right | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        }
        return true
    }

    /// What the entry costs against a byte limit: its body, plus the bytes of its fields and
    /// of its varying request headers (so that a response with huge headers cannot slip past
    /// the limit).
    public var cost: Int {
        var total = data.count
        for field in content.fields { total += field.name.utf8.count + field.value.utf8.count }
        for (name, value) in varyingRequestHeaders { total += name.utf8.count + value.utf8.count }
        return total
    }

    /// Whether the entries hold the same response, lifetime and initial age. ``timeInCache`` is
    /// not compared: it says when the entry was read, not what it is.
    public static func == (lhs: PrismCacheEntry, rhs: PrismCacheEntry) -> Bool {
        guard lhs.ttl == rhs.ttl, lhs.initialAge == rhs.initialAge else { return false }
        if lhs.content === rhs.content { return true }
        return lhs.content.statusCode == rhs.content.statusCode && lhs.content.fields == rhs.content.fields
            && lhs.content.varyingRequestHeaders == rhs.content.varyingRequestHeaders
            && lhs.content.data == rhs.content.data
    }

    private static func fields(of headers: [String: String]) -> [Field] {
        // A dictionary has no order: sorted by name, so that the same headers make the same fields.
        headers.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
    }
}
