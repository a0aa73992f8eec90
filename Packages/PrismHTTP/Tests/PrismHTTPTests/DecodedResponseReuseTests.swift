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
        var value = try decoder.decode(CountedHit.self, from: data)
        value.hit += offset
        return value
    }
}

/// A request with its own decode that depends on nothing but the body, opted in.
struct HundredMoreRequest: PrismNetworkRequest {
    typealias Response = CountedHit
    let endpoint: ServerEndpoint

    static var decodedResponseReuse: PrismDecodedResponseReuse { .always }

    func decode(data: Data, with decoder: JSONDecoder) throws -> CountedHit {
        var value = try decoder.decode(CountedHit.self, from: data)
        value.hit += 100
        return value
    }
}

/// A request with the default decode that opted out.
struct NeverReusedRequest: PrismNetworkRequest {
    typealias Response = CountedHit
    let endpoint: ServerEndpoint

    static var decodedResponseReuse: PrismDecodedResponseReuse { .never }
}

@Suite("A cached decoded value goes only to a request that decodes the same way")
struct DecodedResponseReuseTests {
    /// `/cache/<name>` cached for a minute.
    func endpoint(
        _ server: PrismTestServer, _ name: String, query: [String: String] = [:], headers: [String: String] = [:]
    )
        -> ServerEndpoint
    {
        ServerEndpoint(server, "/cache/\(name)", query: query.merging(["max-age": "60"]) { $1 }, headers: headers)
    }

    /// A name no other test decodes.
    func unique(_ label: String) -> String { "\(label)-\(UUID().uuidString.prefix(8))" }

    @Test("a hit of the default PrismEntity decode returns the value decoded on the way in, without decoding again")
    func defaultDecodeIsReused() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let name = unique("reuse")
            let client = PrismNetworkAdapter()
            let request = ServerRequest<CountedHit>(endpoint: endpoint(server, name))
            let first = try await client.request(on: request)
            let second = try await client.request(on: request)
            let third = try await client.request(on: PrismEndpointRequest<ServerEndpoint, CountedHit>(request.endpoint))
            #expect(first == CountedHit(name: name, hit: 1))
            #expect(second == first && third == first)
            #expect(server.hits("/cache/\(name)") == 1)
            // Decoded once by ServerRequest, once by PrismEndpointRequest (another request type).
            #expect(CountedHit.decodeCount(name) == 2)
        }
    }

    @Test("a request type with its own decode is decoded on every hit, with its own properties")
    func customDecodeIsNotServedAnothersValue() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let name = unique("custom")
            let client = PrismNetworkAdapter()
            let plain = ServerRequest<CountedHit>(endpoint: endpoint(server, name))
            #expect(try await client.request(on: plain).hit == 1)
            #expect(try await client.request(on: OffsetRequest(endpoint: endpoint(server, name), offset: 10)).hit == 11)
            #expect(try await client.request(on: OffsetRequest(endpoint: endpoint(server, name), offset: 20)).hit == 21)
            #expect(try await client.request(on: plain).hit == 1)
            #expect(server.hits("/cache/\(name)") == 1)
            #expect(CountedHit.decodeCount(name) == 3)
        }
    }

    @Test("a request type that opts in reuses its own decoded value, and never another type's")
    func optedInReusesItsOwn() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let name = unique("opted")
            let client = PrismNetworkAdapter()
            let plain = ServerRequest<CountedHit>(endpoint: endpoint(server, name))
            let hundred = HundredMoreRequest(endpoint: endpoint(server, name))
            #expect(try await client.request(on: plain).hit == 1)
            #expect(try await client.request(on: hundred).hit == 101)
            #expect(try await client.request(on: hundred).hit == 101)
            #expect(try await client.request(on: plain).hit == 1)
            #expect(CountedHit.decodeCount(name) == 3)  // plain, hundred, plain again (hundred replaced it)
        }
    }

    @Test("a request type that opts out is decoded on every hit")
    func optedOutDecodesEveryTime() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let name = unique("never")
            let client = PrismNetworkAdapter()
            let request = NeverReusedRequest(endpoint: endpoint(server, name))
            for _ in 0..<3 { #expect(try await client.request(on: request).hit == 1) }
            #expect(server.hits("/cache/\(name)") == 1)
            #expect(CountedHit.decodeCount(name) == 3)
        }
    }

    @Test("another Response type for the same URL, with its own decoder, gets its own value")
    func otherResponseType() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let name = unique("types")
            let client = PrismNetworkAdapter()
            let counted = ServerRequest<CountedHit>(endpoint: endpoint(server, name))
            let plainKeys = ServerRequest<PlainKeysHit>(endpoint: endpoint(server, name))
            let raw = RawRequest(endpoint: endpoint(server, name))
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
        try await withServer { (server: PrismTestServer) async throws in
            let name = unique("drop")
            let other = unique("other")
            let cache = PrismResponseCache(maxSize: 1)
            let client = PrismNetworkAdapter(cache: cache)
            let request = ServerRequest<CountedHit>(endpoint: endpoint(server, name))
            let raw = RawRequest(endpoint: endpoint(server, name))
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
            _ = try await client.request(on: ServerRequest<CountedHit>(endpoint: endpoint(server, other)))  // evicts
            #expect(try await client.request(on: request).hit == 5)
            // Every hit was decoded once: the kept value never outlived its entry.
            #expect(CountedHit.decodeCount(name) == 5)
        }
    }

    @Test("each credential gets the value decoded from its own response")
    func credentialsStayApart() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let name = unique("me")
            let token = LockedBox("alice")
            let client = PrismNetworkAdapter(interceptors: [
                PrismInterceptor { request in
                    var request = request
                    request.headers["Authorization"] = "Bearer \(token.wrappedValue)"
                    return request
                }
            ])
            let request = ServerRequest<CountedHit>(endpoint: endpoint(server, name))
            #expect(try await client.request(on: request).hit == 1)
            token.mutate { $0 = "bob" }
            #expect(try await client.request(on: request).hit == 2)
            token.mutate { $0 = "alice" }
            #expect(try await client.request(on: request).hit == 1)
            token.mutate { $0 = "bob" }
            #expect(try await client.request(on: request).hit == 2)
            #expect(CountedHit.decodeCount(name) == 2)
        }
    }

    @Test("a request with other Vary values is not served the value decoded for the first")
    func varyStaysApart() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let name = unique("vary")
            let client = PrismNetworkAdapter()
            func request(_ language: String) -> ServerRequest<CountedHit> {
                ServerRequest<CountedHit>(
                    endpoint: endpoint(
                        server, name, query: ["vary": "Accept-Language"], headers: ["Accept-Language": language]))
            }
            #expect(try await client.request(on: request("en")).hit == 1)
            #expect(try await client.request(on: request("en")).hit == 1)
            #expect(try await client.request(on: request("fr")).hit == 2)
            #expect(try await client.request(on: request("fr")).hit == 2)
            // The "en" variant is still stored, beside "fr": served from the cache, decoded from
            // its own body, never answered with the value decoded for "fr".
            #expect(try await client.request(on: request("en")).hit == 1)
            #expect(CountedHit.decodeCount(name) == 3)
        }
    }

    @Test("a new body after revalidation is decoded, never answered with the old value")
    func newBodyIsDecoded() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let client = PrismNetworkAdapter()
            let request = ServerRequest<Versioned>(endpoint: ServerEndpoint(server, "/etag/doc"))
            let first = try await client.request(on: request)
            #expect(try await client.request(on: request) == first)  // a 304: the kept value
            _ = try await client.send(PrismHTTPRequest(url: server.url("/etag/doc/bump"), method: .post))
            #expect(try await client.request(on: request).version == first.version + 1)
            #expect(try await client.request(on: request).version == first.version + 1)
        }
    }

    @Test("cacheThenNetwork yields the kept value first, then the network's, decoded")
    func cacheThenNetwork() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let name = unique("stream")
            let client = PrismNetworkAdapter()
            let request = ServerRequest<CountedHit>(endpoint: endpoint(server, name))
            _ = try await client.request(on: request)
            var values: [Int] = []
            for try await update in client.responses(on: request) { values.append(update.value.hit) }
            #expect(values == [1, 2])
            #expect(try await client.request(on: request).hit == 2)
            #expect(CountedHit.decodeCount(name) == 2)
        }
    }
}
