// Talking to an HTTP API with PrismHTTP and PrismCache: endpoints, errors, authentication,
// retries, caching, uploads and transports. It compiles with the package; it needs a server to run.
// snippet.hide
import Foundation
import Prism

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// snippet.show

// snippet.describing-endpoints
enum GitHubEndpoint: PrismNetworkEndpoint {
    case user(login: String)
    case repositories(login: String, page: Int)
    case createIssue(repository: String, NewIssue)

    var host: String { "api.github.com" }

    var path: String {
        switch self {
        case .user(let login): PrismPath.segments("users", login)  // "a/b" stays one segment
        case .repositories(let login, _): PrismPath.segments("users", login, "repos")
        case .createIssue(let repository, _): PrismPath.segments("repos", "octocat", repository, "issues")
        }
    }

    var method: PrismNetworkMethod {
        if case .createIssue = self { .post } else { .get }
    }

    var queryItems: [URLQueryItem]? {
        if case .repositories(_, let page) = self { [URLQueryItem(name: "page", value: String(page))] } else { nil }
    }

    var headers: [String: String] { ["Accept": "application/vnd.github+json"] }

    var body: (any Encodable)? {
        if case .createIssue(_, let issue) = self { issue } else { nil }
    }

    /// A user's profile stays fresh for five minutes, whatever the server's headers say.
    var cacheInterval: TimeInterval? {
        if case .user = self { 300 } else { nil }
    }
}

struct NewIssue: Encodable, Sendable {
    var title: String
    var body: String
}
// snippet.end

// snippet.requests
/// Decoded from snake_case JSON: `public_repos`, `html_url`.
struct GitHubUser: PrismEntity, Equatable {
    var login: String
    var name: String?
    var publicRepos: Int
    var htmlURL: URL
}

struct Issue: PrismEntity {
    var number: Int
    var htmlURL: URL
}

struct GetUserRequest: PrismNetworkRequest {
    typealias Response = GitHubUser
    let endpoint: GitHubEndpoint

    init(login: String) {
        endpoint = .user(login: login)
    }
}

func fetchProfile(client: some PrismNetworkClient) async throws -> (GitHubUser, Issue) {
    let user = try await client.request(on: GetUserRequest(login: "octocat"))
    // A request type of one line, for an endpoint used once:
    let issue = try await client.request(
        on: PrismEndpointRequest<GitHubEndpoint, Issue>(
            .createIssue(repository: "hello-world", NewIssue(title: "Crash on launch", body: "Steps: ..."))
        )
    )
    return (user, issue)
}
// snippet.end

// snippet.errors
func loadUser(_ login: String, client: some PrismNetworkClient) async -> String {
    do {
        let user = try await client.request(on: GetUserRequest(login: login))
        return user.name ?? user.login
    } catch let error as PrismHTTPError {
        switch error.code {
        case .unacceptableStatus where error.statusCode == 404:
            return "No such user"
        case .unacceptableStatus:
            // The server's own words are kept: status, headers and body.
            return "The server said \(error.statusCode ?? 0): \(error.bodyText ?? "")"
        case .decodingFailed:
            return "Unexpected answer: \(error.message)"  // which key, which type
        case .timedOut, .connectionFailed:
            return "Offline? \(error.message)"
        case .retriesExhausted:
            return "Gave up after \(error.attempts.count) attempts"
        default:
            return error.description  // credentials in the URL redacted
        }
    } catch {
        return "Cancelled"  // a cancelled task throws CancellationError, not PrismHTTPError
    }
}
// snippet.end

// snippet.auth
struct TokenPair: PrismEntity {
    var accessToken: String
}

struct RefreshEndpoint: PrismNetworkEndpoint {
    var refreshToken: String
    var host: String { "auth.example.com" }
    var path: String { "/oauth/token" }
    var method: PrismNetworkMethod { .post }
    var body: (any Encodable)? { ["grant_type": "refresh_token", "refresh_token": refreshToken] }
}

func makeAuthenticatedClient(accessToken: String?, refreshToken: String) -> PrismNetworkAdapter {
    // The refresh request goes through a client without the authenticator.
    let plain = PrismNetworkAdapter(cache: nil)
    let authenticator = PrismBearerTokenAuthenticator(accessToken: accessToken) { _ in
        try await plain.request(
            on: PrismEndpointRequest<RefreshEndpoint, TokenPair>(RefreshEndpoint(refreshToken: refreshToken))
        ).accessToken
    }
    return PrismNetworkAdapter(
        interceptors: [
            PrismInterceptor.headers(["User-Agent": "MyApp/1.0"]),
            PrismInterceptor { request in
                var request = request
                request.headers["X-Request-ID"] = UUID().uuidString
                return request
            },
        ],
        authenticator: authenticator
    )
}
// snippet.end

// snippet.retry
func fetchWithRetries(client: PrismNetworkAdapter) async throws -> GitHubUser {
    // Up to four attempts, 1 s, 2 s, 4 s apart (plus jitter, at most 30 s, Retry-After honoured).
    let policy = PrismExponentialBackoff(baseDelay: .seconds(1), maxDelay: .seconds(30), maxAttempts: 4)
    return try await client.request(on: GetUserRequest(login: "octocat"), retryPolicy: policy)
}

/// Any async operation, retried as the policy says (here: two profiles fetched together).
func fetchBoth(client: PrismNetworkAdapter) async throws -> [GitHubUser] {
    let retryable = PrismRetryableRequest(policy: PrismExponentialBackoff(maxAttempts: 3)) {
        async let first = client.request(on: GetUserRequest(login: "octocat"))
        async let second = client.request(on: GetUserRequest(login: "defunkt"))
        return try await [first, second]
    }
    return try await retryable.execute()
}
// snippet.end

// snippet.cache
func cachedClient() -> PrismNetworkAdapter {
    // 200 entries and 8 MiB at most; the least recently used go first.
    PrismNetworkAdapter(cache: PrismResponseCache(maxSize: 200, maxBytes: 8 * 1_024 * 1_024))
}

func showProfile(client: PrismNetworkAdapter) async throws {
    // As HTTP says: fresh from the cache, stale revalidated with If-None-Match / If-Modified-Since.
    _ = try await client.request(on: GetUserRequest(login: "octocat"))

    // A fresh cached answer without asking the server; the network otherwise.
    _ = try await client.request(on: GetUserRequest(login: "octocat"), cachePolicy: .cacheFirst)

    // The cached value at once, then the fresh one.
    for try await update in client.responses(on: GetUserRequest(login: "octocat")) {
        print(update.source == .cache ? "cached" : "fresh", update.isStale, update.value.login)
    }
}

func signOut(client: PrismNetworkAdapter) async {
    await client.cache?.removeAll()
}
// snippet.end

// snippet.upload
func uploadVideo(at file: URL, client: PrismNetworkAdapter) async throws -> PrismHTTPResponse {
    var form = PrismMultipartFormData()
    form.append(string: "Holiday", name: "title")
    try form.append(fileURL: file, name: "video", mimeType: "video/mp4")  // streamed, never loaded whole

    var request = URLRequest(url: URL(string: "https://uploads.example.com/videos")!)
    request.httpMethod = "POST"
    let task = PrismUploadTask(request: request, form: form, client: client)
    for await progress in await task.upload() {
        print("Uploaded \(Int(progress.fractionCompleted * 100))%")
    }
    return try await task.response
}
// snippet.end

// snippet.transports
func makeClient() -> PrismNetworkAdapter {
    let configuration = PrismTransportConfiguration(
        connectTimeout: .seconds(5),
        requestTimeout: .seconds(15),  // head, whole body and redirects
        maximumResponseBytes: 16 * 1_024 * 1_024,
        redirects: .sameOrigin(maximum: 3)
    )
    // AsyncHTTPClient on Linux, URLSession on Apple platforms (or without Prism's trait).
    return PrismNetworkAdapter(transport: PrismNetworkAdapter.defaultTransport(configuration: configuration))
}

func slowReport(client: PrismNetworkAdapter) async throws -> GitHubUser {
    // One request may wait longer than the transport's default.
    try await client.request(on: GetUserRequest(login: "octocat"), options: PrismRequestOptions(timeout: .seconds(120)))
}
// snippet.end

// snippet.form
/// An OAuth 2 token request (RFC 6749 §4.1.3): a form, not JSON.
struct TokenEndpoint: PrismNetworkEndpoint {
    var code: String
    var redirectURI: URL

    struct Form: Encodable, Sendable {
        var grantType = "authorization_code"
        var code: String
        var redirectURI: URL
    }

    var host: String { "auth.example.com" }
    var path: String { "/oauth/token" }
    var method: PrismNetworkMethod { .post }
    var body: (any Encodable)? {
        var encoder = PrismFormEncoder()
        encoder.keyEncoding = .convertToSnakeCase
        // code=...&grant_type=authorization_code&redirect_uri=app%3A%2F%2Fsigned-in
        return PrismFormBody(Form(code: code, redirectURI: redirectURI), encoder: encoder)
    }
}
// snippet.end

// snippet.curl
func logAsCurl(client: PrismNetworkAdapter, url: URL) async throws {
    // The request as it will go out (after the interceptors, with its credentials), secrets
    // redacted: paste it into a bug report. The client logs it at .trace by itself.
    let prepared = try await client.prepare(PrismHTTPRequest(url: url), options: PrismRequestOptions())
    print(prepared.curlCommand())
}
// snippet.end

// snippet.compression
func compressedUploads(url: URL, report: Data) async throws {
    // One request: its body compressed with gzip, named in Content-Encoding.
    let client = PrismNetworkAdapter()
    let request = PrismHTTPRequest(url: url, method: .post, headers: ["Content-Type": "application/json"], body: report)
    _ = try await client.send(try request.compressingBody(with: .gzip))

    // Every request's body of a kilobyte or more, for a server that reads compressed bodies.
    let compressing = PrismNetworkAdapter(interceptors: [PrismInterceptor.compressingBodies(with: .gzip)])
    _ = try await compressing.send(PrismHTTPRequest(url: url, method: .post, body: report))
}
// snippet.end
