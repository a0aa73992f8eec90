import Foundation
import PrismTestServer
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

@Suite("Vary: a cached response is served only to a request with the same values")
struct VaryTests {
    func request(_ server: PrismTestServer, vary: String, language: String?) -> ServerRequest<CacheHit> {
        ServerRequest<CacheHit>(
            endpoint: ServerEndpoint(
                server, "/cache/v", query: ["max-age": "60", "vary": vary],
                headers: language.map { ["Accept-Language": $0] } ?? [:]))
    }

    @Test(
        "a response that varies on Accept-Language is served only to that language", arguments: TransportKind.allCases)
    func varyOnLanguage(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            #expect(try await client.request(on: request(server, vary: "Accept-Language", language: "fr")).hit == 1)
            #expect(try await client.request(on: request(server, vary: "Accept-Language", language: "fr")).hit == 1)
            #expect(try await client.request(on: request(server, vary: "Accept-Language", language: "en")).hit == 2)
            #expect(try await client.request(on: request(server, vary: "Accept-Language", language: nil)).hit == 3)
            #expect(try await client.request(on: request(server, vary: "Accept-Language", language: nil)).hit == 3)
        }
    }

    @Test("Vary: * is never served from the cache", arguments: TransportKind.allCases)
    func varyStar(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            for expected in 1...3 {
                #expect(try await client.request(on: request(server, vary: "*", language: "fr")).hit == expected)
            }
            #expect(await client.cache?.count == 0)
        }
    }
}
