import Foundation
@_spi(PrismInternals) import PrismCache
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// When a stale response may answer without the server's word: `stale-while-revalidate` and
/// `stale-if-error` (RFC 5861), a server that cannot be reached (RFC 9111 §4.2.4), and the
/// request's own `max-age`, `min-fresh` and `max-stale` (§5.2.1); and what each response says
/// about where it came from.
@Suite("Stale responses: RFC 5861, an unreachable server, the request's own limits, and their source")
struct StaleResponseTests {
    @Test(
        "within stale-while-revalidate a stale response answers at once and is revalidated in the background; past it, in the foreground",
        arguments: TransportKind.allCases)
    func staleWhileRevalidate(transport: TransportKind) async throws {
        // Lifetimes of minutes, so that what an exchange takes on a busy machine (the age on
        // arrival counts it, on the wall clock) never moves a response across a boundary.
        let control = ("Cache-Control", "max-age=1000, stale-while-revalidate=6000")
        let answers = ["one", "two", "three"].map { Scripted(headers: [control], body: $0) }
        try await withScriptedRoute("swr", answers, on: transport) { (route, clock, client) async throws in
            let request = route.request
            #expect(text(try await client.send(request)) == "one")
            await clock.advance(by: .seconds(1_500))
            let stale = try await client.send(request)
            #expect(text(stale) == "one")
            #expect(stale.source == .stale(.staleWhileRevalidate))
            await client.backgroundRevalidations.waitForAll()
            #expect(route.hits == 2)
            let fresh = try await client.send(request)
            #expect(text(fresh) == "two")
            #expect(fresh.source == .cache)
            // Past the window: the server is asked before anything is served.
            await clock.advance(by: .seconds(10_000))
            let fetched = try await client.send(request)
            #expect(text(fetched) == "three")
            #expect(fetched.source == .network)
            #expect(route.hits == 3)
        }
    }

    @Test(
        "stale-if-error serves the stored response for a 5xx within its window and keeps it; past it the error is the answer",
        arguments: TransportKind.allCases)
    func staleIfError(transport: TransportKind) async throws {
        let answers = [
            Scripted(headers: [("Cache-Control", "max-age=1000, stale-if-error=6000")], body: "stored"),
            Scripted(status: 503, body: "down"),
        ]
        try await withScriptedRoute("sie", answers, on: transport) { (route, clock, client) async throws in
            let request = route.request
            _ = try await client.send(request)
            await clock.advance(by: .seconds(3_000))
            let stale = try await client.send(request)
            #expect(stale.statusCode == 200)
            #expect(text(stale) == "stored")
            #expect(stale.source == .stale(.serverError(status: 503)))
            #expect(stale.age.map { $0 >= .seconds(3_000) } == true)
            #expect(stale.headers["Age"].flatMap { Int($0) }.map { $0 >= 3_000 } == true)
            #expect(route.hits == 2)
            // Past the response's window, the request may widen it.
            await clock.advance(by: .seconds(10_000))
            #expect(try await client.send(request).statusCode == 503)
            var widened = request
            widened.headers["Cache-Control"] = "stale-if-error=60000"
            let kept = try await client.send(widened)
            #expect(text(kept) == "stored")
            #expect(kept.source == .stale(.serverError(status: 503)))
        }
    }

    @Test(
        "when the server does not answer, a stale response is served and says why; one that must be revalidated is not",
        arguments: TransportKind.allCases)
    func unreachable(transport: TransportKind) async throws {
        try await withClockedCachingClient(transport) { (server, clock, client) async throws in
            // The second answer comes too late for the request's timeout: no answer at all.
            let late = Scripted(body: "late", delayMilliseconds: 10_000)
            let gone = ScriptedRoute(
                server, "gone", [Scripted(headers: [("Cache-Control", "max-age=10")], body: "saved"), late])
            let strict = ScriptedRoute(
                server, "strict",
                [Scripted(headers: [("Cache-Control", "max-age=10, must-revalidate")], body: "saved"), late])
            _ = try await client.send(gone.request)
            _ = try await client.send(strict.request)
            await clock.advance(by: .seconds(3_600))
            let stale = try await client.send(PrismHTTPRequest(url: gone.url, timeout: .milliseconds(300)))
            #expect(text(stale) == "saved")
            #expect(stale.source == .stale(.networkFailed(.timedOut)))
            await expectHTTPError(.timedOut) {
                try await client.send(PrismHTTPRequest(url: strict.url, timeout: .milliseconds(300)))
            }
        }
    }

    @Test(
        "the request's max-age and min-fresh send a fresh response's request to the server; max-stale serves a stale one",
        arguments: TransportKind.allCases)
    func requestLimits(transport: TransportKind) async throws {
        try await withClockedCachingClient(transport) { (server, clock, client) async throws in
            let limits = ScriptedRoute(
                server, "limits", [Scripted(headers: [("Cache-Control", "max-age=1000")], body: "body")])
            let strict = ScriptedRoute(
                server, "strict", [Scripted(headers: [("Cache-Control", "max-age=1000, must-revalidate")], body: "b")])
            func send(_ directives: String?) async throws -> PrismHTTPResponse {
                var request = limits.request
                if let directives { request.headers["Cache-Control"] = directives }
                return try await client.send(request)
            }
            // The times leave 100 s either side of each limit: an exchange's own time counts in
            // the age a response arrives with (RFC 9111 4.2.3), and a loaded machine is slow.
            _ = try await send(nil)
            await clock.advance(by: .seconds(500))
            // 500 s old, fresh for 500 s more.
            #expect(try await send("max-age=600").source == .cache)
            #expect(try await send("min-fresh=400").source == .cache)
            #expect(limits.hits == 1)
            #expect(try await send("max-age=300").source == .network)
            #expect(limits.hits == 2)
            await clock.advance(by: .seconds(500))
            #expect(try await send("min-fresh=600").source == .network)
            #expect(limits.hits == 3)
            // Now stale by 500 s.
            await clock.advance(by: .seconds(1500))
            #expect(try await send("max-stale=600").source == .stale(.requested))
            #expect(try await send("max-stale").source == .stale(.requested))
            #expect(limits.hits == 3)
            #expect(try await send("max-stale=100").source == .network)
            #expect(limits.hits == 4)
            // must-revalidate outweighs max-stale.
            _ = try await client.send(strict.request)
            await clock.advance(by: .seconds(1500))
            var asking = strict.request
            asking.headers["Cache-Control"] = "max-stale"
            #expect(try await client.send(asking).source == .network)
            #expect(strict.hits == 2)
        }
    }

    @Test(
        "the typed API returns the value with where it came from and how old it is", arguments: TransportKind.allCases)
    func typedSource(transport: TransportKind) async throws {
        let answers = [
            // max-age leaves minutes for a slow first exchange: its real duration counts in the
            // age (RFC 9111 §4.2.3, response_delay), the test clock's steps after it.
            Scripted(headers: [("Cache-Control", "max-age=3000, stale-if-error=60000")], body: "value"),
            Scripted(status: 503),
        ]
        try await withScriptedRoute("typed", answers, on: transport) { (route, clock, client) async throws in
            let request = RawRequest(endpoint: ServerEndpoint(route.server, route.path))
            let fetched = try await client.response(on: request)
            #expect(fetched.source == .network)
            #expect(fetched.age == nil)
            #expect(fetched.value == Data("value".utf8))
            await clock.advance(by: .seconds(500))
            let cached = try await client.response(on: request)
            #expect(cached.source == .cache)
            #expect(cached.age.map { $0 >= .seconds(500) } == true)
            #expect(cached.headers["Age"] != nil)
            await clock.advance(by: .seconds(6_000))
            let stale = try await client.response(on: request)
            #expect(stale.source == .stale(.serverError(status: 503)))
            #expect(stale.statusCode == 200)
            #expect(stale.value == Data("value".utf8))
            // The same through the protocol's default, as a test double would send.
            let client2: any PrismNetworkClient = client
            #expect(
                try await client2.response(on: request, options: PrismRequestOptions()).source
                    == .stale(.serverError(status: 503)))
        }
    }
}
