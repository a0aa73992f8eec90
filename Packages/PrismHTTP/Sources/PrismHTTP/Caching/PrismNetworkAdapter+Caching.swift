import Foundation
import Logging
@_spi(PrismInternals) import PrismCache

/// The network's side of a cache transaction (stages 5 and 7, see
/// `PrismNetworkAdapter+Pipeline.swift`): revalidation, in the foreground and in the
/// background. What is stored and what answers is the transaction's
/// (``PrismCacheTransaction``).
extension PrismNetworkAdapter {
    /// Revalidates `entry` in the background, unless a revalidation of its key is running.
    ///
    /// The revalidation runs on a client with this one's parts, so that it does not keep this
    /// client alive: when this client goes away, its ``backgroundRevalidations`` go too and cancel
    /// it. It is prepared again (the prepared request of the caller may be long used by then). A
    /// revalidation that gets no answer, or a 5xx, keeps the stale entry (and is logged at
    /// `.warning`); one that is cancelled writes nothing.
    func revalidateInBackground(
        _ entry: PrismCacheEntry, of prepared: PrismPreparedRequest, in transaction: PrismCacheTransaction
    ) async {
        let worker = PrismNetworkAdapter(partsOf: self)
        var transaction = transaction
        transaction.isBackground = true
        transaction.decoded = nil
        await backgroundRevalidations.start(for: transaction.slot.key) { [transaction, prepared] in
            _ = try? await worker.revalidate(entry, of: prepared, in: transaction)
        }
    }

    /// Sends `prepared` conditionally (when `entry` has validators); a `304` refreshes the entry
    /// and answers with it (``PrismCacheTransaction/revalidated(_:by:)``). When the server cannot
    /// be asked, or answers with a server error, the stored entry answers if the stale rule lets
    /// it (``PrismCacheTransaction/servedAfterFailure(_:error:)``).
    func revalidate(
        _ entry: PrismCacheEntry, of prepared: PrismPreparedRequest, in transaction: PrismCacheTransaction
    ) async throws -> Delivery {
        let request = prepared.request
        let exchange: Exchange
        do {
            exchange = try await fetch(prepared, revalidating: entry)
        } catch let error as PrismHTTPError {
            guard let stale = transaction.servedAfterFailure(entry, error: error) else { throw error }
            logger?.notice(
                "\(request.method.rawValue) \(PrismHTTPRedaction.redact(request.url)) failed: the stored response is served stale",
                metadata: ["error": "\(error.code)"])
            return stale
        }
        let response = exchange.response
        if let stale = transaction.servedAfterFailure(entry, response: response) {
            logger?.notice(
                "\(request.method.rawValue) \(PrismHTTPRedaction.redact(request.url)) answered \(response.statusCode): the stored response is served stale"
            )
            return stale
        }
        if transaction.isBackground {
            if Task.isCancelled { return .network(response, slot: nil) }
            if (500...599).contains(response.statusCode) {
                logger?.warning(
                    "\(request.method.rawValue) \(PrismHTTPRedaction.redact(request.url)) revalidation failed: the stale entry is kept",
                    metadata: ["status": "\(response.statusCode)"])
                return .network(response, slot: nil)
            }
        }
        guard response.statusCode == 304 else {
            return .network(response, slot: await transaction.store(exchange))
        }
        logger?.debug("revalidated: not modified", metadata: ["url": "\(PrismHTTPRedaction.redact(request.url))"])
        return await transaction.revalidated(entry, by: exchange)
    }
}

extension PrismNetworkAdapter {
    /// Drops the stored `GET` and `HEAD` responses of `url`, for every credential: what to call
    /// after a change the server made that the client did not send itself (a push, another
    /// device). A `POST`, `PUT`, `PATCH` or `DELETE` the client sends does it for its own URL on
    /// its own (RFC 9111 §4.4).
    ///
    /// ```swift
    /// await client.removeCachedResponses(for: URL(string: "https://api.example.com/tasks")!)
    /// ```
    public func removeCachedResponses(for url: URL) async {
        let urls = [url.absoluteString]
        await cache?.removeAll { PrismCacheKey.isStoredResponse($0, ofAny: urls) }
    }

    /// Drops every stored `GET` and `HEAD` response whose URL starts with `prefix`
    /// (`"https://api.example.com/users/"`), for every credential.
    public func removeCachedResponses(withURLPrefix prefix: String) async {
        await cache?.removeAll { $0.hasPrefix("GET " + prefix) || $0.hasPrefix("HEAD " + prefix) }
    }
}
