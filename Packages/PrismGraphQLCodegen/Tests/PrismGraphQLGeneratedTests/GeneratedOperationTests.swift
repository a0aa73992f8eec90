import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

/// The types the generator wrote from this target's `.graphql` files and `schema.graphqls` (the
/// test server's schema; committed in GraphQLGenerated: `make graphql-generate`, checked current
/// by PrismGraphQLCodegenTests), against the test server.
@Suite("Generated operations against the test server")
struct GeneratedOperationTests {
    /// A client of the server's `/graphql`. Its subscriptions give the server five minutes to
    /// acknowledge `connection_init`: it answers at once, but beside every other suite on two
    /// busy cores the default ten seconds of the wall clock can pass before it runs at all.
    static func client(_ server: PrismTestServer) -> PrismGraphQLClient {
        PrismGraphQLClient(
            endpointURL: server.url("/graphql"), networkClient: PrismNetworkAdapter(cache: nil), cache: nil,
            subscriptions: PrismGraphQLSubscriptionConfiguration(connectionAckTimeout: .seconds(300)))
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

    @Test(
        "a generated connection's pageInfo is PrismGraphQLPageInfo: a pager pages it with the generated cache configuration"
    )
    func pagedConnection() async throws {
        try await PrismTestServer.withRunning { (server: PrismTestServer) async throws in
            let cache = PrismGraphQLNormalizedCache(configuration: GraphQLSchema.cacheConfiguration)
            let graphql = Self.client(server).normalizing(into: cache)
            for title in ["one", "two", "three"] {
                _ = try await graphql.execute(AddTaskMutation(title: title)).requireData()
            }
            let forward = PrismGraphQLPager(id: "forward", client: graphql) { request in
                if case .after(let cursor) = request { return ForwardTaskPagesQuery(first: 2, after: .value(cursor)) }
                return ForwardTaskPagesQuery(first: 2)
            } page: { data, _ in
                .relay(items: data.taskConnection.edges.map(\.node.title), pageInfo: data.taskConnection.pageInfo)
            }
            _ = try await forward.loadNext()
            let list = try await forward.loadNext()
            #expect(list.items == ["one", "two", "three"])
            #expect(!list.hasNextPage && !list.hasPreviousPage)

            let backward = PrismGraphQLPager(id: "backward", client: graphql) { request in
                if case .before(let cursor) = request {
                    return TaskPagesQuery(last: .value(1), before: .value(cursor))
                }
                return TaskPagesQuery(first: .value(1), after: .value("task:2"))
            } page: { data, _ in
                .relay(items: data.taskConnection.edges.map(\.node.id), pageInfo: data.taskConnection.pageInfo)
            }
            #expect(try await backward.loadNext().items == [3])
            let earlier = try await backward.loadPrevious()
            #expect(earlier.items == [2, 3])
            #expect(earlier.hasPreviousPage)
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

    @Test("a generated upload sends the files its variables hold, each where its variable says")
    func upload() async throws {
        try await PrismTestServer.withRunning { (server: PrismTestServer) async throws in
            let graphql = Self.client(server)
            let folder = FileManager.default.temporaryDirectory.appending(path: "prism-upload-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let photoURL = folder.appending(path: "photo.jpg")
            try Data((0..<100_000).map { UInt8($0 % 251) }).write(to: photoURL)

            let photo = PrismGraphQLUpload(fileURL: photoURL, mimeType: "image/jpeg")
            let response = try await graphql.upload(UploadFileMutation(file: photo))
            let uploaded = try response.requireData().uploadFile
            #expect(uploaded.filename == "photo.jpg")
            #expect(uploaded.contentType == "image/jpeg")
            #expect(uploaded.size == 100_000)

            let files = [PrismGraphQLUpload(data: Data("one".utf8), fileName: "one.txt"), photo]
            let both = try await graphql.upload(UploadFilesMutation(files: files)).requireData().uploadFiles
            #expect(both.map(\.filename) == ["one.txt", "photo.jpg"])
            #expect(both.map(\.size) == [3, 100_000])
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
