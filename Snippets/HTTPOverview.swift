// PrismHTTP at a glance: a typed request, safe paths, transports and TLS, authentication,
// retries, uploads and a client of your own. It compiles with the package; it needs a server to
// run.
// snippet.hide
import Foundation
import Prism

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct User: PrismEntity {
    var login: String
}

struct TokenPair: PrismEntity {
    var accessToken: String
}

enum Endpoint: PrismNetworkEndpoint {
    case user(login: String)
    case refresh(token: String)

    var host: String { "api.example.com" }

    // snippet.show
    // snippet.path
    var path: String {
        switch self {
        case .user(let login): PrismPath.segments("users", login)  // "a/b" stays one segment
        // snippet.hide
        case .refresh: "/oauth/token"
        // snippet.show
        }
    }
    // snippet.end
    // snippet.hide
}

struct GetUserRequest: PrismNetworkRequest {
    typealias Response = User
    let endpoint: Endpoint

    init(login: String) {
        endpoint = .user(login: login)
    }
}

struct RefreshRequest: PrismNetworkRequest {
    typealias Response = TokenPair
    let endpoint: Endpoint

    init(refreshToken: String) {
        endpoint = .refresh(token: refreshToken)
    }
}

func sending() async throws {
    // snippet.show
    // snippet.request
    let client: any PrismNetworkClient = PrismNetworkAdapter()
    let user = try await client.request(on: GetUserRequest(login: "octocat"))
    // snippet.end
    // snippet.hide
    _ = user
}

func transport() -> any PrismHTTPTransport {
    // snippet.show
    // snippet.transport
    let transport = PrismNetworkAdapter.defaultTransport(
        configuration: PrismTransportConfiguration(requestTimeout: .seconds(15), redirects: .sameOrigin())
    )
    // snippet.end
    // snippet.hide
    return transport
}

#if AsyncHTTPClient && os(Linux)
func tls(
    companyRootPEM: String, currentKeyHash: String, backupKeyHash: String, chainPEM: String, keyPEM: String
) throws -> PrismAsyncHTTPClientTransport {
    // snippet.show
    // snippet.tls
    let tls = PrismTLSConfiguration(
        trustRoots: .systemAnd([try PrismCertificate(pem: companyRootPEM)]),
        pins: [try PrismCertificatePin(host: "api.example.com", sha256: [currentKeyHash, backupKeyHash])],
        clientIdentity: try PrismClientIdentity(certificateChainPEM: chainPEM, privateKeyPEM: keyPEM),
        minimumVersion: .tls13
    )
    let transport = PrismAsyncHTTPClientTransport(configuration: PrismTransportConfiguration(tls: tls))
    // snippet.end
    // snippet.hide
    return transport
}
#endif

func authenticator(stored: String?, refreshToken: String, client: PrismNetworkAdapter) -> PrismAuthenticator {
    // snippet.show
    // snippet.auth
    let auth = PrismBearerTokenAuthenticator(accessToken: stored) { _ in
        try await client.request(on: RefreshRequest(refreshToken: refreshToken)).accessToken
    }
    // snippet.end
    // snippet.hide
    return auth
}

func retrying(client: PrismNetworkAdapter) async throws -> User {
    // snippet.show
    // snippet.retry
    let retryable = PrismRetryableRequest(
        policy: PrismExponentialBackoff(baseDelay: .seconds(1), maxDelay: .seconds(30), maxAttempts: 3),
        operation: { try await client.request(on: GetUserRequest(login: "octocat")) }
    )
    let user = try await retryable.execute()
    // snippet.end
    // snippet.hide
    return user
}

func uploading(request: URLRequest, form: PrismMultipartFormData, client: PrismNetworkAdapter) async throws {
    // snippet.show
    // snippet.upload
    let task = PrismUploadTask(request: request, form: form, client: client)
    for await progress in await task.upload() {
        print("Uploaded \(Int(progress.fractionCompleted * 100))%")
    }
    let response = try await task.response
    // snippet.end
    // snippet.hide
    _ = response
}

func relative() -> PrismNetworkAdapter {
    // snippet.show
    // snippet.relative
    struct UserEndpoint: PrismNetworkEndpoint {
        let login: String
        var path: String { PrismPath.segments("users", login) }
    }

    let client = PrismNetworkAdapter(baseURL: URL(string: "https://staging.example.com/api/v2")!)
    // GET https://staging.example.com/api/v2/users/octocat
    // snippet.end
    // snippet.hide
    return client
}

// snippet.show
// snippet.canned
struct CannedClient: PrismNetworkClient {
    func send(_ prepared: PrismPreparedRequest) async throws -> PrismHTTPResponse {
        PrismHTTPResponse(statusCode: 200, body: Data(#"{"login":"octocat"}"#.utf8), url: prepared.request.url)
    }
}
// snippet.end
