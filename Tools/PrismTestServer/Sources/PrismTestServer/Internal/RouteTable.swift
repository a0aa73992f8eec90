import HTTPTypes
import Hummingbird

/// A set of related routes. To add routes (a GraphQL endpoint, say), write a type that conforms,
/// register it in ``RouteTable/groups(state:)``, and document it in the table below and in the
/// package's README.md.
protocol RouteGroup: Sendable {
    /// Adds the group's routes to `router`.
    func register(on router: Router<TestServerRequestContext>)
}

/// The test server's routes: the contract the tests of PrismHTTP and PrismCache rely on.
///
/// Bodies are JSON (`Content-Type: application/json; charset=utf-8`, keys in the order shown)
/// unless stated. `:name` is a path parameter (percent-decoded), `?a=` a query item. Every GET
/// route also answers HEAD (same headers, no body).
///
/// | Route | Answer |
/// | --- | --- |
/// | `GET /users/:login` | 200 `{"login", "name": "The <login>", "public_repos": 8, "html_url": "https://github.com/<login>", "created_at": "2011-01-25T18:44:36Z"}` |
/// | `GET /users/:login/repos?page=&per_page=&sort=` | 200 array of `per_page` (default 30, 0–1000) repos `{"id", "name": "repo-<id>", "full_name": "<login>/repo-<id>", "stargazers_count": <id>}`, ids `(page-1)*per_page+1...`; header `X-Echo-Query: <raw query>` |
/// | `POST /repos/:owner/:repo/issues` | body `{"title","body","labels"}`; 201 `{"number": 1347, "html_url", "title", "body", "labels": [<strings as sent>]}`; 400 `{"message": "Validation Failed", "errors": [{"resource": "Issue", "code": "missing_field", "field": "title"}]}` when the title is missing or empty; 400 `{"message": "Problems parsing JSON"}` when the body is not a JSON object |
/// | `ANY /echo`, `ANY /echo/**` | 200 `{"method", "path", "query": {name: value}, "headers": {lowercased name: value}, "body": <UTF-8 text, or null when empty or not UTF-8>, "bodyBase64", "bodyLength"}` (no body for HEAD) |
/// | `ANY /status/:code` | status `code` (200–599; else 400) with `{"status", "message": "status <code>"}` (no body for 204, 205, 304); `?retryAfter=<s>` adds `Retry-After: <s>`, with `&retryAfterDate=1` as an HTTP-date (now + s, rounded up); `?header.X-Name=value` adds response headers |
/// | `GET /delay/:ms` | waits `ms` (0–600000) without blocking an event loop, then 200 `{"delayed": ms}`; the wait ends early if the client closes the connection or the server stops |
/// | `GET /json/:bytes` | 200 `{"id": 1, "name": "payload-<bytes>", "items": [strings]}` of exactly `bytes` bytes (at least ~45), precomputed and cached per size |
/// | `GET /large/:bytes` | 200 `application/octet-stream`, exactly `bytes` bytes, byte `i` = `i % 251`, streamed in 64 KB chunks with back-pressure, `Content-Length` set |
/// | `GET /etag/:name` | 200 `{"name", "version", "payload"}` with `ETag: "<name>-v<version>"`, `Cache-Control: no-cache`; 304 (ETag, no body) when `If-None-Match` matches (list, `W/` and `*` understood) |
/// | `POST /etag/:name/bump` | version + 1; 204 with the new `ETag` |
/// | `GET /last-modified/:name` | 200 `{"name", "version", "lastModified", "payload"}` with `Last-Modified` (starts at Mon, 01 Jan 2024 00:00:00 GMT) and `Cache-Control: no-cache`; 304 when `If-Modified-Since` ≥ it |
/// | `POST /last-modified/:name/bump` | version + 1, date + 1 s; 204 with the new `Last-Modified` |
/// | `GET /cache/:name?max-age=<s>&no-store=1&no-cache=1&private=1&public=1&must-revalidate=1&vary=<names>&delay=<ms>` | 200 `{"name", "hit": <n-th request to this name>}` with the matching `Cache-Control` (directives joined with `, `; none when no item is given) and `Vary: <names>` when asked; with `delay`, requests after the first wait `ms` first |
/// | `ANY /scripted/:name` | the answers scripted with ``PrismTestServer/script(_:_:)`` (status, header lines in order, body, a delay before answering, then parts of the body each after its own wait or once the test releases its name (``PrismTestServer/release(_:)``), chunked, and an end or a dropped connection), one per request, the last repeated (no body for 204, 205, 304, HEAD); 404 when nothing is scripted |
/// | `GET /auth/protected` | 200 `{"ok": true, "token"}` with `Authorization: Bearer <current token>`; else 401 `{"message": "token expired"}` with `WWW-Authenticate: Bearer` |
/// | `POST /auth/refresh?delay=<ms>` | body `{"refreshToken": <non-empty string>}` (else 400); after the optional delay, 200 `{"accessToken": "token-<n>", "refreshToken": "refresh-<n>"}`, `token-<n>` current, refresh count + 1 |
/// | `GET /drop` | reads the request, closes the connection without a response (channel handler) |
/// | `GET /drop-mid-body?length=&sent=` | 200 head with `Content-Length: length` (default 1048576), `sent` bytes (default 16384) of the pattern, then closes (channel handler) |
/// | `ANY /flaky/:name?failures=<n>&status=<code>&retryAfter=<s>` | attempts 1...n answer `status` (default 503) `{"name", "attempt", "message"}` (with `Retry-After` when given), later ones 200 `{"name", "attempt"}` |
/// | `GET /timeout-then-ok/:name?failures=<n>&delay=<ms>` | attempts 1...n wait `delay` ms (default 2000) then 200; later ones 200 at once; body `{"name", "attempt", "delayed"}` |
/// | `POST`/`PUT /upload?id=&slow=1&bytesPerSecond=&requireToken=1` | multipart/form-data (RFC 7578) or a raw body, streamed: 200 `{"fields": {name: value}, "files": [{"name", "filename", "contentType", "size", "sha256"}], "parts": [...], "bodyLength"}`; 400 for a malformed multipart body; with `requireToken=1`, 401 (body unread) unless `Authorization: Bearer <current token>` |
/// | `POST`/`GET /graphql?persistedQueries=0&mediaType=json&nullDataStatus=<code>` | GraphQL over HTTP (POST: `Content-Type: application/json`, else 415; a body that is not a GraphQL request: 400; or `multipart/form-data` by the GraphQL multipart request spec, `operations`, `map`, then files, each put into the variables as an `Upload` `{filename, contentType, size, sha256}` (mutations `uploadFile(file:)`, `uploadFiles(files:)` return them), a map path that is not a null in operations: 400; GET: the members in the URL, queries only, a mutation is 405 `Allow: POST`; `application/graphql-response+json` when accepted unless `mediaType=json`, with 400 for a request error; `nullDataStatus` for `"data": null`): `{"errors", "data"}` from a real schema (see ``GraphQLRoutes``): `user(login:)`, `failingField`, `requiredFailingField` (`"data": null`), `echoVariables`, `authorization`, `operationNumber`, mutation `createIssue(repo:input:)`; Apollo's automatic persisted queries (`PersistedQueryNotFound` for an unknown hash, hash checked against the query) unless `persistedQueries=0` (`PersistedQueryNotSupported`) |
/// | `GET /graphql`, `/graphql/ws` upgraded to WebSocket (`graphql-transport-ws`) `?requireToken=1&close=<code>&serverPing=1&violation=<kind>` | GraphQL subscriptions `taskAdded` (fed by mutation `addTask(title:)`), `counter(to:intervalMs:)`, `failingSubscription`, the protocol enforced and broken on demand (see ``GraphQLSubscriptionEndpoint``); not routed: the server's upgrade handler takes it |
/// | `POST /graphql/flaky/:name?failures=<n>&status=<code>&retryAfter=<s>` | attempts 1...n answer `status` (default 503) with a GraphQL error body, counted with `/flaky/:name`; later ones serve `/graphql` |
/// | `GET`/`PUT`/`POST /tasks`, `POST /tasks/fail-next?count=&status=&retryAfter=` | the sample app's task list with a revision, `ETag` and 304s, and failures on demand (see ``TaskRoutes``) |
/// | `GET /hostile/stall?length=&sent=&ms=` | 200 octet-stream head with `Content-Length: length` (default 1048576), `sent` bytes (default 1024) of the `/large` pattern, then nothing for `ms` (default 10000) milliseconds, then the rest; the wait ends when the client leaves (an abandoned response) |
/// | `GET /hostile/drip?bytes=&interval=` | 200 octet-stream head with `Content-Length: bytes` (default 100), then one byte every `interval` ms (default 100) |
/// | `GET /hostile/oversized/:bytes` | 200 octet-stream, `bytes` bytes of the pattern, chunked (no `Content-Length`) |
/// | `ANY /hostile/redirect?to=<url>&status=<code>` | `status` (300–399, default 302) with `Location: <url>` (any URL, any origin, any scheme) and `{"message", "location"}` |
/// | `ANY /hostile/redirect-chain/:n?status=` | n > 0: `status` (default 302) to `/hostile/redirect-chain/<n-1>` (relative, query kept); n = 0: 200 `{"chain": "end", "method"}` |
/// | `ANY /hostile/unauthorized` | always 401 `{"message": "credentials rejected"}` with `WWW-Authenticate: Bearer` |
/// | `GET /download/:name?bytes=&validator=etag\|last-modified\|none&ignoreRange=1&lieRange=1&dropAfter=&drops=` | a file of `bytes` bytes (default 1048576) that `POST /etag/:name/bump` changes, with its validator, `Range`/`If-Range` (206, 416; `lieRange=1`: a 206 from byte 0 whatever was asked), and the first `drops` requests (default 1) cut after `dropAfter` bytes (see ``DownloadRoutes``) |
/// | `GET /tls/client-certificate` | 200 `{"subject": "<common name>"}` on a TLS connection that presented a client certificate signed by the test client authority (one it did not sign fails the handshake); else 403 `{"message": "a client certificate is required"}` |
/// | anything else | 404 `{"message": "not found", "path"}` |
enum RouteTable {
    /// The route groups, in registration order.
    static func groups(state: ServerState) -> [any RouteGroup] {
        [
            GitHubRoutes(),
            StatusRoutes(),
            PayloadRoutes(),
            ConditionalRoutes(state: state),
            CacheRoutes(state: state),
            AuthRoutes(state: state),
            FlakyRoutes(state: state),
            UploadRoutes(state: state),
            GraphQLRoutes(state: state),
            GraphQLMockRoutes(state: state),
            TaskRoutes(state: state),
            HostileRoutes(state: state),
            DownloadRoutes(state: state),
            TLSRoutes(),
        ]
    }

    /// The router of one server.
    static func makeRouter(state: ServerState) -> Router<TestServerRequestContext> {
        let router = Router(context: TestServerRequestContext.self, options: [.autoGenerateHeadEndpoints])
        // Middleware must be added before the routes it wraps.
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: EchoMiddleware())
        router.add(middleware: ScriptedMiddleware(state: state))
        for group in groups(state: state) {
            group.register(on: router)
        }
        return router
    }
}

extension Router<TestServerRequestContext> {
    /// Registers `handler` for `path` under every method in `methods`.
    func on(
        _ path: RouterPath,
        methods: [HTTPRequest.Method],
        use handler: @escaping @Sendable (Request, TestServerRequestContext) async throws -> Response
    ) {
        for method in methods {
            self.on(path, method: method, use: handler)
        }
    }
}

extension TestServerRequestContext {
    /// The path parameter `name`, percent-decoded; "" when absent (routes only ask for their own).
    func parameter(_ name: String) -> String {
        RequestTarget.percentDecoded(self.parameters.get(name) ?? "")
    }
}

extension Request {
    /// The query items, percent-decoded; when a name repeats, the last value wins.
    var query: [String: String] {
        RequestTarget.queryDictionary(self.uri.query)
    }
}

/// The methods that routes described as `ANY` accept (HEAD is generated from GET).
let anyMethod: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .options]
