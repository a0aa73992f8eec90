import Foundation
import PrismHTTP
import PrismSupport

/// Where ``PrismGraphQLClient/fetch(_:policy:)`` and ``PrismGraphQLClient/watch(_:policy:)``
/// look for an operation's answer.
public enum PrismGraphQLFetchPolicy: Sendable, Hashable {
    /// The normalized cache's answer when it has the whole of it; else the server's. An answer
    /// with a field past its ``PrismGraphQLNormalizedCacheConfiguration/maxAge`` is given at once
    /// and asked for again in the background (`watch` then delivers the server's, if it differs).
    case cacheFirst
    /// The cache's answer at once when it has one, then the server's (`watch` delivers both;
    /// `fetch`, which returns one, returns the server's).
    case cacheAndNetwork
    /// The server's answer, written into the cache.
    case networkOnly
    /// The cache's answer only; never a request (`fetch` throws `cacheMiss` without it, `watch`
    /// waits for a write that completes it).
    case cacheOnly
}

extension PrismGraphQLClient {
    /// A copy of the client that normalizes the answers of typed operations into `cache`: every
    /// query's and mutation's answer (with data and no errors) and every subscription event is
    /// written into it, so that ``watch(_:policy:)`` delivers the change to every operation that
    /// shows an object another one changed.
    ///
    /// ```swift
    /// let graphql = PrismGraphQLClient(endpointURL: url, networkClient: http)
    ///     .normalizing(into: PrismGraphQLNormalizedCache())
    /// ```
    public func normalizing(into cache: PrismGraphQLNormalizedCache) -> PrismGraphQLClient {
        var client = self
        client.normalizedCache = cache
        return client
    }

    /// The answer to `operation`, from the normalized cache or the server as `policy` says (see
    /// ``PrismGraphQLFetchPolicy``). A server's answer is written into the cache.
    ///
    /// - Throws: ``PrismGraphQLError``: `cacheMiss` for `cacheOnly` without a whole answer; what
    ///   ``execute(_:options:)->PrismGraphQLResponse<Operation.Data>`` throws; `graphQLErrors` when the server answers with errors;
    ///   `invalidOperation` when the client has no normalized cache.
    public func fetch<Operation: PrismGraphQLQueryOperation>(
        _ operation: Operation, policy: PrismGraphQLFetchPolicy = .cacheFirst
    ) async throws -> Operation.Data {
        let cache = try requireNormalizedCache(Operation.self)
        switch policy {
        case .cacheFirst:
            if let cached = try? cache.read(operation) {
                if cache.freshness(of: operation).stale { revalidate(operation, in: cache) }
                return cached
            }
        case .cacheOnly:
            return try cache.read(operation)
        case .cacheAndNetwork, .networkOnly:
            break
        }
        return try await executeNormalizing(operation, into: cache, options: PrismRequestOptions()).requireData()
    }

    /// The answers to `operation`: as `policy` says, the normalized cache's now and the server's
    /// (see ``PrismGraphQLFetchPolicy``), then a new one each time any operation (a mutation, a
    /// subscription event, another query, a write of the app's) changes a record this one was
    /// read from, without a request. Cancelling the reading task ends it.
    ///
    /// ```swift
    /// for try await items in graphql.watch(ItemsQuery()) { show(items) }
    /// ```
    ///
    /// - Throws (from the sequence): what ``fetch(_:policy:)`` throws, when the server's answer
    ///   fails; `invalidOperation` when the client has no normalized cache.
    public func watch<Operation: PrismGraphQLQueryOperation>(
        _ operation: Operation, policy: PrismGraphQLFetchPolicy = .cacheAndNetwork
    ) -> AsyncThrowingStream<Operation.Data, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Operation.Data, any Error>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        let cache: PrismGraphQLNormalizedCache
        do {
            cache = try requireNormalizedCache(Operation.self)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let client = self
        let task = Task {
            // The watch starts first: it delivers the cache's answer if it has one (not for
            // networkOnly, which waits for the server's), and every change after.
            let (hasCached, stale) = cache.freshness(of: operation)
            let needsNetwork =
                switch policy {
                case .cacheFirst: !hasCached || stale
                case .cacheAndNetwork, .networkOnly: true
                case .cacheOnly: false
                }
            var answers = cache.watch(operation).makeAsyncIterator()
            if needsNetwork && policy == .networkOnly {
                // The cached answer, if any, is not delivered: only what the server says.
                if hasCached { _ = await answers.next() }
            }
            if needsNetwork {
                let fetch = Task {
                    do {
                        _ = try await client.executeNormalizing(operation, into: cache, options: PrismRequestOptions())
                            .requireData()
                    } catch {
                        if policy == .cacheFirst && hasCached {
                            // The stale answer stays: revalidating it failed, the watch goes on.
                            client.networkClient.logger?.debug(
                                "GraphQL: revalidating the stale answer of \(Operation.operationName) failed: \(error)")
                        } else {
                            continuation.finish(throwing: error)
                        }
                    }
                }
                await withTaskCancellationHandler {
                    while let answer = await answers.next() { continuation.yield(answer) }
                } onCancel: {
                    fetch.cancel()
                }
            } else {
                while let answer = await answers.next() { continuation.yield(answer) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Sends `mutation` while `optimisticData`, its expected answer, is shown by the normalized
    /// cache: every watched operation that shows the objects it changes shows the change at once.
    /// The server's answer replaces it in one step; when the mutation fails (an error thrown, or an
    /// answer with errors) it is taken away and what was there before shows again. Two optimistic
    /// mutations at once each keep their own.
    ///
    /// ```swift
    /// try await graphql.execute(
    ///     RenameTaskMutation(id: 2, title: "Deux"),
    ///     optimisticData: ["renameTask": ["__typename": "TaskItem", "id": 2, "title": "Deux"]])
    /// ```
    ///
    /// - Throws: What ``execute(_:options:)->PrismGraphQLResponse<Operation.Data>`` throws; `invalidOperation` without a normalized
    ///   cache; `invalidDocument` when `optimisticData` lacks what the mutation selects.
    public func execute<Operation: PrismGraphQLMutationOperation>(
        _ operation: Operation, optimisticData: [String: PrismGraphQLValue],
        options: PrismRequestOptions = PrismRequestOptions()
    ) async throws -> PrismGraphQLResponse<Operation.Data> {
        let cache = try requireNormalizedCache(Operation.self)
        let update = try cache.writeOptimistically(data: optimisticData, for: operation)
        do {
            let response = try await executeNormalizing(operation, into: cache, options: options, replacing: update)
            return response
        } catch {
            cache.removeOptimisticUpdate(update)
            throw error
        }
    }

    /// Asks the server for `operation` again in the background (a stale answer was served); a
    /// failure leaves the stale answer where it is.
    private func revalidate<Operation: PrismGraphQLQueryOperation>(
        _ operation: Operation, in cache: PrismGraphQLNormalizedCache
    ) {
        let client = self
        Task {
            do {
                _ = try await client.executeNormalizing(operation, into: cache, options: PrismRequestOptions())
            } catch {
                client.networkClient.logger?.debug(
                    "GraphQL: revalidating the stale answer of \(Operation.operationName) failed: \(error)")
            }
        }
    }

    /// Sends `operation`, writes its answer into `cache` (when it has data and no errors; in the
    /// same step, takes `optimistic` away and writes `records`), and decodes it.
    func executeNormalizing<Operation: PrismGraphQLExecutableOperation>(
        _ operation: Operation, into cache: PrismGraphQLNormalizedCache, options: PrismRequestOptions,
        replacing optimistic: PrismGraphQLOptimisticUpdate? = nil,
        records: [PrismGraphQLCacheKey: PrismGraphQLRecord] = [:]
    ) async throws -> PrismGraphQLResponse<Operation.Data> {
        let raw = try await execute(PrismGraphQLQuery(operation), as: NormalizingAnswer.self, options: options)
        var writes: [PrismGraphQLNormalizedCache.StagedWrite] = []
        if let data = raw.data?.value.objectValue, !raw.hasErrors {
            writes.append(.init(target: try cache.target(of: operation), data: data))
        }
        do {
            // `records` (a pager's list of pages) only with the answer they go with.
            _ = try cache.commit(writes, removing: optimistic, records: writes.isEmpty ? [:] : records)
        } catch {
            networkClient.logger?.warning(
                "GraphQL: the answer of \(Operation.operationName) was not normalized: \(error)")
            if let optimistic { cache.removeOptimisticUpdate(optimistic) }
        }
        return try Self.typed(raw, as: Operation.self)
    }

    /// A typed subscription whose events are written into `cache` as they arrive.
    func subscribeNormalizing<Operation: PrismGraphQLSubscriptionOperation>(
        _ operation: Operation, into cache: PrismGraphQLNormalizedCache
    ) -> AsyncThrowingStream<PrismGraphQLResponse<Operation.Data>, any Error> {
        let events = subscribe(PrismGraphQLSubscription(operation), as: NormalizingAnswer.self)
        let (stream, continuation) = AsyncThrowingStream<PrismGraphQLResponse<Operation.Data>, any Error>.makeStream()
        let task = Task {
            do {
                for try await event in events {
                    if let data = event.data?.value.objectValue, !event.hasErrors {
                        _ = try? cache.write(data: data, for: operation)
                    }
                    continuation.yield(try Self.typed(event, as: Operation.self))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// `raw`'s data decoded as the operation's `Data`, its errors and extensions kept.
    private static func typed<Operation: PrismGraphQLOperation>(
        _ raw: PrismGraphQLResponse<NormalizingAnswer>, as _: Operation.Type
    ) throws(PrismGraphQLError) -> PrismGraphQLResponse<Operation.Data> {
        var data: Operation.Data?
        if let value = raw.data?.value, value != .null {
            do {
                data = try value.decoded(as: Operation.Data.self)
            } catch {
                throw PrismGraphQLError(
                    code: .decodingFailed,
                    message: "The data does not decode as \(Operation.self).Data: \(DecodingErrorText.describe(error))",
                    operationName: Operation.operationName, underlying: error)
            }
        }
        var response = PrismGraphQLResponse(data: data, errors: raw.errors, extensions: raw.extensions)
        response.statusCode = raw.statusCode
        return response
    }

    private func requireNormalizedCache<Operation: PrismGraphQLOperation>(_: Operation.Type) throws(PrismGraphQLError)
        -> PrismGraphQLNormalizedCache
    {
        guard let normalizedCache else {
            throw PrismGraphQLError(
                code: .invalidOperation,
                message: "fetch(_:policy:) and watch(_:policy:) read a normalized cache: give the client one with "
                    + "normalizing(into:).",
                operationName: Operation.operationName)
        }
        return normalizedCache
    }
}
