import Foundation
import PrismTestServer
import Testing

@Suite("GitHub-shaped routes")
struct GitHubRoutesTests {
    @Test("GET /users/:login answers GitHub-shaped JSON with snake_case keys")
    func user() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/users/octocat"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
            #expect(
                reply.text
                    == #"{"login":"octocat","name":"The octocat","public_repos":8,"#
                    + #""html_url":"https://github.com/octocat","created_at":"2011-01-25T18:44:36Z"}"#
            )
        }
    }

    @Test("GET /users/:login/repos pages repos and echoes the query in X-Echo-Query")
    func repos() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(
                .GET, server.url("/users/octocat/repos?page=3&per_page=5&sort=updated"))
            #expect(reply.status == 200)
            #expect(reply.header("X-Echo-Query") == "page=3&per_page=5&sort=updated")
            let repos = try reply.array()
            #expect(repos.count == 5)
            #expect(repos.first?["id"] as? Int == 11)
            #expect(repos.first?["name"] as? String == "repo-11")
            #expect(repos.first?["full_name"] as? String == "octocat/repo-11")
            #expect(repos.last?["stargazers_count"] as? Int == 15)

            let defaults = try await TestClient.send(.GET, server.url("/users/octocat/repos"))
            #expect(try defaults.array().count == 30)
            #expect(defaults.header("X-Echo-Query") == "")
        }
    }

    @Test("POST /repos/:owner/:repo/issues creates an issue from the JSON body")
    func createIssue() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(
                .POST,
                server.url("/repos/octocat/Hello-World/issues"),
                headers: [("Content-Type", "application/json")],
                text: #"{"title":"Something is broken","body":"Steps","labels":["bug"]}"#
            )
            #expect(reply.status == 201)
            let issue = try reply.object()
            #expect(issue["number"] as? Int == 1347)
            #expect(issue["html_url"] as? String == "https://github.com/octocat/Hello-World/issues/1347")
            #expect(issue["title"] as? String == "Something is broken")
            #expect(issue["labels"] as? [String] == ["bug"])
        }
    }

    @Test("An issue without a title is a 400 Validation Failed", arguments: [#"{"body":"x"}"#, #"{"title":""}"#])
    func issueWithoutTitle(body: String) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.POST, server.url("/repos/o/r/issues"), text: body)
            #expect(reply.status == 400)
            let error = try reply.object()
            #expect(error["message"] as? String == "Validation Failed")
            let errors = try #require(error["errors"] as? [[String: Any]])
            #expect(errors.first?["field"] as? String == "title")
        }
    }

    @Test("An issue body that is not JSON is a 400")
    func issueNotJSON() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.POST, server.url("/repos/o/r/issues"), text: "title=x")
            #expect(reply.status == 400)
            #expect(try reply.object()["message"] as? String == "Problems parsing JSON")
        }
    }
}
