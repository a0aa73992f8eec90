import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// The types the build tool plugin generated from this target's `.graphql` files and
/// `schema.graphqls` (the test server's schema), against the test server.
@Suite("Generated operations against the test server")
struct GeneratedOperationTests {
    static func client(_ server: PrismTestServer) -> PrismGraphQLClient {
        PrismGraphQLClient(
            endpointURL: server.url("/graphql"), networkClient: PrismNetworkAdapter(cache: nil), cache: nil)
    }

    @Test("a generated query sends the file's document with __typename added, and decodes its data and fragment")
    func query() async throws {
        try await PrismTestServer.withRunning { (server: PrismTestServer) async throws in
            let response = try await Self.client(server).execute(GetUserQuery(login: "mona"))
            let user = try #require(try response.requireData().user)
            #expect(user.userSummary == UserSummary(__typename: "User", login: "mona", name: "The mona"))
            #expect(user.publicRepos == 8)
            let sent = try #require(server.graphQLOperations.last)
            #expect(sent.query == GetUserQuery.document)
            #expect(sent.operationName == "GetUser")
            #expect(GetUserQuery.document.contains("user(login: $login) { __typename"))
            #expect(GetUserQuery.document.hasSuffix("fragment UserSummary on User { __typename\n  login\n  name\n}"))
            #expect(UserSummary.possibleTypes == ["User"])
        }
    }

    @Test("a generated mutation takes typed input objects: absent fields left out, null sent as null")
    func mutation() async throws {
        try await PrismTestServer.withRunning { (server: PrismTestServer) async throws in
            var input = GraphQLSchema.IssueInput(title: "Crash")
            input.body = nil
            input.meta = .value(GraphQLSchema.IssueMetaInput(priority: 2))
            let response = try await Self.client(server).execute(CreateIssueMutation(repo: "prism", input: input))
            let issue = try response.requireData().createIssue
            #expect(issue.title == "Crash")
            #expect(issue.body == nil)
            #expect(issue.priority == 2)
            #expect(
                server.graphQLOperations.last?.variables
                    == #"{"input":{"body":null,"meta":{"priority":2},"title":"Crash"},"repo":"prism"}"#)
            let task = try await Self.client(server).execute(AddTaskMutation(title: "Ship")).requireData().addTask
            #expect(task.title == "Ship")
            #expect(task.__typename == "TaskItem")
        }
    }

    @Test("a generated subscription streams typed events")
    func subscription() async throws {
        try await PrismTestServer.withRunning { (server: PrismTestServer) async throws in
            var values: [Int] = []
            for try await event in Self.client(server).subscribe(CounterSubscription(to: 3)) {
                values.append(try event.requireData().counter)
            }
            #expect(values == [1, 2, 3])
        }
    }
}
