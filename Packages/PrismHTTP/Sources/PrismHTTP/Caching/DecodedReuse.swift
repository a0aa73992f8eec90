import Foundation
import PrismCache

/// Tells the client whether the decode it just ran was Prism's default ``PrismEntity`` decode of
/// the very request type it asked (a request type that implements `decode(data:with:)` itself
/// never reaches the default of its own type, and a default of another type it may call inside
/// its own decode does not count).
enum DefaultDecodeProbe {
    /// Set by the client around one decode, read by the default decode.
    @TaskLocal static var current: Probe?

    /// What one decode reports.
    final class Probe: @unchecked Sendable {
        // Written and read only by the task that runs the decode, synchronously.
        let requestType: ObjectIdentifier
        var ranDefault = false

        init(requestType: ObjectIdentifier) {
            self.requestType = requestType
        }
    }

    /// Called by the default decodes: marks the probe when it asked for `type`.
    static func ran<Request>(for type: Request.Type) {
        guard let probe = current, probe.requestType == ObjectIdentifier(type) else { return }
        probe.ranDefault = true
    }
}

/// Where a response's body is cached: what a decoded value is kept beside.
struct CacheSlot: Sendable {
    var cache: PrismResponseCache
    var key: PrismCacheKey
}

/// What the pipeline hands the typed request: a cached entry (with the value an earlier
/// request of the same type decoded from it, when one is kept), or a response from the network.
enum Delivery: Sendable {
    /// From the cache for `request`; `decoded` is what a request of the same type decoded;
    /// `source` says whether it was fresh, confirmed by a 304, or stale.
    case cached(
        PrismCacheEntry, request: PrismHTTPRequest, decoded: (any Sendable)?, slot: CacheSlot,
        source: PrismResponseSource = .cache)
    /// From the network; `slot` when its body is now what the cache holds.
    case network(PrismHTTPResponse, slot: CacheSlot?)

    /// The response, as a transport would have returned it.
    var response: PrismHTTPResponse {
        switch self {
        case .cached(let entry, let request, _, _, let source):
            PrismHTTPResponse(cached: entry, request: request, source: source)
        case .network(let response, _): response
        }
    }
}

/// The identity a decoded value is kept under: the request type, when it may reuse at all.
enum DecodedReuse {
    static func identity<Request: PrismNetworkRequest>(of type: Request.Type) -> ObjectIdentifier? {
        // A raw body needs no decoding; `.never` opts out.
        if Request.Response.self == Data.self || Request.decodedResponseReuse == .never { return nil }
        return ObjectIdentifier(type)
    }

    /// What a decoded value counts against the cache's byte budget: an estimate, the size of the
    /// body it came from (a decoded JSON value is of the order of its text) plus the value's
    /// inline size.
    static func cost<Response>(of type: Response.Type, body: Data) -> Int {
        body.count + MemoryLayout<Response>.size
    }
}
