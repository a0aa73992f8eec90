import HTTPTypes
import Hummingbird

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// GitHub-shaped JSON (snake_case keys): `GET /users/:login`, `GET /users/:login/repos`,
/// `POST /repos/:owner/:repo/issues`.
struct GitHubRoutes: RouteGroup {
    /// The `number` of every created issue.
    static let issueNumber = 1347

    func register(on router: Router<TestServerRequestContext>) {
        router.get("/users/:login") { _, context -> Response in
            let login = context.parameter("login")
            return Response.json([
                "login": .string(login),
                "name": .string("The \(login)"),
                "public_repos": 8,
                "html_url": .string("https://github.com/\(login)"),
                "created_at": "2011-01-25T18:44:36Z",
            ])
        }

        router.get("/users/:login/repos") { request, context -> Response in
            let login = context.parameter("login")
            let query = request.query
            let page = max(query["page"].flatMap { Int($0) } ?? 1, 1)
            let perPage = min(max(query["per_page"].flatMap { Int($0) } ?? 30, 0), 1000)
            let first = (page - 1) * perPage + 1
            let repos: [JSONValue] = (first..<(first + perPage)).map { id in
                [
                    "id": .int(id),
                    "name": .string("repo-\(id)"),
                    "full_name": .string("\(login)/repo-\(id)"),
                    "stargazers_count": .int(id),
                ]
            }
            return Response.json(.array(repos), headers: [HTTPField.Name("X-Echo-Query")!: request.uri.query ?? ""])
        }

        router.post("/repos/:owner/:repo/issues") { request, context -> Response in
            let owner = context.parameter("owner")
            let repo = context.parameter("repo")
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            guard let issue = try? JSONDecoder().decode(NewIssue.self, from: Data(body.readableBytesView)) else {
                return Response.jsonMessage("Problems parsing JSON", status: .badRequest)
            }
            guard let title = issue.title, !title.isEmpty else {
                return Response.jsonMessage(
                    "Validation Failed",
                    status: .badRequest,
                    extra: [
                        .init(
                            key: "errors",
                            value: [["resource": "Issue", "code": "missing_field", "field": "title"]]
                        )
                    ]
                )
            }
            return Response.json(
                [
                    "number": .int(Self.issueNumber),
                    "html_url": .string("https://github.com/\(owner)/\(repo)/issues/\(Self.issueNumber)"),
                    "title": .string(title),
                    "body": .string(issue.body),
                    "labels": .array((issue.labels ?? []).map { .string($0) }),
                ],
                status: .created
            )
        }
    }

    private struct NewIssue: Decodable {
        var title: String?
        var body: String?
        var labels: [String]?
    }
}
