import Foundation
import PrismGraphQL
import PrismTestServer
import Testing

/// Operations as the code generator writes them (here by hand): the document, the name, typed
/// variables and the data type travel together, and `execute`, `subscribe` and `upload` take
/// them as they are.
@Suite("Typed operations: document, variables and data in one value")
struct TypedOperationTests {
    struct GetUserQuery: PrismGraphQLQueryOperation {
        static let operationName = "GetUser"
        static let document = "query GetUser($login: String!) { user(login: $login) { __typename login name } }"
        struct Variables: Encodable, Sendable, Hashable { var login: String }
        struct Data: Decodable, Sendable, Hashable {
            let user: User?
            struct User: Decodable, Sendable, Hashable {
                // swift-format-ignore: AlwaysUseLowerCamelCase
                let __typename: String
                let login: String
                let name: String?
            }
        }
        var variables: Variables
        init(login: String) { variables = Variables(login: login) }
    }

    struct CreateIssueMutation: PrismGraphQLMutationOperation {
        static let operationName = "CreateIssue"
        static let document = """
            mutation CreateIssue($repo: String!, $input: IssueInput!) {
              createIssue(repo: $repo, input: $input) { __typename number title body labels }
            }
            """
        struct Variables: Encodable, Sendable, Hashable {
            var repo: String
            var input: IssueInput
        }
        struct IssueInput: Encodable, Sendable, Hashable {
            var title: String
            var body: PrismGraphQLNullable<String> = .absent
            var labels: PrismGraphQLNullable<[String]> = .absent
        }
        struct Data: Decodable, Sendable, Hashable {
            let createIssue: Issue
            struct Issue: Decodable, Sendable, Hashable {
                // swift-format-ignore: AlwaysUseLowerCamelCase
                let __typename: String
                let number: Int
                let title: String
                let body: String?
                let labels: [String]?
            }
        }
        var variables: Variables
    }

    struct OperationNumberQuery: PrismGraphQLQueryOperation {
        static let operationName = "Number"
        static let document = "query Number { operationNumber }"
        struct Data: Decodable, Sendable, Hashable { let operationNumber: Int }
    }

    struct AddTaskMutation: PrismGraphQLMutationOperation {
        static let operationName = "AddTask"
        static let document = "mutation AddTask($title: String!) { addTask(title: $title) { __typename id title } }"
        struct Variables: Encodable, Sendable, Hashable { var title: String }
        struct Data: Decodable, Sendable, Hashable {
            let addTask: Task
            struct Task: Decodable, Sendable, Hashable {
                // swift-format-ignore: AlwaysUseLowerCamelCase
                let __typename: String
                let id: Int
                let title: String
            }
        }
        var variables: Variables
    }

    struct CounterSubscription: PrismGraphQLSubscriptionOperation {
        static let operationName = "Counter"
        static let document = "subscription Counter($to: Int!) { counter(to: $to, intervalMs: 10) }"
        struct Variables: Encodable, Sendable, Hashable { var to: Int }
        struct Data: Decodable, Sendable, Hashable { let counter: Int }
        var variables: Variables
    }

    @Test("a typed query sends its document, name and variables, and decodes its own Data")
    func query() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient()
            let response = try await graphql.execute(GetUserQuery(login: "mona"))
            #expect(try response.requireData().user == .init(__typename: "User", login: "mona", name: "The mona"))
            let sent = try #require(server.graphQLOperations.last)
            #expect(sent.query == GetUserQuery.document)
            #expect(sent.operationName == "GetUser")
            #expect(sent.variables == #"{"login":"mona"}"#)
            #expect(GetUserQuery.kind == .query)
        }
    }

    @Test("absent input fields are left out, null ones sent as null, values as values")
    func absentAndNull() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient()
            let bare = CreateIssueMutation.IssueInput(title: "Crash")
            let first = try await graphql.execute(CreateIssueMutation(variables: .init(repo: "prism", input: bare)))
            #expect(try first.requireData().createIssue.title == "Crash")
            #expect(server.graphQLOperations.last?.variables == #"{"input":{"title":"Crash"},"repo":"prism"}"#)

            let full = CreateIssueMutation.IssueInput(title: "Crash", body: nil, labels: ["bug"])
            let second = try await graphql.execute(CreateIssueMutation(variables: .init(repo: "prism", input: full)))
            #expect(try second.requireData().createIssue.labels == ["bug"])
            #expect(try second.requireData().createIssue.body == nil)
            #expect(
                server.graphQLOperations.last?.variables
                    == #"{"input":{"body":null,"labels":["bug"],"title":"Crash"},"repo":"prism"}"#)
        }
    }

    @Test("a nullable variable is left out when absent, null when nil")
    func absentVariables() throws {
        struct Variables: Encodable {
            var after: PrismGraphQLNullable<String> = .absent, first: PrismGraphQLNullable<Int>
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = { (value: Variables) in String(decoding: try encoder.encode(value), as: UTF8.self) }
        #expect(try text(Variables(first: .absent)) == "{}")
        #expect(try text(Variables(first: nil)) == #"{"first":null}"#)
        #expect(try text(Variables(after: "abc", first: 10)) == #"{"after":"abc","first":10}"#)
    }

    @Test("an operation without variables sends an empty variables object")
    func noVariables() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let response = try await server.graphQLClient().execute(OperationNumberQuery())
            #expect(try response.requireData().operationNumber >= 1)
            #expect(server.graphQLOperations.last?.variables == "{}")
        }
    }

    @Test("a typed mutation is sent once, not cached, and decodes its Data")
    func mutation() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            let graphql = server.graphQLClient()
            let first = try await graphql.execute(AddTaskMutation(variables: .init(title: "Write tests")))
            let second = try await graphql.execute(AddTaskMutation(variables: .init(title: "Write tests")))
            #expect(try first.requireData().addTask.title == "Write tests")
            #expect(try first.requireData().addTask.__typename == "TaskItem")
            #expect(try first.requireData().addTask.id != second.requireData().addTask.id)
            #expect(AddTaskMutation.kind == .mutation)
        }
    }

    @Test("a typed subscription streams its events as its Data")
    func subscription() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            var values: [Int] = []
            for try await event in server.graphQLClient().subscribe(CounterSubscription(variables: .init(to: 3))) {
                values.append(try event.requireData().counter)
            }
            #expect(values == [1, 2, 3])
            #expect(CounterSubscription.kind == .subscription)
        }
    }

    @Test("PrismGraphQLNullable: nil is null, literals are values, absent is absent")
    func nullableValues() throws {
        let null: PrismGraphQLNullable<String> = nil
        let value: PrismGraphQLNullable<String> = "x"
        let number: PrismGraphQLNullable<Int> = 3
        #expect(null == .null)
        #expect(value == .value("x"))
        #expect(number.wrapped == 3)
        #expect(PrismGraphQLNullable<String>(nil) == .null)
        #expect(PrismGraphQLNullable<String>.absent.wrapped == nil)
        // Alone (not a member of an object), absent and null can only be written as null.
        let encoded = try JSONEncoder().encode([PrismGraphQLNullable<Int>.absent, .null, .value(1)])
        #expect(String(decoding: encoded, as: UTF8.self) == "[null,null,1]")
    }
}
