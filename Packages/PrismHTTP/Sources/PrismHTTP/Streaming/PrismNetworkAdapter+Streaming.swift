import Foundation
import PrismCache

extension PrismNetworkAdapter {
    /// Sends `request` and yields its response from the cache first (when there is one), then
    /// from the network: the natural shape of `.cacheThenNetwork`.
    ///
    /// ```swift
    /// for try await update in client.responses(on: GetUserRequest(login: "octocat")) {
    ///     show(update.value)   // cached at once, then fresh
    /// }
    /// ```
    ///
    /// With another policy the stream yields what ``request(on:options:)`` would return, once.
    /// With `.cacheThenNetwork` the request is prepared and looked up once: the cached value is
    /// yielded, then the same request goes to the network (conditionally, when the entry has
    /// validators) and its answer is stored and yielded. When the server confirms the cached body
    /// (a `304`), the second value still arrives, marked ``PrismNetworkUpdate/Source/network``.
    /// A stale entry whose response said `no-cache` or `must-revalidate` is not yielded: only the
    /// network's answer is.
    public func responses<Request: PrismNetworkRequest>(
        on request: Request,
        cachePolicy: PrismCachePolicy = .cacheThenNetwork,
        options: PrismRequestOptions = PrismRequestOptions()
    ) -> AsyncThrowingStream<PrismNetworkUpdate<Request.Response>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var options = options
                    options.cachePolicy = cachePolicy
                    let built = try build(request.endpoint, options: options)
                    let prepared = try await prepare(
                        built: built.request, options: options, cacheInterval: built.cacheInterval,
                        fromEndpoint: true)
                    let identity = DecodedReuse.identity(of: Request.self)
                    let delivery: Delivery
                    if cachePolicy == .cacheThenNetwork, let cache = cache(for: prepared) {
                        let transaction = PrismCacheTransaction(
                            prepared, in: cache, key: prepared.cacheKey, decodedBy: identity)
                        // The stale rule (``PrismCacheTransaction/mayServe(stale:_:)``) and the
                        // request's own directives (RFC 9111 §5.2.1) say which stored value may
                        // come first: none after no-cache, max-age=0 or Pragma: no-cache, none
                        // older than its max-age or fresh for less than its min-fresh; with
                        // only-if-cached, the stored value is the only one.
                        let asked = transaction.asked
                        if let entry = transaction.found {
                            let isStale = transaction.freshEntry == nil
                            let usable = !isStale || transaction.mayServe(stale: entry, .unasked)
                            if request.accepts(statusCode: entry.statusCode), usable {
                                let cached = transaction.serving(entry, .cache)
                                let value = try await value(of: cached, for: request)
                                continuation.yield(.init(value: value, source: .cache, isStale: isStale))
                                if asked.onlyIfCached {
                                    continuation.finish()
                                    return
                                }
                            }
                            delivery =
                                asked.onlyIfCached
                                ? .network(PrismHTTPResponse.notCached(prepared.request), slot: nil)
                                : try await revalidate(entry, of: prepared, in: transaction)
                        } else if asked.onlyIfCached {
                            delivery = .network(PrismHTTPResponse.notCached(prepared.request), slot: nil)
                        } else {
                            let exchange = try await fetch(prepared, revalidating: nil)
                            delivery = .network(exchange.response, slot: await transaction.store(exchange))
                        }
                    } else {
                        delivery = try await deliver(prepared, decodedBy: identity)
                    }
                    continuation.yield(
                        .init(value: try await value(of: delivery, for: request), source: .network, isStale: false))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
