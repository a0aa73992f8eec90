import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// Responses that vary (RFC 9111 §4.1): each variant is kept beside the others, equivalent
/// requests select the same one, and an unsafe method drops them all.
@Suite("Vary: one stored response per variant")
struct VaryVariantTests {
    func scripted(_ bodies: [String], vary: String) -> [Scripted] {
        bodies.map { Scripted(headers: [("Cache-Control", "max-age=3600"), ("Vary", vary)], body: $0) }
    }

    @Test("two variants of one URL are both kept, and an unsafe method drops both", arguments: TransportKind.allCases)
    func variantsSideBySide(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            // The third answer is the POST's.
            server.script("lang", scripted(["en 1", "fr 1", "posted", "en 2", "fr 2"], vary: "Accept-Language"))
            let url = server.url("/scripted/lang")
            func send(_ language: String) async throws -> String {
                text(try await client.send(PrismHTTPRequest(url: url, headers: ["Accept-Language": language])))
            }
            #expect(try await send("en") == "en 1")
            #expect(try await send("fr") == "fr 1")
            #expect(try await send("en") == "en 1")
            #expect(try await send("fr") == "fr 1")
            #expect(server.hits("/scripted/lang") == 2)
            _ = try await client.send(PrismHTTPRequest(url: url, method: .post))
            #expect(try await send("en") == "en 2")
            #expect(try await send("fr") == "fr 2")
            #expect(server.hits("/scripted/lang") == 5)
            #expect(try await send("en") == "en 2")
        }
    }

    @Test(
        "requests that say the same thing differently select the same variant; a different value does not",
        arguments: TransportKind.allCases)
    func normalised(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            server.script("norm", scripted(["one", "two", "three"], vary: "Accept-Language, X-Flavour"))
            let url = server.url("/scripted/norm")
            func send(_ language: String, _ flavour: String) async throws -> String {
                text(
                    try await client.send(
                        PrismHTTPRequest(url: url, headers: ["Accept-Language": language, "X-Flavour": flavour])))
            }
            #expect(try await send("en-GB, fr;q=0.5", "a, b") == "one")
            #expect(try await send("fr;q=0.5,en-GB", "a,b") == "one")
            #expect(try await send("EN-gb ,  FR;Q=0.5", " a ,  b ") == "one")
            #expect(server.hits("/scripted/norm") == 1)
            // Another flavour order is another request: only language lists are unordered.
            #expect(try await send("en-GB, fr;q=0.5", "b, a") == "two")
            #expect(try await send("de", "a, b") == "three")
            #expect(try await send("en-GB, fr;q=0.5", "b, a") == "two")
            #expect(server.hits("/scripted/norm") == 3)
        }
    }
}
