/// Whether the client may keep a request's decoded response beside the cached body and hand it
/// to later requests of the same type, skipping the decode on a cache hit.
///
/// A request type says it with ``PrismNetworkRequest/decodedResponseReuse``. A reused value is
/// the very value an earlier request decoded (`Response` is `Sendable`, so sharing it is safe),
/// and only a request of the same type, for the same cache entry (same URL, same credentials,
/// same `Vary` values, same body), ever receives it.
///
/// ```swift
/// struct GetFeedRequest: PrismNetworkRequest {
///     typealias Response = Feed
///     let endpoint: FeedEndpoint
///
///     // The body is wrapped in {"data": ...}: a custom decode that depends on nothing but
///     // the bytes, so decoded feeds can be reused.
///     static var decodedResponseReuse: PrismDecodedResponseReuse { .always }
///
///     func decode(data: Data, with decoder: JSONDecoder) throws -> Feed {
///         try decoder.decode(Envelope<Feed>.self, from: data).data
///     }
/// }
/// ```
public enum PrismDecodedResponseReuse: Sendable, Hashable {
    /// Reuse only what Prism's own decode produced: the default ``PrismNetworkRequest/decode(data:with:)``
    /// of a ``PrismEntity`` response (and that of ``PrismEndpointRequest``), which depends on
    /// nothing but the body and `Response` (with its static ``PrismEntity/decoder``). A request
    /// type that implements `decode(data:with:)` itself is decoded on every hit. The default.
    case automatic
    /// Reuse whatever the request type's decode returned: the type promises that its decode
    /// depends on nothing but the body, never on the request's own properties or on state that
    /// changes.
    case always
    /// Decode on every hit (for a `Response` whose decoding depends on something that changes,
    /// such as a ``PrismEntity/decoder`` that is not the same from one call to the next).
    case never
}
