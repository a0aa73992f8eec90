import Foundation
import PrismTestServer
import Testing

@Suite("ETag, Last-Modified and Cache-Control routes")
struct ConditionalRouteTests {
    @Test("An ETag resource answers 304 to a matching If-None-Match until it is bumped")
    func etagRevalidation() async throws {
        try await withServer { server in
            let first = try await TestClient.send(.GET, server.url("/etag/profile"))
            #expect(first.status == 200)
            #expect(first.header("ETag") == "\"profile-v1\"")
            #expect(first.header("Cache-Control") == "no-cache")
            let body = try first.object()
            #expect(body["name"] as? String == "profile")
            #expect(body["version"] as? Int == 1)
            #expect(body["payload"] is String)

            let notModified = try await TestClient.send(
                .GET,
                server.url("/etag/profile"),
                headers: [("If-None-Match", "\"profile-v1\"")]
            )
            #expect(notModified.status == 304)
            #expect(notModified.header("ETag") == "\"profile-v1\"")
            #expect(notModified.body.readableBytes == 0)

            let bump = try await TestClient.send(.POST, server.url("/etag/profile/bump"))
            #expect(bump.status == 204)
            #expect(bump.header("ETag") == "\"profile-v2\"")

            let changed = try await TestClient.send(
                .GET,
                server.url("/etag/profile"),
                headers: [("If-None-Match", "\"profile-v1\"")]
            )
            #expect(changed.status == 200)
            #expect(changed.header("ETag") == "\"profile-v2\"")
            #expect(try changed.object()["version"] as? Int == 2)
            #expect(server.hits("/etag/profile") == 3)
        }
    }

    @Test("If-None-Match lists, weak tags and * match", arguments: [#""x", "a-v1""#, #"W/"a-v1""#, "*"])
    func etagForms(ifNoneMatch: String) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(
                .GET, server.url("/etag/a"), headers: [("If-None-Match", ifNoneMatch)])
            #expect(reply.status == 304)
        }
    }

    @Test("A Last-Modified resource answers 304 to If-Modified-Since until it is bumped by one second")
    func lastModifiedRevalidation() async throws {
        try await withServer { server in
            let first = try await TestClient.send(.GET, server.url("/last-modified/feed"))
            #expect(first.status == 200)
            let lastModified = try #require(first.header("Last-Modified"))
            #expect(lastModified == "Mon, 01 Jan 2024 00:00:00 GMT")
            #expect(first.header("Cache-Control") == "no-cache")
            #expect(try first.object()["lastModified"] as? String == lastModified)

            let notModified = try await TestClient.send(
                .GET,
                server.url("/last-modified/feed"),
                headers: [("If-Modified-Since", lastModified)]
            )
            #expect(notModified.status == 304)
            #expect(notModified.header("Last-Modified") == lastModified)
            #expect(notModified.body.readableBytes == 0)

            let bump = try await TestClient.send(.POST, server.url("/last-modified/feed/bump"))
            #expect(bump.status == 204)
            #expect(bump.header("Last-Modified") == "Mon, 01 Jan 2024 00:00:01 GMT")

            let changed = try await TestClient.send(
                .GET,
                server.url("/last-modified/feed"),
                headers: [("If-Modified-Since", lastModified)]
            )
            #expect(changed.status == 200)
            #expect(changed.header("Last-Modified") == "Mon, 01 Jan 2024 00:00:01 GMT")
            #expect(try changed.object()["version"] as? Int == 2)
            #expect(server.hits("/last-modified/feed") == 3)
        }
    }

    @Test(
        "GET /cache/:name sends the Cache-Control the query asks for",
        arguments: [
            ("max-age=60", "max-age=60"),
            ("no-store=1", "no-store"),
            ("no-cache=1", "no-cache"),
            ("private=1&max-age=5", "private, max-age=5"),
            ("no-cache=1&no-store=1", "no-store, no-cache"),
        ]
    )
    func cacheControl(query: String, expected: String) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/cache/c?\(query)"))
            #expect(reply.status == 200)
            #expect(reply.header("Cache-Control") == expected)
        }
    }

    @Test("GET /cache/:name counts the requests that reached it")
    func cacheHits() async throws {
        try await withServer { server in
            for expected in 1...3 {
                let reply = try await TestClient.send(.GET, server.url("/cache/users?max-age=60"))
                #expect(try reply.object()["hit"] as? Int == expected)
                #expect(try reply.object()["name"] as? String == "users")
            }
            let plain = try await TestClient.send(.GET, server.url("/cache/other"))
            #expect(plain.header("Cache-Control") == nil)
            #expect(try plain.object()["hit"] as? Int == 1)
        }
    }

    @Test("GET /cache/:name?vary= sends the Vary header it is given, * included", arguments: ["Accept-Language", "*"])
    func vary(names: String) async throws {
        try await withServer { server in
            let encoded = names == "*" ? "*" : names
            let reply = try await TestClient.send(.GET, server.url("/cache/v?max-age=60&vary=\(encoded)"))
            #expect(reply.header("Vary") == names)
            let plain = try await TestClient.send(.GET, server.url("/cache/v?max-age=60"))
            #expect(plain.header("Vary") == nil)
        }
    }
}
