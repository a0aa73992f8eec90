import Foundation
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

@Suite("Endpoints")
struct EndpointTests {
    @Test("the seed's endpoint builds its URL, method, headers and query")
    func seedEndpointURL() throws {
        #expect(GitHubEndpoint.user(login: "octocat").url.absoluteString == "https://api.github.com/users/octocat")
        let repos = GitHubEndpoint.repos(login: "octocat", page: 2)
        #expect(
            repos.url.absoluteString == "https://api.github.com/users/octocat/repos?page=2&per_page=30&sort=updated")
        let request = try repos.makeHTTPRequest()
        #expect(request.method == .get)
        #expect(request.headers["accept"] == "application/vnd.github+json")
        #expect(request.headers["Authorization"] == "Bearer ghp_seedtoken")
        #expect(request.body == nil)
    }

    @Test("an Encodable body is sent as snake_case JSON with its content type")
    func jsonBody() throws {
        let endpoint = GitHubEndpoint.createIssue(
            repo: "octocat/Hello-World",
            body: CreateIssueBody(title: "Broken", body: "Steps", labels: ["bug"])
        )
        let request = try endpoint.makeHTTPRequest()
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "application/json")
        let json = try JSONSerialization.jsonObject(with: try #require(request.body)) as? [String: Any]
        #expect(json?["title"] as? String == "Broken")
        #expect(json?["labels"] as? [String] == ["bug"])
        #expect(endpoint.request.httpMethod == "POST")
        #expect(endpoint.request.httpBody == request.body)
    }

    struct Local: PrismNetworkEndpoint {
        var scheme: PrismNetworkScheme { .http }
        var host: String { "127.0.0.1" }
        var port: Int? { 8080 }
        var path: String
        var queryItems: [URLQueryItem]? = nil
        var payload: (any Encodable & Sendable)? = nil
        var body: (any Encodable)? { payload }
        var headers: [String: String] = [:]
        var timeoutInterval: TimeInterval? = nil
        var cacheInterval: TimeInterval? = nil
    }

    /// An endpoint whose `bodyEncoder` writes snake_case keys and counts how often it is asked for.
    struct SnakeCaseBodies: PrismNetworkEndpoint {
        let asked = LockedBox(0)
        var payload: any Encodable & Sendable
        var scheme: PrismNetworkScheme { .http }
        var host: String { "127.0.0.1" }
        var path: String { "/issues" }
        var method: PrismNetworkMethod { .post }
        var body: (any Encodable)? { payload }
        var bodyEncoder: JSONEncoder {
            asked.mutate { $0 += 1 }
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }
    }

    @Test("an endpoint's bodyEncoder encodes an Encodable body, and is not asked for bytes or text")
    func customBodyEncoder() throws {
        struct Issue: Encodable { var issueTitle: String }
        let encodable = SnakeCaseBodies(payload: Issue(issueTitle: "Broken"))
        let request = try encodable.makeHTTPRequest()
        #expect(request.body == Data(#"{"issue_title":"Broken"}"#.utf8))
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(encodable.asked.wrappedValue == 1)

        let bytes = SnakeCaseBodies(payload: Data(#"{"issueTitle":"as is"}"#.utf8))
        #expect(try bytes.makeHTTPRequest().body == Data(#"{"issueTitle":"as is"}"#.utf8))
        let text = SnakeCaseBodies(payload: "plain")
        #expect(try text.makeHTTPRequest().body == Data("plain".utf8))
        #expect(bytes.asked.wrappedValue == 0)
        #expect(text.asked.wrappedValue == 0)
    }

    @Test("empty query items add no query; a port and a path without slash are handled")
    func urlParts() {
        #expect(Local(path: "/a", queryItems: []).url.absoluteString == "http://127.0.0.1:8080/a")
        #expect(Local(path: "b").url.absoluteString == "http://127.0.0.1:8080/b")
        #expect(
            Local(path: "/q", queryItems: [URLQueryItem(name: "a b", value: "c&d")]).url.absoluteString
                == "http://127.0.0.1:8080/q?a%20b=c%26d")
    }

    @Test("a String body is sent as UTF-8 text, Data as is, and a header set by the endpoint wins")
    func rawBodies() throws {
        let text = try Local(path: "/t", payload: "héllo").makeHTTPRequest()
        #expect(text.body == Data("héllo".utf8))
        #expect(text.headers["Content-Type"] == "text/plain; charset=utf-8")
        let data = try Local(
            path: "/d", payload: Data([1, 2, 3]), headers: ["Content-Type": "application/octet-stream"]
        ).makeHTTPRequest()
        #expect(data.body == Data([1, 2, 3]))
        #expect(data.headers["Content-Type"] == "application/octet-stream")
    }

    @Test("timeoutInterval becomes the request's timeout and cacheInterval the URLRequest's cache policy")
    func timeoutAndCache() throws {
        let request = try Local(path: "/x", timeoutInterval: 2.5).makeHTTPRequest()
        #expect(request.timeout == .milliseconds(2_500))
        #expect(GitHubEndpoint.user(login: "a").request.cachePolicy == .returnCacheDataElseLoad)
    }

    struct Broken: PrismNetworkEndpoint {
        var host: String { "" }
        var path: String { "/x" }
    }

    struct Unencodable: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "nope"))
        }
    }

    @Test("an endpoint that makes no URL, or whose body does not encode, is a clear error")
    func badEndpoints() {
        #expect(throws: PrismHTTPError.self) { try Broken().makeURL() }
        do {
            _ = try Local(path: "/x", payload: Unencodable()).makeHTTPRequest()
            Issue.record("expected an encoding error")
        } catch {
            #expect(error.code == .encodingFailed)
            #expect(error.message.contains("Unencodable"))
        }
    }
}

@Suite("Decoding")
struct DecodingTests {
    @Test("snake_case keys map to camelCase with Swift acronyms, and lowercase acronyms too")
    func acronyms() throws {
        let json = Data(#"{"number": 1347, "html_url": "https://github.com/o/r/issues/1347"}"#.utf8)
        let issue = try PrismEntityRequest<IssueResponse>().decode(data: json, with: IssueResponse.decoder)
        #expect(issue.htmlURL == "https://github.com/o/r/issues/1347")

        struct Lowercase: PrismEntity {
            var htmlUrl: String
            var userId: Int
        }
        let lower = try PrismEntityRequest<Lowercase>()
            .decode(data: Data(#"{"html_url": "u", "user_id": 3}"#.utf8), with: Lowercase.decoder)
        #expect(lower.htmlUrl == "u")
        #expect(lower.userId == 3)

        struct Many: PrismEntity {
            var userID: Int
            var avatarURLs: [String]
            var apiVersion: String
            var createdAt: Date
        }
        let many = try PrismEntityRequest<Many>().decode(
            data: Data(
                #"{"user_id": 1, "avatar_urls": ["a"], "api_version": "v3", "created_at": "2011-01-25T18:44:36Z"}"#.utf8
            ),
            with: Many.decoder
        )
        #expect(many.userID == 1)
        #expect(many.avatarURLs == ["a"])
        #expect(many.apiVersion == "v3")
        #expect(many.createdAt == Date(timeIntervalSince1970: 1_295_981_076))
    }

    @Test("a body without an underscore decodes as the snake_case decoder would, dates included")
    func keysWithoutUnderscores() throws {
        struct Plain: PrismEntity {
            var login: String
            var createdAt: Date?
            var items: [String]
        }
        let plain = try PrismEntityRequest<Plain>().decode(
            data: Data(#"{"login": "octocat", "createdAt": "2011-01-25T18:44:36Z", "items": ["a", "b"]}"#.utf8),
            with: Plain.decoder)
        #expect(plain.login == "octocat")
        #expect(plain.createdAt == Date(timeIntervalSince1970: 1_295_981_076))
        #expect(plain.items == ["a", "b"])
        // An underscore written as an escape is an underscore still: the key converts.
        let escaped = try PrismEntityRequest<Plain>().decode(
            data: Data(#"{"login": "o", "created\u005Fat": "2011-01-25T18:44:36Z", "items": []}"#.utf8),
            with: Plain.decoder)
        #expect(escaped.createdAt == Date(timeIntervalSince1970: 1_295_981_076))
        // A value with an escape, and no underscore anywhere, decodes as it is.
        let quoted = try PrismEntityRequest<Plain>().decode(
            data: Data(#"{"login": "say \"hi\"\n", "items": ["\u00e9"]}"#.utf8), with: Plain.decoder)
        #expect(quoted.login == "say \"hi\"\n")
        #expect(quoted.items == ["é"])
        // A type whose own decoder is not Prism's keeps it: no conversion, whatever the body.
        struct Own: PrismEntity {
            static var decoder: JSONDecoder { JSONDecoder() }
            var publicRepos: Int?
        }
        let own = try PrismEntityRequest<Own>().decode(data: Data(#"{"public_repos": 8}"#.utf8), with: Own.decoder)
        #expect(own.publicRepos == nil)
    }

    @Test("the seed's GitHubUser decodes GitHub-shaped JSON")
    func gitHubUser() throws {
        let json = Data(#"{"login": "octocat", "name": "The Octocat", "public_repos": 8, "html_url": "x"}"#.utf8)
        let user = try GetUserRequest(login: "octocat").decode(data: json, with: GitHubUser.decoder)
        #expect(user.publicRepos == 8)
        #expect(user.name == "The Octocat")
    }
}

/// A request with no endpoint of interest, to call the default decoding directly.
struct PrismEntityRequest<Value: PrismEntity>: PrismNetworkRequest {
    typealias Response = Value
    var endpoint: EndpointTests.Local { .init(path: "/") }
}

@Suite("Containers of entities")
struct EntityContainerTests {
    struct Repository: PrismEntity, Equatable {
        var id: Int
        var fullName: String
        var stargazersCount: Int
    }

    @Test("a JSON array decodes as [Entity], and a keyed object as [String: Entity], with the element's decoder")
    func arraysAndDictionaries() async throws {
        try await withClient { (server, client) async throws in
            let repositories = try await client.request(
                on: ServerRequest<[Repository]>(
                    endpoint: ServerEndpoint(server, "/users/octocat/repos", query: ["per_page": "3"])))
            #expect(repositories.map(\.fullName) == ["octocat/repo-1", "octocat/repo-2", "octocat/repo-3"])
            #expect(repositories.last?.stargazersCount == 3)
            // snake_case keys of the elements become camelCase; the dictionary's own keys stay.
            let keyed = try [String: Repository].decoder.decode(
                [String: Repository].self,
                from: Data(#"{"first_one": {"id": 1, "full_name": "a/b", "stargazers_count": 2}}"#.utf8))
            #expect(keyed["first_one"]?.fullName == "a/b")
        }
    }
}
