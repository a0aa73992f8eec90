import Foundation
@_spi(PrismInternals) import PrismCache

/// One request's way through a cache, as one value: the request as prepared, where its answer is
/// stored (its slot), what the lookup found there, and the request's own directives; the one
/// decision made of them (``plan``) and the steps that carry it out (``store(_:)``,
/// ``revalidated(_:by:)``, ``servedAfterFailure(_:error:)``). The caller does what needs the
/// network and the log; every cache rule is here or in what it calls.
///
/// HTTP's `deliver` and `responses`, and PrismGraphQL's operations, each drive one. They differ
/// in the ``Rules`` they pass: HTTP's (RFC 9111, RFC 5861, and the request's own `Cache-Control`),
/// or an operation's (answers the caller stores under a key of its own; the request's headers
/// are not directives).
///
/// Exposed to Prism's own modules only (`@_spi(PrismInternals)`): not a stable API.
@_spi(PrismInternals)
public struct PrismCacheTransaction: Sendable {
    /// The rules a transaction follows.
    public struct Rules: Sendable {
        /// How an answer's key is made of the request as it was sent: HTTP's (method, URL,
        /// credentials), or the caller's.
        enum Keying: Sendable {
            case http
            case custom(@Sendable (PrismHTTPRequest) -> PrismCacheKey)
        }

        let keying: Keying
        /// Whether the request's own `Cache-Control` and `Pragma` are directives to the cache
        /// (RFC 9111 §5.2.1).
        let readsRequestDirectives: Bool

        /// HTTP's rules: RFC 9111 and RFC 5861 for what is stored, for how long, and when it
        /// answers; the request's own directives count.
        public static let http = Rules(keying: .http, readsRequestDirectives: true)

        /// An operation's rules (a GraphQL query): the caller makes the entry
        /// (``PrismCacheTransaction/store(body:statusCode:headers:sent:ttl:)``) and its key of the
        /// request as sent (`key`); the cache policy decides when a stored answer is served, and
        /// the request's headers are not directives.
        public static func operation(key: @escaping @Sendable (PrismHTTPRequest) -> PrismCacheKey) -> Rules {
            Rules(keying: .custom(key), readsRequestDirectives: false)
        }

        /// The key the answer to `request`, as it was sent, is stored under.
        public func key(of request: PrismHTTPRequest) -> PrismCacheKey {
            switch keying {
            case .http: PrismCacheKey.http(for: request)
            case .custom(let key): key(request)
            }
        }
    }

    /// What a request does with what was found (``PrismCacheTransaction/plan``).
    ///
    /// | found \ policy | none | `cacheThenNetwork` | `cacheFirst` | `staleWhileRevalidate` | `alwaysRevalidate`, `networkFirst` | `cacheOnly` | `networkOnly` |
    /// |---|---|---|---|---|---|---|---|
    /// | fresh | serve | serve | serve | serve | revalidate | serve | fetch |
    /// | stale, within its `stale-while-revalidate` window | serve and revalidate | revalidate | serve | serve and revalidate | revalidate | serve | fetch |
    /// | stale, may be served stale | revalidate | revalidate | serve | serve and revalidate | revalidate | serve | fetch |
    /// | stale, must be revalidated | revalidate | revalidate | revalidate | revalidate | revalidate | unavailable | fetch |
    /// | nothing | fetch | fetch | fetch | fetch | fetch | unavailable | fetch |
    ///
    /// "Fresh" is fresh as the request's own directives see it (a fresh entry its `no-cache`,
    /// `max-age` or `min-fresh` refuses is stale here); "may be served stale" and "within its
    /// window" are ``mayServe(stale:_:)``'s. Before the table: a stale entry the request's
    /// `max-stale` covers is served (`.stale(.requested)`). After it, with `only-if-cached`:
    /// what would be served is, and anything else is ``notCached``.
    public enum Plan: Sendable, Equatable {
        /// Answer with the entry; nothing goes to the network.
        case serve(PrismCacheEntry, PrismResponseSource)
        /// Answer with the stale entry at once, and revalidate it in the background.
        case serveAndRevalidate(PrismCacheEntry, PrismResponseSource)
        /// Ask the server before answering: conditionally when the entry has validators, and
        /// answer with the entry after a `304 Not Modified`.
        case revalidate(PrismCacheEntry)
        /// Nothing usable is cached (or the policy does not read the cache): fetch.
        case fetch
        /// Nothing usable is cached, and the policy forbids the network (`cacheOnly`).
        case unavailable
        /// Nothing usable is cached, and the request said `only-if-cached`: a `504`, nothing
        /// sent (RFC 9111 §5.2.1.7).
        case notCached
    }

    /// When a stale entry is asked to answer (``mayServe(stale:_:)``).
    enum StaleOccasion {
        /// Without asking the server, because the request's `max-stale` allows it.
        case requested
        /// Without asking the server, because the cache policy serves stale entries
        /// (`cacheFirst`, `cacheOnly`, `staleWhileRevalidate`, `cacheThenNetwork`'s first value).
        case unasked
        /// Without asking first, while a revalidation runs in the background: HTTP's own
        /// `stale-while-revalidate` (no policy).
        case whileRevalidating
        /// Asking the server failed: no answer at all (`disconnected`), or a server error.
        case afterFailure(disconnected: Bool)
    }

    let rules: Rules
    /// The request, as prepared for its first attempt: the lookup was keyed on it. (Not the
    /// whole prepared request: a cache hit copies no more than it needs.)
    let request: PrismHTTPRequest
    /// The endpoint's cache interval, which replaces a 2xx's lifetime.
    let cacheInterval: Duration?
    /// The cache policy: the request's own, or the operation's.
    let policy: PrismCachePolicy?
    /// Where the answer is stored: the cache, and the key the lookup used.
    var slot: CacheSlot
    /// What the lookup found (a `Vary` mismatch is a miss), as the request's own directives see
    /// it: a fresh entry they refuse is stale here (``refused``).
    var lookup: PrismCacheLookup
    /// The value a request of the same type decoded from the entry found, when one is kept.
    var decoded: (any Sendable)?
    /// The request's own directives (none under an operation's rules).
    let asked: RequestCacheControl
    /// Whether the request's directives refused a fresh entry (`no-cache`, `max-age`,
    /// `min-fresh`): it is asked about as a stale one would be, and never served unasked.
    let refused: Bool
    /// A background revalidation: a 5xx keeps the stale entry, and a cancelled one stores
    /// nothing.
    var isBackground = false

    /// Looks `prepared` up in `cache` (a `Vary` mismatch is a miss; another variant kept under
    /// a key of its own is looked for, RFC 9111 §4.1), with the value `decoding` kept beside
    /// the entry: the key is made (and hashed) once, and the cache's clock read once. Nothing
    /// is read under `networkOnly`.
    init(
        _ prepared: borrowing PrismPreparedRequest, in cache: PrismResponseCache, key: PrismCacheKey,
        decodedBy decoding: ObjectIdentifier?
    ) {
        self.init(
            prepared, rules: .http, policy: prepared.options.cachePolicy, in: cache, key: key, decodedBy: decoding)
    }

    /// An operation's transaction: `prepared` looked up in `cache` under `key`, with `rules`
    /// and the operation's cache `policy` (not the one `prepared` went to the network with).
    public init(
        operation prepared: borrowing PrismPreparedRequest, rules: Rules, policy: PrismCachePolicy?,
        in cache: PrismResponseCache,
        key: PrismCacheKey
    ) {
        self.init(prepared, rules: rules, policy: policy, in: cache, key: key, decodedBy: nil)
    }

    private init(
        _ prepared: borrowing PrismPreparedRequest, rules: Rules, policy: PrismCachePolicy?,
        in cache: PrismResponseCache,
        key: PrismCacheKey, decodedBy decoding: ObjectIdentifier?
    ) {
        self.rules = rules
        request = prepared.request
        cacheInterval = prepared.cacheInterval
        self.policy = policy
        slot = CacheSlot(cache: cache, key: key)
        lookup = .miss
        if self.policy != .networkOnly {
            // Read under the cache's lock, without a hop onto its actor: a hit stays on this
            // thread.
            (lookup, decoded) = cache.lookupNow(key, decodedBy: decoding)
            if let entry = lookup.entry, !entry.matches(request) {
                (lookup, decoded) = (.miss, nil)
                if let names = entry.varyNames, !names.isEmpty {
                    let variant = key.variant(
                        values: request.values(ofVaried: names))
                    let other = cache.lookupNow(variant, decodedBy: nil).lookup
                    if let stored = other.entry, stored.matches(request) {
                        lookup = other
                        slot.key = variant
                    }
                }
            }
        }
        asked = rules.readsRequestDirectives ? RequestCacheControl(request.headers) : RequestCacheControl()
        if case .fresh(let entry) = lookup, !asked.acceptsFresh(entry) {
            lookup = .stale(entry)
            refused = true
        } else {
            refused = false
        }
    }

    /// The entry found, if any.
    public var found: PrismCacheEntry? { lookup.entry }

    /// The entry found is of no use to the caller (an answer that no longer decodes): the
    /// transaction goes on as after a miss.
    public mutating func discardFound() {
        (lookup, decoded) = (.miss, nil)
    }

    /// The key the lookup used.
    public var key: PrismCacheKey { slot.key }

    // MARK: The decision

    /// What the request does with what was found (``Plan`` has the table).
    public var plan: Plan {
        if policy == .networkOnly { return .fetch }
        if case .fresh(let entry) = lookup, Self.servesFresh(policy) { return .serve(entry, .cache) }
        if case .stale(let entry) = lookup, mayServe(stale: entry, .requested) {
            return .serve(entry, .stale(.requested))
        }
        let plan: Plan
        switch (lookup, policy) {
        case (.fresh(let entry), _):
            // Fresh under a policy that asks first (alwaysRevalidate, networkFirst).
            plan = .revalidate(entry)
        case (.stale(let entry), .cacheOnly?):
            plan = mayServe(stale: entry, .unasked) ? .serve(entry, .stale(.policy)) : .unavailable
        case (.miss, .cacheOnly?):
            plan = .unavailable
        case (.stale(let entry), .cacheFirst?) where mayServe(stale: entry, .unasked):
            plan = .serve(entry, .stale(.policy))
        case (.stale(let entry), .staleWhileRevalidate?) where mayServe(stale: entry, .unasked):
            plan = .serveAndRevalidate(entry, .stale(.policy))
        case (.stale(let entry), nil) where mayServe(stale: entry, .whileRevalidating):
            plan = .serveAndRevalidate(entry, .stale(.staleWhileRevalidate))
        case (.stale(let entry), _):
            plan = .revalidate(entry)
        case (.miss, _):
            plan = .fetch
        }
        guard asked.onlyIfCached else { return plan }
        switch plan {
        case .serve(let entry, _), .serveAndRevalidate(let entry, _): return .serve(entry, .stale(.requested))
        case .revalidate, .fetch, .unavailable, .notCached: return .notCached
        }
    }

    /// The statuses `stale-if-error` covers (RFC 5861 §4).
    static let staleIfErrorStatuses: Set<Int> = [500, 502, 503, 504]

    /// Whether a request with `policy` is answered by a fresh cached response without asking
    /// the server (`alwaysRevalidate` and `networkFirst` ask first).
    static func servesFresh(_ policy: PrismCachePolicy?) -> Bool {
        switch policy {
        case .alwaysRevalidate?, .networkFirst?, .networkOnly?: false
        default: true
        }
    }

    /// The fresh entry found, when it answers without asking the server: the policy serves
    /// fresh entries and the request's directives accept it.
    var freshEntry: PrismCacheEntry? {
        guard case .fresh(let entry) = lookup, Self.servesFresh(policy) else { return nil }
        return entry
    }

    /// The one rule for serving a stale entry; every way through the cache asks it.
    ///
    /// Never an entry whose response said `no-cache` or `must-revalidate` (RFC 9111 §5.2.2.2,
    /// §5.2.2.4). Otherwise:
    ///
    /// | occasion | served when |
    /// |---|---|
    /// | ``StaleOccasion/requested`` | the request did not refuse a fresh entry, and its `max-stale` covers the staleness and its `max-age` the age |
    /// | ``StaleOccasion/unasked`` | the request did not refuse a fresh entry nor say `no-cache`, and its `max-age` (if any) covers the age |
    /// | ``StaleOccasion/whileRevalidating`` | as `unasked`, and within the response's `stale-while-revalidate` window (RFC 5861 §3) |
    /// | ``StaleOccasion/afterFailure(disconnected:)`` | `networkFirst`: within its staleness; `alwaysRevalidate`: never; else within the request's or the response's `stale-if-error` window (RFC 5861 §4), or, with no answer at all, any staleness (RFC 9111 §4.2.4) |
    func mayServe(stale entry: PrismCacheEntry, _ occasion: StaleOccasion) -> Bool {
        let control = CacheControl(entry.header("Cache-Control"))
        if control.noCache || control.mustRevalidate { return false }
        let staleness = entry.staleness
        let young = asked.maxAge.map { entry.age <= .seconds($0) } ?? true
        switch occasion {
        case .requested:
            guard !refused, !asked.noCache, let maxStale = asked.maxStale, young else { return false }
            return maxStale == Int.max || staleness <= .seconds(maxStale)
        case .unasked:
            return !refused && !asked.noCache && young
        case .whileRevalidating:
            guard !refused, !asked.noCache, let window = control.staleWhileRevalidate else { return false }
            return staleness <= .seconds(window)
        case .afterFailure(let disconnected):
            switch policy {
            case .networkFirst(let maxStale)?: return staleness <= maxStale
            case .alwaysRevalidate?: return false
            default: break
            }
            if disconnected { return true }
            if let window = asked.staleIfError, staleness <= .seconds(window) { return true }
            if let window = control.staleIfError, staleness <= .seconds(window) { return true }
            return false
        }
    }

    // MARK: The steps

    /// `entry` served from the cache with `source`, with the value kept beside it unless the
    /// request asks for a range of the body (a range is not the value decoded from all of it).
    func serving(_ entry: PrismCacheEntry, _ source: PrismResponseSource) -> Delivery {
        let decoded = decoded.flatMap { entry.byteRange(for: request) == nil ? $0 : nil }
        return .cached(entry, request: request, decoded: decoded, slot: slot, source: source)
    }

    /// The stored `entry`, when asking the server about it failed with `error` and the stale
    /// rule lets it answer; nil to fail. A background revalidation serves nothing.
    func servedAfterFailure(_ entry: PrismCacheEntry, error: PrismHTTPError) -> Delivery? {
        let disconnected = error.code == .connectionFailed || error.code == .timedOut
        guard !isBackground, disconnected || error.code == .retriesExhausted,
            mayServe(stale: entry, .afterFailure(disconnected: disconnected))
        else { return nil }
        return serving(entry, entry.remainingFreshness > .zero ? .cache : .stale(.networkFailed(error.code)))
    }

    /// The stored `entry`, when the server answered `response`, a server error (500, 502, 503,
    /// 504), and the stale rule lets the entry answer instead (RFC 5861 §4); nil otherwise.
    func servedAfterFailure(_ entry: PrismCacheEntry, response: PrismHTTPResponse) -> Delivery? {
        guard !isBackground, Self.staleIfErrorStatuses.contains(response.statusCode),
            mayServe(stale: entry, .afterFailure(disconnected: false))
        else { return nil }
        return serving(
            entry, entry.remainingFreshness > .zero ? .cache : .stale(.serverError(status: response.statusCode)))
    }

    /// The key of `request` as it was finally sent: the lookup's when it carries the
    /// credentials the key was made of, else made again (they were refreshed on the way).
    func key(of sent: PrismHTTPRequest) -> PrismCacheKey {
        sent.headers == request.headers ? slot.key : rules.key(of: sent)
    }

    /// Stores the response of `exchange` as HTTP allows, under the key of the request as it was
    /// finally sent: when the credentials were refreshed on the way, under the new ones (and
    /// the entry of the old ones goes). Returns where it is stored, or nil when it was not.
    @discardableResult
    func store(_ exchange: Exchange) async -> CacheSlot? {
        let key = key(of: exchange.sent)
        let cache = slot.cache
        if exchange.sent.method == .head, exchange.response.statusCode == 200 {
            await updateStoredGET(from: exchange, in: cache)
        }
        if key != slot.key, !slot.key.isVariant(of: key) {
            await cache.invalidate(key: slot.key)
        }
        let response = exchange.response
        // A redirect followed in the transport: the answer is the target's, not the response to
        // this URL, and must not be stored as if it were.
        guard response.url == exchange.sent.url else {
            await cache.invalidate(key: key)
            return nil
        }
        if let entry = PrismCacheEntry(
            storing: response, request: exchange.sent, cacheInterval: cacheInterval,
            requestTime: exchange.requestTime, responseTime: exchange.responseTime)
        {
            // Stored as the most recent response, and, when it varies, as its own variant too.
            let sentKey = key == slot.key ? PrismCacheKey.http(for: exchange.sent) : key
            let primary = key.isVariant(of: sentKey) ? sentKey : key
            await cache.set(entry, for: primary)
            if let names = response.headers.varyNames, !names.isEmpty {
                await cache.set(entry, for: primary.variant(values: entry.varyingRequestHeaders))
            }
            return CacheSlot(cache: cache, key: primary)
        } else if (!response.isSuccess && !Self.staleIfErrorStatuses.contains(response.statusCode))
            || CacheControl(response.headers).forbidsStoring(status: response.statusCode)
            || response.headers.varyNames == nil
        {
            // What the server says now replaces what was stored; a passing server error (500,
            // 502, 503, 504) does not: the stored response may still answer under stale-if-error.
            await cache.invalidate(key: key)
        }
        return nil
    }

    /// Stores an operation's answer (`body`, as it arrived with `statusCode` and `headers`, to
    /// the request as it was `sent`) for `ttl`: under the key of the request as sent, never
    /// under the one the lookup used when the credentials were refreshed on the way. It keeps
    /// the response's `Vary` and what the request sent for those headers (RFC 9111 §4.1); an
    /// answer that varies on everything (`Vary: *`) is not stored. With a `ttl` of zero it is
    /// stored already stale: only the policies that serve stale entries return it.
    public func store(body: Data, statusCode: Int, headers: PrismHTTPHeaders, sent: PrismHTTPRequest, ttl: Duration)
        async
    {
        guard let names = headers.varyNames else { return }
        var stored: [String: String] = [:]
        if !names.isEmpty { stored["Vary"] = headers.values(for: "Vary").joined(separator: ", ") }
        let entry = PrismCacheEntry(
            data: body, statusCode: statusCode, headers: stored, ttl: ttl,
            varyingRequestHeaders: sent.values(ofVaried: names))
        await slot.cache.set(entry, for: rules.key(of: sent))
    }

    /// After the server answered a revalidation of `entry` with `304 Not Modified` (`exchange`):
    /// the entry refreshed with the 304's fields and freshness, and served as revalidated (with
    /// the value kept beside it when the entry refreshed is the one it was decoded from).
    ///
    /// Only the entry of the credentials the 304 was sent with is refreshed: the variant the
    /// entry was found as, and the most recent response when it is that variant. Sent with
    /// other credentials (refreshed on the way), the confirmed body is kept under their key,
    /// never the old one's.
    func revalidated(_ entry: PrismCacheEntry, by exchange: Exchange) async -> Delivery {
        let response = exchange.response
        let ttl = entry.ttlAfterRevalidation(
            response, cacheInterval: cacheInterval,
            requestTime: exchange.requestTime, responseTime: exchange.responseTime)
        let primary = PrismCacheKey.http(for: exchange.sent)
        let key = slot.key.isVariant(of: primary) ? slot.key : primary
        let cache = slot.cache
        let fields = PrismCacheEntry.refreshedFields(from: response)
        let age = HTTPFreshness.ageOnArrival(
            of: response.headers, requestTime: exchange.requestTime, responseTime: exchange.responseTime)
        var refreshed = await cache.refresh(
            key: key, fields: fields, ttl: ttl, initialAge: HTTPFreshness.duration(age))
        if refreshed == nil, key != slot.key {
            var confirmed = PrismHTTPResponse(cached: entry, request: exchange.sent, source: .revalidated)
            confirmed.headers = entry.updatedHeaders(by: fields)
            if var copy = PrismCacheEntry(
                storing: confirmed, request: exchange.sent, cacheInterval: nil, requestTime: exchange.requestTime,
                responseTime: exchange.responseTime)
            {
                copy.ttl = ttl
                await cache.set(copy, for: key)
                refreshed = copy
            }
        }
        guard let refreshed else {
            return .network(PrismHTTPResponse(cached: entry, request: exchange.sent, source: .revalidated), slot: nil)
        }
        let sameEntry = key == slot.key && refreshed.data == entry.data
        return .cached(
            refreshed, request: exchange.sent, decoded: sameEntry ? decoded : nil,
            slot: CacheSlot(cache: cache, key: key), source: .revalidated)
    }

    /// A `200` to a `HEAD` updates the stored `GET` of its URL (and credentials) as a `304`
    /// would: its fields and freshness; or drops it when the validators say the body changed
    /// (RFC 9111 §4.3.5).
    private func updateStoredGET(from exchange: Exchange, in cache: PrismResponseCache) async {
        let response = exchange.response
        let key = PrismCacheKey.http(
            method: .get, url: exchange.sent.url, digest: PrismCacheKey.credentialDigest(exchange.sent.headers))
        guard let entry = cache.lookupNow(key, decodedBy: nil).lookup.entry else { return }
        let etag = response.headers["ETag"]
        let lastModified = response.headers["Last-Modified"]
        if (etag != nil && etag != entry.etag) || (lastModified != nil && lastModified != entry.lastModified) {
            await cache.invalidate(key: key)
            return
        }
        let ttl = entry.ttlAfterRevalidation(
            response, cacheInterval: nil, requestTime: exchange.requestTime,
            responseTime: exchange.responseTime)
        let age = HTTPFreshness.ageOnArrival(
            of: response.headers, requestTime: exchange.requestTime, responseTime: exchange.responseTime)
        await cache.refresh(
            key: key, fields: PrismCacheEntry.refreshedFields(from: response), ttl: ttl,
            initialAge: HTTPFreshness.duration(age))
    }
}
