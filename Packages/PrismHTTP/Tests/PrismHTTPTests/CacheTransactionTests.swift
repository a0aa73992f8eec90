import Foundation
@_spi(PrismInternals) import PrismCache
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// The cache transaction's one decision, without a socket: what a request does with what its
/// lookup found, for every policy (the table on `PrismCacheTransaction.Plan`), and the one rule
/// for serving a stale entry that every way through the cache asks.
@Suite("The cache transaction: its plan for every policy, and the one rule for stale entries")
struct CacheTransactionTests {
    /// What a lookup can find, as the rows of the plan's table.
    enum Found: CaseIterable {
        case fresh, inWindow, mayServeStale, mustRevalidate, nothing

        /// The entry stored for the row, if any.
        var entry: PrismCacheEntry? {
            func entry(_ control: String?, ttl: Duration) -> PrismCacheEntry {
                PrismCacheEntry(
                    data: Data("stored".utf8), statusCode: 200,
                    fields: control.map { [.init(name: "Cache-Control", value: $0)] } ?? [], ttl: ttl)
            }
            return switch self {
            case .fresh: entry("max-age=3600", ttl: .seconds(3_600))
            case .inWindow: entry("max-age=10, stale-while-revalidate=600", ttl: .seconds(-60))
            case .mayServeStale: entry("max-age=10", ttl: .seconds(-60))
            case .mustRevalidate: entry("max-age=10, must-revalidate", ttl: .seconds(-60))
            case .nothing: nil
            }
        }
    }

    /// The plan's kind, without its entry and source.
    enum Kind: Equatable {
        case serve, serveAndRevalidate, revalidate, fetch, unavailable, notCached
        init(_ plan: PrismCacheTransaction.Plan) {
            switch plan {
            case .serve: self = .serve
            case .serveAndRevalidate: self = .serveAndRevalidate
            case .revalidate: self = .revalidate
            case .fetch: self = .fetch
            case .unavailable: self = .unavailable
            case .notCached: self = .notCached
            }
        }
    }

    func transaction(
        _ found: Found, policy: PrismCachePolicy?, headers: PrismHTTPHeaders = [:]
    ) async -> PrismCacheTransaction {
        let request = PrismHTTPRequest(url: URL(string: "https://api.example.com/items")!, headers: headers)
        var options = PrismRequestOptions()
        options.cachePolicy = policy
        let prepared = PrismPreparedRequest(original: request, request: request, options: options)
        let cache = PrismResponseCache(maxSize: 10)
        if let entry = found.entry { await cache.set(entry, for: prepared.cacheKey) }
        return PrismCacheTransaction(prepared, in: cache, key: prepared.cacheKey, decodedBy: nil)
    }

    @Test(
        "each policy's plan for each thing a lookup can find, as the table says",
        arguments: [
            (nil, [Kind.serve, .serveAndRevalidate, .revalidate, .revalidate, .fetch]),
            (.cacheThenNetwork, [.serve, .revalidate, .revalidate, .revalidate, .fetch]),
            (.cacheFirst, [.serve, .serve, .serve, .revalidate, .fetch]),
            (.staleWhileRevalidate, [.serve, .serveAndRevalidate, .serveAndRevalidate, .revalidate, .fetch]),
            (.alwaysRevalidate, [.revalidate, .revalidate, .revalidate, .revalidate, .fetch]),
            (.networkFirst(maxStale: .seconds(3_600)), [.revalidate, .revalidate, .revalidate, .revalidate, .fetch]),
            (.cacheOnly, [.serve, .serve, .serve, .unavailable, .unavailable]),
            (.networkOnly, [.fetch, .fetch, .fetch, .fetch, .fetch]),
        ] as [(PrismCachePolicy?, [Kind])])
    func planTable(policy: PrismCachePolicy?, expected: [Kind]) async {
        for (found, kind) in zip(Found.allCases, expected) {
            #expect(
                Kind(await transaction(found, policy: policy).plan) == kind,
                "\(found) under \(String(describing: policy))")
        }
    }

    @Test("what a served entry says of itself: fresh, stale by policy, within stale-while-revalidate, asked for")
    func sources() async {
        #expect(await transaction(.fresh, policy: nil).plan == .serve(Found.fresh.entry!, .cache))
        guard case .serve(_, .stale(.policy)) = await transaction(.mayServeStale, policy: .cacheFirst).plan else {
            Issue.record("cacheFirst serves a stale entry as stale by policy")
            return
        }
        guard
            case .serveAndRevalidate(_, .stale(.staleWhileRevalidate)) = await transaction(.inWindow, policy: nil).plan
        else {
            Issue.record("HTTP's own stale-while-revalidate says so")
            return
        }
        let asked = await transaction(.mayServeStale, policy: nil, headers: ["Cache-Control": "max-stale=120"])
        guard case .serve(_, .stale(.requested)) = asked.plan else {
            Issue.record("a request's max-stale serves a stale entry as asked for")
            return
        }
    }

    @Test(
        "the request's own directives: no-cache and max-age refuse, max-stale serves within its bound, only-if-cached never fetches"
    )
    func requestDirectives() async {
        #expect(
            Kind(await transaction(.fresh, policy: nil, headers: ["Cache-Control": "no-cache"]).plan) == .revalidate)
        #expect(
            Kind(await transaction(.fresh, policy: .cacheFirst, headers: ["Pragma": "no-cache"]).plan) == .revalidate)
        // A fresh entry the request refuses is never served unasked, not even by cacheFirst.
        #expect(
            Kind(await transaction(.fresh, policy: .cacheFirst, headers: ["Cache-Control": "min-fresh=7200"]).plan)
                == .revalidate)
        #expect(
            Kind(await transaction(.mayServeStale, policy: nil, headers: ["Cache-Control": "max-stale=30"]).plan)
                == .revalidate)
        #expect(
            Kind(await transaction(.mayServeStale, policy: nil, headers: ["Cache-Control": "max-stale"]).plan) == .serve
        )
        #expect(
            Kind(await transaction(.mustRevalidate, policy: nil, headers: ["Cache-Control": "max-stale"]).plan)
                == .revalidate)
        let onlyIfCached: PrismHTTPHeaders = ["Cache-Control": "only-if-cached"]
        #expect(Kind(await transaction(.nothing, policy: nil, headers: onlyIfCached).plan) == .notCached)
        #expect(Kind(await transaction(.mayServeStale, policy: nil, headers: onlyIfCached).plan) == .notCached)
        #expect(Kind(await transaction(.mayServeStale, policy: .cacheFirst, headers: onlyIfCached).plan) == .serve)
        #expect(Kind(await transaction(.fresh, policy: nil, headers: onlyIfCached).plan) == .serve)
    }

    @Test(
        "after a failed revalidation: networkFirst within its staleness, alwaysRevalidate never, else stale-if-error or no answer at all"
    )
    func afterFailure() async throws {
        let stale = try #require(Found.mayServeStale.entry)
        let locked = try #require(Found.mustRevalidate.entry)
        let failure = PrismCacheTransaction.StaleOccasion.afterFailure(disconnected: false)
        let disconnected = PrismCacheTransaction.StaleOccasion.afterFailure(disconnected: true)
        #expect(
            await transaction(.mayServeStale, policy: .networkFirst(maxStale: .seconds(120))).mayServe(
                stale: stale, failure))
        #expect(
            await transaction(.mayServeStale, policy: .networkFirst(maxStale: .seconds(30))).mayServe(
                stale: stale, failure) == false)
        #expect(
            await transaction(.mayServeStale, policy: .alwaysRevalidate).mayServe(stale: stale, disconnected) == false)
        #expect(await transaction(.mayServeStale, policy: nil).mayServe(stale: stale, disconnected))
        #expect(await transaction(.mayServeStale, policy: nil).mayServe(stale: stale, failure) == false)
        let within = await transaction(.mayServeStale, policy: nil, headers: ["Cache-Control": "stale-if-error=120"])
        #expect(within.mayServe(stale: stale, failure))
        let past = await transaction(.mayServeStale, policy: nil, headers: ["Cache-Control": "stale-if-error=30"])
        #expect(past.mayServe(stale: stale, failure) == false)
        // A response that must be revalidated is never served stale, whatever the occasion.
        #expect(
            await transaction(.mustRevalidate, policy: .networkFirst(maxStale: .seconds(3_600))).mayServe(
                stale: locked, disconnected) == false)
    }
}
