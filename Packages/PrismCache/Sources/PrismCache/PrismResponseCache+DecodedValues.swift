#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value decoded from an entry's body, kept beside it.
final class DecodedValue: Sendable {
    /// The value.
    let value: any Sendable
    /// What decoded it (an HTTP client passes its request type).
    let decoding: ObjectIdentifier
    /// Its estimated size, counted against `maxBytes`.
    let cost: Int

    init(value: any Sendable, decoding: ObjectIdentifier, cost: Int) {
        self.value = value
        self.decoding = decoding
        self.cost = cost
    }
}

extension PrismResponseCache {
    /// What the cache holds for `key`, like `lookup(_:)`, and the value decoded from
    /// its body by `decoding` if one is kept beside it (see
    /// ``keepDecoded(_:decodedBy:from:cost:for:)``).
    ///
    /// A value kept by another `decoding` is not returned: an HTTP client passes the identity
    /// of its request type, so that a request whose decode differs never receives another's
    /// value.
    ///
    /// ```swift
    /// let (lookup, decoded) = await cache.lookup(key, decodedBy: ObjectIdentifier(GetUser.self))
    /// if case .fresh = lookup, let user = decoded as? GitHubUser { return user }
    /// ```
    public func lookup(_ key: PrismCacheKey, decodedBy decoding: ObjectIdentifier) -> (
        lookup: PrismCacheLookup, decoded: (any Sendable)?
    ) {
        lookupNow(key, decodedBy: .some(decoding))
    }

    /// ``lookup(_:decodedBy:)`` without a hop onto the actor, and ``lookup(_:)`` when `decoding`
    /// is nil: for Prism's own clients, whose cache hits it makes several times faster. Exposed
    /// to Prism's own modules only (`@_spi(PrismInternals)`).
    @_spi(PrismInternals)
    public nonisolated func lookupNow(_ key: PrismCacheKey, decodedBy decoding: ObjectIdentifier?) -> (
        lookup: PrismCacheLookup, decoded: (any Sendable)?
    ) {
        guard let decoding else { return (lookupNow(key), nil) }
        let now = now()
        let found = core.withLock { $0.lookup(key, decodedBy: decoding, now: now) }
        if case .miss = found.lookup, disk != nil { return (lookUpOnDisk(key, now: now), nil) }
        return found
    }

    /// Keeps `value`, decoded by `decoding` from `body`, beside the entry for `key`, so that
    /// ``lookup(_:decodedBy:)`` with the same `decoding` returns it without decoding again.
    ///
    /// The entry becomes the most recently used. Nothing is kept when the entry's body is no longer `body` (it was replaced since it was
    /// read) or when nothing is cached for `key`. An entry keeps one decoded value: keeping
    /// another `decoding`'s replaces it. The value leaves with its entry (replaced, invalidated,
    /// evicted or removed) and stays through a `refresh(key:headers:ttl:)`,
    /// which keeps the body.
    ///
    /// Keep only a value that depends on nothing but `body` and the decoding's identity: every
    /// later caller that passes the same `decoding` receives this very value.
    ///
    /// - Parameters:
    ///   - value: The decoded value.
    ///   - decoding: What decoded it; only a lookup with the same identity returns it.
    ///   - body: The bytes it was decoded from.
    ///   - cost: Its estimated size in bytes, counted against `maxBytes`. When the entry and the
    ///     value together exceed `maxBytes`, the value is not kept; otherwise the least recently
    ///     used other entries are evicted to make room.
    ///   - key: The entry's key.
    public func keepDecoded(
        _ value: any Sendable, decodedBy decoding: ObjectIdentifier, from body: Data, cost: Int, for key: PrismCacheKey
    ) {
        core.withLock { $0.keepDecoded(value, decodedBy: decoding, from: body, cost: cost, for: key) }
    }
}
