import Foundation
import PrismGraphQL
import PrismTestServer
import Testing

@Suite("Mutations with nested input objects")
struct MutationTests {
    struct CreateIssueData: Decodable, Sendable {
        struct Issue: Decodable, Sendable, Equatable {
            var number: Int
            var repo: String
            var title: String
            var body: String?
            var labels: [String]
            var priority: Int?
            var assignees: [String]
            var url: String
        }
        var createIssue: Issue
    }

    struct IssueInput: Encodable, Sendable {
        struct Meta: Encodable, Sendable {
            var priority: Int?
            var assignees: [String]?
        }
        var title: String
        var body: String?
        var labels: [String]?
        var meta: Meta?
    }

    static let createIssue = """
        mutation CreateIssue($repo: String!, $input: IssueInput!) {
            createIssue(repo: $repo, input: $input) {
                number repo title body labels priority assignees url
            }
        }
        """

    @Test("a mutation with a nested input object literal and an explicit null", arguments: TransportKind.allCases)
    func literalInput(transport: TransportKind) async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let mutation = PrismGraphQLQuery(
                query: Self.createIssue,
                variables: [
                    "repo": "octocat/hello",
                    "input": [
                        "title": "Crash on launch",
                        "body": nil,
                        "labels": ["bug"],
                        "meta": ["priority": 1, "assignees": ["mona", "hubot"]],
                    ],
                ],
                operationName: "CreateIssue"
            )
            #expect(mutation.isMutation)
            let response = try await server.graphQLClient(transport: transport).execute(
                mutation, as: CreateIssueData.self)
            #expect(response.errors == nil)
            #expect(
                response.data?.createIssue
                    == .init(
                        number: 1347, repo: "octocat/hello", title: "Crash on launch", body: nil, labels: ["bug"],
                        priority: 1, assignees: ["mona", "hubot"], url: "https://github.com/octocat/hello/issues/1347"))
        }
    }

    @Test("a mutation whose input is an Encodable struct; each creates a new issue")
    func encodableInput() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient()
            var numbers: [Int] = []
            for title in ["First", "Second"] {
                let input = IssueInput(
                    title: title, body: "Details", labels: nil, meta: .init(priority: nil, assignees: nil))
                let mutation = PrismGraphQLQuery(
                    query: Self.createIssue,
                    variables: ["repo": "octocat/hello", "input": input],
                    operationName: "CreateIssue"
                )
                let issue = try await graphql.execute(mutation, as: CreateIssueData.self).requireData().createIssue
                #expect(issue.title == title)
                #expect(issue.body == "Details")
                #expect(issue.labels == [])
                #expect(issue.priority == nil)
                numbers.append(issue.number)
            }
            #expect(numbers == [1347, 1348])
        }
    }

    @Test("a missing required input field is a GraphQL error, not a thrown one")
    func invalidInput() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let mutation = PrismGraphQLQuery(
                query: Self.createIssue, variables: ["repo": "octocat/hello", "input": ["body": "no title"]])
            let response = try await server.graphQLClient().execute(mutation, as: CreateIssueData.self)
            #expect(response.data == nil)
            #expect(response.errors?.first?.message.contains("title") == true)
        }
    }

    static let detections: [(String, String?, Bool)] = [
        ("{ user(login: \"a\") { name } }", nil, false),
        ("query Q { a }", nil, false),
        ("mutation M($x: String = \"{ mutation }\") { a }", nil, true),
        ("# mutation in a comment\nquery Q { a }", nil, false),
        ("fragment F on User { name }\nmutation M { a { ...F } }", nil, true),
        ("query A { a }\nmutation B { b }", "B", true),
        ("query A { a }\nmutation B { b }", "A", false),
        ("mutation @live { a }", nil, true),
        ("subscription S { a }", nil, false),
        ("query Q { mutation }", nil, false),
    ]

    @Test("the operation that runs decides whether it is a mutation", arguments: detections)
    func mutationDetection(document: String, operationName: String?, isMutation: Bool) {
        #expect(PrismGraphQLQuery(query: document, operationName: operationName).isMutation == isMutation)
    }

    /// The memo looks up the last few documents by comparison before its dictionaries: ten
    /// documents asked for in turn, three times, each time as a new string and as the same one,
    /// pass through both and must keep each answer its own.
    @Test("the answers stay each document's own as documents are asked for in turn, remembered or not")
    func mutationDetectionInTurn() {
        let queries = Self.detections.map { PrismGraphQLQuery(query: $0.0, operationName: $0.1) }
        for _ in 0..<3 {
            for (query, (document, name, isMutation)) in zip(queries, Self.detections) {
                #expect(query.isMutation == isMutation, "\(document) \(name ?? "-")")
                let text = String(decoding: Array(document.utf8), as: UTF8.self)
                let copy = PrismGraphQLQuery(query: text, operationName: name)
                #expect(copy.isMutation == isMutation, "\(document) \(name ?? "-")")
            }
        }
    }
}
