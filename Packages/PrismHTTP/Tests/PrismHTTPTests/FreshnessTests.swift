import Foundation
@_spi(PrismInternals) import PrismCache
import PrismSupport
import PrismTestServer
import PrismTestSupport
import Testing

@_spi(PrismInternals) @testable import PrismHTTP

/// RFC 9111 §4.2 against the test server: what makes a response fresh, for how long, and what
/// makes it unstorable, whatever field line it is on. `/status/200?header.X=v` answers with the
/// response fields asked for (a name repeated is a field line each).
@Suite("Freshness as RFC 9111 computes it: Cache-Control on every line, Age, Date, Expires, heuristics")
struct FreshnessTests {
    /// Sends GET `target` twice through one client; returns how many reached the server.
    static func serverHits(_ target: String, on server: PrismTestServer, transport: TransportKind) async throws -> Int {
        let client = PrismNetworkAdapter(transport: transport.make())
        let url = server.url(target)
        let before = server.requests.count
        for _ in 0..<2 { _ = try await client.send(PrismHTTPRequest(url: url)) }
        return server.requests.count - before
    }

    static func httpDate(secondsFromNow: Int64) -> String {
        HTTPDate.format(Int64(Date().timeIntervalSince1970) + secondsFromNow)
    }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// GET targets, each sent twice through a new client, and how many of the two reach the server.
    struct Scenario: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let hits: [(target: String, expected: Int)]
    }

    static let scenarios: [Scenario] = {
        let tenDaysAgo = encoded(httpDate(secondsFromNow: -864_000))
        let inAnHour = encoded(httpDate(secondsFromNow: 3_600))
        return [
            Scenario(
                testDescription:
                    "no-store on a second Cache-Control line forbids storing, whatever the first line says",
                hits: [("/status/200?header.Cache-Control=max-age%3D3600&header.Cache-Control=no-store", 2)]),
            Scenario(
                testDescription:
                    "Age counts against max-age: max-age=60 with Age: 60 is stale on arrival, with Age: 30 fresh",
                hits: [
                    ("/status/200?header.Cache-Control=max-age%3D60&header.Age=60", 2),
                    ("/status/200?header.Cache-Control=max-age%3D60&header.Age=30", 1),
                ]),
            Scenario(
                testDescription: "Expires gives freshness without max-age; a past or invalid Expires does not",
                hits: [
                    ("/status/200?header.Expires=" + inAnHour, 1),
                    ("/status/200?header.Expires=" + encoded(httpDate(secondsFromNow: -3_600)), 2),
                    ("/status/200?header.Expires=0", 2),
                    // max-age wins over Expires.
                    ("/status/200?header.Cache-Control=max-age%3D0&header.Expires=" + inAnHour, 2),
                ]),
            Scenario(
                testDescription: "Last-Modified alone gives a heuristic lifetime (10% of its age, at most a day)",
                hits: [
                    ("/status/200?header.Last-Modified=" + tenDaysAgo, 1),
                    // A status a cache may not reuse by default gets no heuristic lifetime.
                    ("/status/201?header.Last-Modified=" + tenDaysAgo, 2),
                ]),
            Scenario(
                testDescription:
                    "an explicit lifetime makes any final status storable (a 500, a 299); the first max-age counts",
                hits: [
                    ("/status/500?header.Cache-Control=max-age%3D60", 1),
                    ("/status/299?header.Cache-Control=max-age%3D60", 1),
                    ("/status/500", 2),
                    ("/status/200?header.Cache-Control=max-age%3D3600&header.Cache-Control=max-age%3D0", 1),
                ] + ["-1", "1.5", "abc", ""].map { ("/status/200?header.Cache-Control=max-age%3D\($0)", 2) }),
            Scenario(
                testDescription:
                    "must-understand stores a status whose rules are understood despite no-store, and no other; public allows any status a heuristic lifetime",
                hits: [
                    ("/status/200?header.Cache-Control=max-age%3D60%2C%20must-understand%2C%20no-store", 1),
                    ("/status/599?header.Cache-Control=max-age%3D60%2C%20must-understand%2C%20no-store", 2),
                    ("/status/599?header.Cache-Control=public&header.Last-Modified=" + tenDaysAgo, 1),
                    ("/status/598?header.Last-Modified=" + tenDaysAgo, 2),
                ]),
        ]
    }()

    @Test(
        "what a response's fields say decides whether it is stored and served", arguments: scenarios,
        TransportKind.allCases)
    func storedAndServed(scenario: Scenario, transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            for (target, expected) in scenario.hits {
                #expect(try await Self.serverHits(target, on: server, transport: transport) == expected, "\(target)")
            }
        }
    }

    @Test(
        "no-cache naming fields stores the response without them, and serves it fresh",
        arguments: TransportKind.allCases)
    func qualifiedNoCache(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            let url = server.url(
                "/status/200?header.Cache-Control=max-age%3D60%2C%20no-cache%3D%22X-Secret%2C%20X-Token%22"
                    + "&header.X-Secret=1&header.X-Token=2&header.X-Other=3")
            let network = try await client.send(PrismHTTPRequest(url: url))
            #expect(network.headers["X-Secret"] == "1")
            let cached = try await client.send(PrismHTTPRequest(url: url))
            #expect(server.hits("/status/200") == 1)
            #expect(cached.source == .cache)
            #expect(cached.headers["X-Secret"] == nil)
            #expect(cached.headers["X-Token"] == nil)
            #expect(cached.headers["X-Other"] == "3")
        }
    }

    @Test("a hop-by-hop or proxy field is not replayed from the cache", arguments: TransportKind.allCases)
    func hopByHop(transport: TransportKind) async throws {
        try await withCachingClient(transport) { (server, client) async throws in
            let url = server.url(
                "/status/200?header.Cache-Control=max-age%3D60&header.Keep-Alive=timeout%3D5"
                    + "&header.Proxy-Authenticate=Basic&header.Proxy-Authentication-Info=a%3D1")
            _ = try await client.send(PrismHTTPRequest(url: url))
            let cached = try await client.send(PrismHTTPRequest(url: url))
            #expect(server.hits("/status/200") == 1)
            #expect(cached.headers["Keep-Alive"] == nil)
            #expect(cached.headers["Proxy-Authenticate"] == nil)
            #expect(cached.headers["Proxy-Authentication-Info"] == nil)
            #expect(cached.headers["Cache-Control"] == "max-age=60")
        }
    }
}

/// The arithmetic of RFC 9111 §4.2, exactly.
@Suite("Freshness arithmetic: lifetime, age on arrival, directives")
struct FreshnessRuleTests {
    let now = 1_800_000_000.0

    func headers(_ fields: [(String, String)]) -> PrismHTTPHeaders {
        var headers = PrismHTTPHeaders()
        for (name, value) in fields { headers.add(name: name, value: value) }
        return headers
    }

    @Test("lifetime: max-age, then Expires - Date, then 10% of Date - Last-Modified capped at a day")
    func lifetimes() {
        let date = HTTPDate.format(Int64(now))
        #expect(
            HTTPFreshness.lifetime(of: headers([("Cache-Control", "max-age=90")]), status: 200, responseTime: now) == 90
        )
        #expect(
            HTTPFreshness.lifetime(
                of:
                    headers([("Date", date), ("Expires", HTTPDate.format(Int64(now) + 300))]), status: 200,
                responseTime: now) == 300)
        #expect(
            HTTPFreshness.lifetime(
                of:
                    headers([("Date", date), ("Last-Modified", HTTPDate.format(Int64(now) - 1_000))]), status: 200,
                responseTime: now) == 100)
        #expect(
            HTTPFreshness.lifetime(
                of:
                    headers([("Date", date), ("Last-Modified", HTTPDate.format(Int64(now) - 10_000_000))]), status: 200,
                responseTime: now)
                == 86_400)
        #expect(HTTPFreshness.lifetime(of: headers([("Date", date)]), status: 200, responseTime: now) == nil)
        #expect(
            HTTPFreshness.lifetime(
                of: headers([("Cache-Control", "max-age=99999999999")]), status: 200, responseTime: now)
                == 2_147_483_648)
    }

    @Test("age on arrival: the larger of Date's apparent age and Age plus the response delay")
    func ages() {
        let tenSecondsAgo = HTTPDate.format(Int64(now) - 10)
        #expect(
            HTTPFreshness.ageOnArrival(of: headers([("Date", tenSecondsAgo)]), requestTime: now, responseTime: now)
                == 10)
        #expect(
            HTTPFreshness.ageOnArrival(
                of: headers([("Date", tenSecondsAgo), ("Age", "30")]), requestTime: now - 2, responseTime: now)
                == 32)
        #expect(
            HTTPFreshness.ageOnArrival(of: headers([("Age", "not a number")]), requestTime: now, responseTime: now) == 0
        )
        // A list: the first member counts; an invalid one is ignored.
        for list in [[("Age", "7200, 0")], [("Age", "7200"), ("Age", "0")], [("Age", "7200,")]] {
            #expect(HTTPFreshness.ageOnArrival(of: headers(list), requestTime: now, responseTime: now) == 7200)
        }
        for invalid in ["-1", "1.5", "abc", "", " , 7200"] {
            #expect(
                HTTPFreshness.ageOnArrival(of: headers([("Age", invalid)]), requestTime: now, responseTime: now) == 0,
                "\(invalid)")
        }
    }

    @Test("Expires on two lines, or a malformed date, gives no lifetime")
    func expiresLines() {
        let future = HTTPDate.format(Int64(now) + 3_600)
        #expect(HTTPFreshness.lifetime(of: headers([("Expires", future)]), status: 200, responseTime: now) == 3_600)
        #expect(
            HTTPFreshness.lifetime(
                of: headers([("Expires", future), ("Expires", future)]), status: 200, responseTime: now)
                == 0)
        for malformed in [
            "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
        ] {
            #expect(
                HTTPFreshness.lifetime(of: headers([("Expires", malformed)]), status: 200, responseTime: now) == 0,
                "\(malformed)")
        }
    }

    // Found by `make fuzz` (cache-control): a backslash-escaped quote inside a quoted string
    // ended the string, so the comma after it split the directive and the next name was garbage.
    @Test("a quoted string's quoted pairs are one character each, and a comma inside it splits nothing")
    func quotedPairs() {
        let read = CacheControl.directives(#"no-cache="Set-Cookie, X-\"A\\", max-age=60 , private"#)
        #expect(read.map(\.name) == ["no-cache", "max-age", "private"])
        #expect(read.map(\.value) == [#"Set-Cookie, X-"A\"#, "60", nil])
        #expect(
            CacheControl.members(#"a="x\",y", b"#).map { $0.trimmingCharacters(in: .whitespaces) } == [
                #"a="x\",y""#, "b",
            ])
        let control = CacheControl(#"no-cache="Set-Cookie, X-\"B\"", max-age=30"#)
        #expect(control.maxAge == 30)
        #expect(control.noCacheFields == ["set-cookie", #"x-"b""#])
    }

    @Test("a 304 refreshes every field it carries but hop-by-hop ones and Content-Length")
    func notModifiedFields() {
        let notModified = PrismHTTPResponse(
            statusCode: 304,
            headers: headers([
                ("ETag", "\"v2\""), ("X-Version", "2"), ("Content-Length", "0"), ("Connection", "X-Hop"),
                ("X-Hop", "1"), ("Keep-Alive", "timeout=5"),
            ]), body: Data(), url: URL(string: "https://example.com/a")!)
        let fields = PrismCacheEntry.refreshedFields(from: notModified)
        #expect(fields.map(\.name) == ["ETag", "X-Version"])
        #expect(fields.map(\.value) == ["\"v2\"", "2"])
    }
}

/// The cache key an endpoint's GET carries from the URL memo is the key made from scratch, and
/// stops being used as soon as the request changes.
@Suite("Cache keys made with the URL")
struct BuiltKeyTests {
    struct Endpoint: PrismNetworkEndpoint {
        var path: String
        var method: PrismNetworkMethod = .get
        var queryItems: [URLQueryItem]? = nil
        var headers: [String: String] = [:]
        var scheme: PrismNetworkScheme { .http }
        var host: String { "127.0.0.1" }
        var port: Int? { 8080 }
    }

    /// The key made from the request's parts, without the memo.
    func fresh(_ request: PrismHTTPRequest) -> PrismCacheKey {
        PrismCacheKey.http(
            method: request.method, url: request.url, digest: PrismCacheKey.credentialDigest(request.headers))
    }

    @Test("an endpoint's GET has the key made from its parts; a change of URL, method or headers makes it again")
    func builtKey() throws {
        let endpoint = Endpoint(path: "/users/octocat", queryItems: [URLQueryItem(name: "a", value: "1")])
        var request = try endpoint.makeHTTPRequest()
        #expect(request.builtGetKey != nil)
        #expect(PrismCacheKey.http(for: request) == fresh(request))
        #expect(PrismCacheKey.http(for: request).string == "GET http://127.0.0.1:8080/users/octocat?a=1")
        let copy = request
        request.headers["Authorization"] = "Bearer one"
        #expect(request.builtGetKey == nil)
        #expect(PrismCacheKey.http(for: request) == fresh(request))
        #expect(PrismCacheKey.http(for: request) != PrismCacheKey.http(for: copy))
        // The copy made before the change keeps its own key.
        #expect(copy.builtGetKey != nil)
        var moved = copy
        moved.url = URL(string: "http://127.0.0.1:8080/other")!
        #expect(PrismCacheKey.http(for: moved).string == "GET http://127.0.0.1:8080/other")
        var head = copy
        head.method = PrismNetworkMethod.head
        #expect(PrismCacheKey.http(for: head).string.hasPrefix("HEAD "))
        // Credentials in the endpoint's own headers: no key kept, the digest counts.
        let secret = try Endpoint(path: "/me", headers: ["X-API-Key": "k"]).makeHTTPRequest()
        #expect(secret.builtGetKey == nil)
        #expect(PrismCacheKey.http(for: secret).string.contains(" credentials:"))
        // A POST keeps none.
        #expect(try Endpoint(path: "/me", method: .post).makeHTTPRequest().builtGetKey == nil)
    }
}
