import Foundation
@_spi(PrismInternals) import PrismCache
import PrismSupport
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// What a stored response looks like when it comes back: its age (RFC 9111 §4.2.3, §5.1), its
/// field lines as received (§3.1), and after a 304, the fields the 304 carried (§4.3.4).
@Suite("A stored response comes back with its age, its field lines in order, and a 304's updates")
struct CacheFidelityTests {
    /// The field lines of `headers` but `Age`, and but those a transport or a cache adds or
    /// drops on the way (`Connection`, `Keep-Alive`, `Transfer-Encoding`).
    func lines(_ headers: PrismHTTPHeaders) -> [String] {
        let skipped: Set<String> = ["age", "connection", "keep-alive", "transfer-encoding"]
        return headers.filter { !skipped.contains($0.name.lowercased()) }.map { "\($0.name.lowercased()): \($0.value)" }
    }

    /// The response's one `Age` line as a number; nil when it has none or several.
    func age(_ response: PrismHTTPResponse) -> Int? {
        let lines = response.headers.values(for: "Age")
        return lines.count == 1 ? Int(lines[0]) : nil
    }

    /// How much older than the server said a response may have been when it arrived: the time
    /// from its `Date` to `arrivedBy` (the apparent age, RFC 9111 §4.2.3), or the exchange's own
    /// time (`took`, the response delay), whichever is larger, plus a second for `Date`'s whole
    /// seconds. Both are read from the run, not assumed: on a busy machine the server's `Date`
    /// (which it renews once a second) may lag the wall clock by several seconds.
    func slack(_ response: PrismHTTPResponse, arrivedBy: Date, took: Duration) -> Int {
        let tookSeconds = Int(took.components.seconds) + 1
        guard let date = response.headers["Date"].flatMap(HTTPDate.parse) else { return tookSeconds }
        let apparent = Int((arrivedBy.timeIntervalSince1970 - Double(date)).rounded(.up))
        return max(apparent, tookSeconds) + 1
    }

    /// Whether `age` is `expected` and at most `slack` more.
    func isAbout(_ age: Int?, _ expected: Int, slack: Int) -> Bool {
        guard let age else { return false }
        return age >= expected && age <= expected + slack
    }

    @Test(
        "a hit carries Age: the Age it arrived with plus the time it has been stored, one line",
        arguments: TransportKind.allCases)
    func ageOnHits(transport: TransportKind) async throws {
        try await withClockedCachingClient(transport) { (server, clock, client) async throws in
            let aged = ScriptedRoute(
                server, "aged", [Scripted(headers: [("Cache-Control", "max-age=3600"), ("Age", "30")], body: "a")])
            let new = ScriptedRoute(server, "new", [Scripted(headers: [("Cache-Control", "max-age=3600")], body: "b")])
            let started = ContinuousClock.now
            let agedResponse = try await client.send(aged.request)
            let newResponse = try await client.send(new.request)
            let took = ContinuousClock.now - started
            let arrivedBy = Date()
            #expect(agedResponse.headers.values(for: "Age") == ["30"])
            #expect(newResponse.headers.values(for: "Age").isEmpty)
            let agedSlack = slack(agedResponse, arrivedBy: arrivedBy, took: took)
            let newSlack = slack(newResponse, arrivedBy: arrivedBy, took: took)
            #expect(isAbout(age(try await client.send(new.request)), 0, slack: newSlack))
            await clock.advance(by: .seconds(100))
            #expect(isAbout(age(try await client.send(aged.request)), 130, slack: agedSlack))
            #expect(isAbout(age(try await client.send(new.request)), 100, slack: newSlack))
            #expect(aged.hits == 1)
            #expect(new.hits == 1)
        }
    }

    @Test(
        "max-age=3600 with Age: 3000 is fresh for ten minutes of the cache's clock, not an hour",
        arguments: TransportKind.allCases)
    func agedResponseExpiresSooner(transport: TransportKind) async throws {
        // The age on arrival also counts the exchange's own time, on the wall clock (RFC 9111
        // §4.2.3): ten minutes left leaves a busy machine all the time it needs for it.
        let answers = [Scripted(headers: [("Cache-Control", "max-age=3600"), ("Age", "3000")], body: "a")]
        try await withScriptedRoute("almost", answers, on: transport) { (route, clock, client) async throws in
            _ = try await client.send(route.request)
            _ = try await client.send(route.request)
            #expect(route.hits == 1)
            await clock.advance(by: .seconds(601))
            _ = try await client.send(route.request)
            #expect(route.hits == 2)
        }
    }

    @Test(
        "a hit has the field lines the network response had, in order, repeated fields apart",
        arguments: TransportKind.allCases)
    func fieldLines(transport: TransportKind) async throws {
        let answers = [
            Scripted(
                headers: [
                    ("Cache-Control", "max-age=60"), ("Set-Cookie", "a=1; Path=/"), ("X-Order", "1"),
                    ("Set-Cookie", "b=2; Path=/"), ("X-Order", "2"), ("Age", "3"),
                ], body: "lines")
        ]
        try await withScriptedRoute("lines", answers, on: transport) { (route, _, client) async throws in
            let network = try await client.send(route.request)
            let hit = try await client.send(route.request)
            #expect(route.hits == 1)
            #expect(lines(hit.headers) == lines(network.headers))
            #expect(hit.body == Data("lines".utf8))
            if transport == .asyncHTTPClient {
                // URLSession joins repeated fields itself; AsyncHTTPClient keeps them apart, and
                // so must the cache.
                #expect(hit.headers.values(for: "Set-Cookie") == ["a=1; Path=/", "b=2; Path=/"])
                #expect(hit.headers.values(for: "X-Order") == ["1", "2"])
            }
        }
    }

    @Test(
        "a 304 replaces every line of each field it carries, keeps the others, and its answer has no Age",
        arguments: TransportKind.allCases)
    func notModifiedUpdates(transport: TransportKind) async throws {
        let answers = [
            Scripted(
                headers: [
                    ("ETag", "\"v1\""), ("Cache-Control", "max-age=1"), ("X-Kept", "1"),
                    ("X-Replaced", "old-1"), ("X-Replaced", "old-2"), ("Content-Type", "text/plain"),
                ], body: "body v1"),
            Scripted(
                status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=3600"), ("X-Replaced", "new")]),
        ]
        try await withScriptedRoute("update", answers, on: transport) { (route, clock, client) async throws in
            _ = try await client.send(route.request)
            await clock.advance(by: .seconds(5))
            let started = ContinuousClock.now
            let revalidated = try await client.send(route.request)
            let took = ContinuousClock.now - started
            let arrivedBy = Date()
            #expect(route.hits == 2)
            #expect(route.requests.last?.headers["if-none-match"] == "\"v1\"")
            #expect(revalidated.statusCode == 200)
            #expect(revalidated.body == Data("body v1".utf8))
            #expect(revalidated.headers.values(for: "X-Replaced") == ["new"])
            #expect(revalidated.headers["X-Kept"] == "1")
            #expect(revalidated.headers["Content-Type"] == "text/plain")
            #expect(revalidated.headers["Cache-Control"] == "max-age=3600")
            #expect(revalidated.headers.values(for: "Age").isEmpty)
            // Fresh for an hour now, from the 304's Cache-Control.
            await clock.advance(by: .seconds(600))
            let hit = try await client.send(route.request)
            #expect(route.hits == 2)
            #expect(hit.headers.values(for: "X-Replaced") == ["new"])
            #expect(isAbout(age(hit), 600, slack: slack(revalidated, arrivedBy: arrivedBy, took: took)))
        }
    }
}

/// RFC 9111 §4.3.5: a `200` to a `HEAD` updates the stored `GET`.
@Suite("A HEAD response updates the stored GET")
struct HeadUpdateTests {
    @Test(
        "a 200 to a HEAD refreshes the stored GET's fields and freshness, or drops it when its validator differs",
        arguments: TransportKind.allCases)
    func headUpdatesGet(transport: TransportKind) async throws {
        let answers = [
            Scripted(headers: [("Cache-Control", "max-age=1"), ("ETag", "\"a\""), ("X-Version", "1")], body: "body"),
            Scripted(headers: [("Cache-Control", "max-age=1000"), ("ETag", "\"a\""), ("X-Version", "2")]),
            Scripted(headers: [("Cache-Control", "max-age=1000"), ("ETag", "\"b\"")]),
            Scripted(headers: [("Cache-Control", "max-age=1000"), ("ETag", "\"b\"")], body: "new body"),
        ]
        try await withScriptedRoute("head", answers, on: transport) { (route, clock, client) async throws in
            let url = route.url
            _ = try await client.send(PrismHTTPRequest(url: url))
            await clock.advance(by: .seconds(10))
            _ = try await client.send(PrismHTTPRequest(url: url, method: .head))
            // The stored GET is fresh again, with the HEAD's fields and its own body.
            let updated = try await client.send(PrismHTTPRequest(url: url))
            #expect(route.hits == 2)
            #expect(updated.source == .cache)
            #expect(updated.headers["X-Version"] == "2")
            #expect(updated.body == Data("body".utf8))
            // A HEAD whose ETag differs: the stored body is not the current one any more.
            await clock.advance(by: .seconds(2_000))
            _ = try await client.send(PrismHTTPRequest(url: url, method: .head))
            let refetched = try await client.send(PrismHTTPRequest(url: url))
            #expect(refetched.source == .network)
            #expect(refetched.body == Data("new body".utf8))
            #expect(route.hits == 4)
        }
    }
}
