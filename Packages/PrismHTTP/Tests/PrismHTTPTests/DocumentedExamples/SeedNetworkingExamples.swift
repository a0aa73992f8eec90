// Seed page 004 (networking): the endpoint, requests and caching examples, as written there.
// `Secrets.githubToken` is the page's; it is defined here. The `queryItems` and `cacheInterval`
// overrides the page shows separately are written into the endpoint, where they belong.
import Foundation
import PrismHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum Secrets {
    static let githubToken = "ghp_seedtoken"
}

enum GitHubEndpoint: PrismNetworkEndpoint {
    case user(login: String)
    case repos(login: String, page: Int)
    case createIssue(repo: String, body: CreateIssueBody)

    // Required
    var host: String { "api.github.com" }

    var path: String {
        switch self {
        case .user(let login): return "/users/\(login)"
        case .repos(let login, _): return "/users/\(login)/repos"
        case .createIssue(let repo, _): return "/repos/\(repo)/issues"
        }
    }

    // Overrides
    var method: PrismNetworkMethod {
        switch self {
        case .createIssue: return .post
        default: return .get
        }
    }

    var headers: [String: String] {
        [
            "Authorization": "Bearer \(Secrets.githubToken)",
            "Accept": "application/vnd.github+json",
        ]
    }

    var body: (any Encodable)? {
        switch self {
        case .createIssue(_, let payload): return payload
        default: return nil
        }
    }

    var queryItems: [URLQueryItem]? {
        switch self {
        case .repos(_, let page):
            return [
                URLQueryItem(name: "page", value: String(page)),
                URLQueryItem(name: "per_page", value: "30"),
                URLQueryItem(name: "sort", value: "updated"),
            ]
        default:
            return nil
        }
    }

    var cacheInterval: TimeInterval? {
        switch self {
        case .user: return 300  // 5 minutes
        case .repos: return 60  // 1 minute
        default: return nil
        }
    }
}

struct GitHubUser: PrismEntity {
    var login: String
    var name: String?
    var publicRepos: Int
}

struct GetUserRequest: PrismNetworkRequest {
    typealias Endpoint = GitHubEndpoint
    typealias Response = GitHubUser

    let endpoint: GitHubEndpoint

    init(login: String) {
        self.endpoint = .user(login: login)
    }
}

struct CreateIssueBody: Encodable {
    var title: String
    var body: String
    var labels: [String]
}

struct IssueResponse: PrismEntity {
    var number: Int
    var htmlURL: String
}

struct CreateIssueRequest: PrismNetworkRequest {
    typealias Endpoint = GitHubEndpoint
    typealias Response = IssueResponse

    let endpoint: GitHubEndpoint

    init(repo: String, title: String, body: String) {
        self.endpoint = .createIssue(
            repo: repo,
            body: CreateIssueBody(title: title, body: body, labels: ["bug"])
        )
    }
}
