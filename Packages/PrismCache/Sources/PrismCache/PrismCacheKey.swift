/// A cache key whose hash is computed once, when it is made.
///
/// Every ``PrismResponseCache`` operation that takes a `String` key hashes it; a caller that
/// looks up, stores and invalidates the same key (an HTTP client serving one request) makes a
/// `PrismCacheKey` once and passes it to each, so that the string is hashed once per request
/// and every later dictionary probe compares a precomputed hash first.
///
/// ```swift
/// let key = PrismCacheKey("GET https://api.github.com/users/octocat")
/// if case .fresh(let entry) = await cache.lookup(key) { return entry }
/// await cache.set(fetched, for: key)
/// ```
///
/// Two keys are equal when their strings are; the hash is the string's own (seeded per process,
/// as every Swift hash is), so a server cannot choose keys that collide.
public struct PrismCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The key as text.
    public let string: String
    /// `string.hashValue`, computed once.
    private let hash: Int

    /// Makes a key of `string`, hashing it once.
    public init(_ string: String) {
        self.string = string
        self.hash = string.hashValue
    }

    /// The key as text.
    public var description: String { string }

    /// Whether the keys' strings are equal; the precomputed hashes are compared first.
    public static func == (lhs: PrismCacheKey, rhs: PrismCacheKey) -> Bool {
        lhs.hash == rhs.hash && lhs.string == rhs.string
    }

    /// Feeds the precomputed hash to `hasher`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    /// The hash a `Dictionary` or `Set` probes with: the precomputed hash, mixed with the
    /// table's seed by a multiply and a shift rather than by a full SipHash round, since the
    /// precomputed hash is already a seeded SipHash of the string.
    public func _rawHashValue(seed: Int) -> Int {
        // The 64-bit finalizer of MurmurHash3 over the hash and the seed.
        var mixed = UInt64(truncatingIfNeeded: hash ^ seed)
        mixed ^= mixed >> 33
        mixed &*= 0xff51_afd7_ed55_8ccd
        mixed ^= mixed >> 33
        return Int(truncatingIfNeeded: mixed)
    }
}
