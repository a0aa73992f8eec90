import Foundation
import PrismCache
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// `/cache/:name`'s answer, counting how many times each name was decoded (so that a test sees
/// whether a hit decoded again), whichever request decoded it.
struct CountedHit: PrismEntity, Equatable {
    static let decodes = LockedBox<[String: Int]>([:])

    var name: String
    var hit: Int

    init(name: String, hit: Int) {
        self.name = name
        self.hit = hit
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        hit = try container.decode(Int.self, forKey: .hit)
        Self.decodes.mutate { $0[name, default: 0] += 1 }
    }

    static func decodeCount(_ name: String) -> Int { decodes.wrappedValue[name] ?? 0 }

    /// `data` decoded by `decoder`, with `offset` added to its hit count: a request's own decode.
    static func decoded(from data: Data, with decoder: JSONDecoder, adding offset: Int) throws -> CountedHit {
        var value = try decoder.decode(CountedHit.self, from: data)
        value.hit += offset
        return value
    }
}

/// The same answer as another type, with its own decoder (keys as they are, no snake_case).
struct PlainKeysHit: PrismEntity, Equatable {
    static let decoder = JSONDecoder()
    var name: String
    var hit: Int
}

/// A request with its own decode, not opted in: `hit` plus `offset`, a property of the request.
struct OffsetRequest: PrismNetworkRequest {
    typealias Response = CountedHit
    let endpoint: ServerEndpoint
    let offset: Int

    func decode(data: Data, with decoder: JSONDecoder) throws -> CountedHit {
        try CountedHit.decoded(from: data, with: decoder, adding: offset)
    }
}

/// A request with the default decode that opted out.
struct NeverReusedRequest: PrismNetworkRequest {
    typealias Response = CountedHit
    let endpoint: ServerEndpoint

    static var decodedResponseReuse: PrismDecodedResponseReuse { .never }
}

/// A request with its own decode that depends on nothing but the body, opted in.
struct HundredMoreRequest: PrismNetworkRequest {
    typealias Response = CountedHit
    let endpoint: ServerEndpoint

    static var decodedResponseReuse: PrismDecodedResponseReuse { .always }

    func decode(data: Data, with decoder: JSONDecoder) throws -> CountedHit {
        try CountedHit.decoded(from: data, with: decoder, adding: 100)
    }
}

@Suite("A cached decoded value goes only to a request that decodes the same way")
struct DecodedResponseReuseTests {
    /// GET `/cache/<name>`, cached for a minute, decoded as a ``CountedHit``.
    func countedRequest(_ server: PrismTestServer, _ name: String) -> ServerRequest<CountedHit> {
        ServerRequest<CountedHit>(endpoint: cacheEndpoint(server, name))
    }

    /// The hit count of `client`'s answer to `request`.
    func hit<Request: PrismNetworkRequest>(_ request: Request, _ client: PrismNetworkAdapter) async throws -> Int
    where Request.Response == CountedHit {
        try await client.request(on: request).hit
    }

    /// Expects `/cache/<name>` to have reached `server` once, and to have been decoded `decodes`
    /// times.
    func expectFetchedOnce(
        _ server: PrismTestServer, _ name: String, decoded decodes: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(server.hits("/cache/\(name)") == 1, sourceLocation: sourceLocation)
        #expect(CountedHit.decodeCount(name) == decodes, sourceLocation: sourceLocation)
    }

    /// A name no other test decodes.
    func unique(_ label: String) -> String { "\(label)-\(UUID().uuidString.prefix(8))" }

    /// Starts a test server; runs `body` with `client` and a name made from `label` that no other
    /// test decodes, and shuts the server down whatever happens.
    func withUniqueEntry(
        _ label: String, client: PrismNetworkAdapter = PrismNetworkAdapter(),
        _ body: (PrismTestServer, PrismNetworkAdapter, String) async throws -> Void
    ) async throws {
        try await withServer { server in try await body(server, client, unique(label)) }
    }

    @Test("a hit of the default PrismEntity decode returns the value decoded on the way in, without decoding again")
    func defaultDecodeIsReused() async throws {
        try await withUniqueEntry("reuse") { (server, client, name) async throws in
            let request = countedRequest(server, name)
            let first = try await client.request(on: request)
            let second = try await client.request(on: request)
            let third = try await client.request(on: PrismEndpointRequest<ServerEndpoint, CountedHit>(request.endpoint))
            #expect(first == CountedHit(name: name, hit: 1))
            #expect(second == first && third == first)
            // Decoded once by ServerRequest, once by PrismEndpointRequest (another request type).
            expectFetchedOnce(server, name, decoded: 2)
        }
    }

    @Test("a request type with its own decode is decoded on every hit, with its own properties")
    func customDecodeIsNotServedAnothersValue() async throws {
        try await withUniqueEntry("custom") { (server, client, name) async throws in
            let plain = countedRequest(server, name)
            let tens = [10, 20].map { OffsetRequest(endpoint: cacheEndpoint(server, name), offset: $0) }
            let hits = try await [hit(plain, client), hit(tens[0], client), hit(tens[1], client), hit(plain, client)]
            #expect(hits == [1, 11, 21, 1])
            expectFetchedOnce(server, name, decoded: 3)
        }
    }

    @Test("a request type that opts in reuses its own decoded value, and never another type's")
    func optedInReusesItsOwn() async throws {
        try await withUniqueEntry("opted") { (server, client, name) async throws in
            let plain = countedRequest(server, name)
            let hundred = HundredMoreRequest(endpoint: cacheEndpoint(server, name))
            let hits = try await [hit(plain, client), hit(hundred, client), hit(hundred, client), hit(plain, client)]
            #expect(hits == [1, 101, 101, 1])
            #expect(CountedHit.decodeCount(name) == 3)  // plain, hundred, plain again (hundred replaced it)
        }
    }

    @Test("a request type that opts out is decoded on every hit")
    func optedOutDecodesEveryTime() async throws {
        try await withUniqueEntry("never") { (server, client, name) async throws in
            let request = NeverReusedRequest(endpoint: cacheEndpoint(server, name))
            for _ in 0..<3 { #expect(try await client.request(on: request).hit == 1) }
            expectFetchedOnce(server, name, decoded: 3)
        }
    }

    @Test("another Response type for the same URL, with its own decoder, gets its own value")
    func otherResponseType() async throws {
        try await withUniqueEntry("types") { (server, client, name) async throws in
            let counted = countedRequest(server, name)
            let plainKeys = ServerRequest<PlainKeysHit>(endpoint: cacheEndpoint(server, name))
            let raw = RawRequest(endpoint: cacheEndpoint(server, name))
            #expect(try await client.request(on: counted) == CountedHit(name: name, hit: 1))
            #expect(try await client.request(on: plainKeys) == PlainKeysHit(name: name, hit: 1))
            let body = try await client.request(on: raw)
            #expect(try JSONDecoder().decode(PlainKeysHit.self, from: body) == PlainKeysHit(name: name, hit: 1))
            #expect(try await client.request(on: counted) == CountedHit(name: name, hit: 1))
            #expect(try await client.request(on: plainKeys) == PlainKeysHit(name: name, hit: 1))
            #expect(server.hits("/cache/\(name)") == 1)
        }
    }

    @Test("invalidate, removeAll and eviction drop the decoded value with its entry, and its bytes")
    func droppedWithTheEntry() async throws {
        let client = PrismNetworkAdapter(cache: PrismResponseCache(maxSize: 1))
        try await withUniqueEntry("drop", client: client) { (server, client, name) async throws in
            let cache = try #require(client.cache)
            let other = unique("other")
            let request = countedRequest(server, name)
            let raw = RawRequest(endpoint: cacheEndpoint(server, name))
            #expect(try await client.request(on: request).hit == 1)
            let withDecoded = await cache.totalBytes
            // The raw request of the same entry stores nothing decoded; the entry alone costs less.
            await cache.removeAll()
            _ = try await client.request(on: raw)
            let bytesOnly = await cache.totalBytes
            #expect(withDecoded > bytesOnly)
            #expect(try await client.request(on: request).hit == 2)
            #expect(await cache.totalBytes == withDecoded)

            let key = try #require(await cache.keysByRecency.first)
            await cache.invalidate(key: key)
            #expect(await cache.totalBytes == 0)
            #expect(try await client.request(on: request).hit == 3)
            await cache.removeAll()
            #expect(try await client.request(on: request).hit == 4)
            _ = try await client.request(on: countedRequest(server, other))  // evicts
            #expect(try await client.request(on: request).hit == 5)
            // Every hit was decoded once: the kept value never outlived its entry.
            #expect(CountedHit.decodeCount(name) == 5)
        }
    }

    @Test("each credential gets the value decoded from its own response")
    func credentialsStayApart() async throws {
        let token = LockedBox("alice")
        let client = PrismNetworkAdapter(interceptors: [
            PrismInterceptor { request in
                var request = request
                request.headers["Authorization"] = "Bearer \(token.wrappedValue)"
                return request
            }
        ])
        try await withUniqueEntry("me", client: client) { (server, client, name) async throws in
            let request = countedRequest(server, name)
            for (user, hit) in [("alice", 1), ("bob", 2), ("alice", 1), ("bob", 2)] {
                token.mutate { $0 = user }
                #expect(try await client.request(on: request).hit == hit, "\(user)")
            }
            #expect(CountedHit.decodeCount(name) == 2)
        }
    }

    @Test("a request with other Vary values is not served the value decoded for the first")
    func varyStaysApart() async throws {
        try await withUniqueEntry("vary") { (server, client, name) async throws in
            func request(_ language: String) -> ServerRequest<CountedHit> {
                ServerRequest<CountedHit>(
                    endpoint: cacheEndpoint(
                        server, name, query: ["vary": "Accept-Language"], headers: ["Accept-Language": language]))
            }
            // The last "en" is served from the cache, beside "fr", and decoded from its own body:
            // never answered with the value decoded for "fr".
            for (language, hit) in [("en", 1), ("en", 1), ("fr", 2), ("fr", 2), ("en", 1)] {
                #expect(try await client.request(on: request(language)).hit == hit, "\(language)")
            }
            #expect(CountedHit.decodeCount(name) == 3)
        }
    }

    @Test("a new body after revalidation is decoded, never answered with the old value")
    func newBodyIsDecoded() async throws {
        try await withCachingClient { (server, client) async throws in
            let request = ServerRequest<Versioned>(endpoint: ServerEndpoint(server, "/etag/doc"))
            let first = try await client.request(on: request)
            #expect(try await client.request(on: request) == first)  // a 304: the kept value
            try await bump("/etag/doc", on: server, through: client)
            #expect(try await client.request(on: request).version == first.version + 1)
            #expect(try await client.request(on: request).version == first.version + 1)
        }
    }

    @Test("cacheThenNetwork yields the kept value first, then the network's, decoded")
    func cacheThenNetwork() async throws {
        try await withUniqueEntry("stream") { (server, client, name) async throws in
            let request = countedRequest(server, name)
            _ = try await client.request(on: request)
            var values: [Int] = []
            for try await update in client.responses(on: request) { values.append(update.value.hit) }
            #expect(values == [1, 2])
            #expect(try await client.request(on: request).hit == 2)
            #expect(CountedHit.decodeCount(name) == 2)
        }
    }
}
