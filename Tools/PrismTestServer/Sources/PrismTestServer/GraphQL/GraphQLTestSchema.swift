import GraphQL
import Graphiti

/// The resolvers of the test schema.
struct GraphQLResolver: Sendable {
    struct UserArguments: Codable, Sendable {
        let login: String
    }

    struct UploadFileArguments: Codable, Sendable {
        let file: GraphQLUpload
    }

    struct UploadFilesArguments: Codable, Sendable {
        let files: [GraphQLUpload]
    }

    struct AddTaskArguments: Codable, Sendable {
        let title: String
    }

    struct TaskArguments: Codable, Sendable {
        let id: Int
    }

    struct TaskConnectionArguments: Codable, Sendable {
        let first: Int?
        let after: String?
        let last: Int?
        let before: String?
    }

    struct TaskPageArguments: Codable, Sendable {
        let offset: Int
        let limit: Int
    }

    struct RenameTaskArguments: Codable, Sendable {
        let id: Int
        let title: String
    }

    struct CounterArguments: Codable, Sendable {
        let to: Int
        let intervalMs: Int?
    }

    struct CreateIssueArguments: Codable, Sendable {
        let repo: String
        let input: GraphQLIssueInput
    }

    /// `user(login:)`: every login exists except `ghost`, which is `null`.
    func user(context: GraphQLRequestContext, arguments: UserArguments) -> GraphQLUser? {
        guard arguments.login != "ghost" else { return nil }
        return GraphQLUser(login: arguments.login, name: "The \(arguments.login)", publicRepos: 8)
    }

    /// `failingField: String`: always fails, so its value is `null` and an error names its path.
    func failingField(context: GraphQLRequestContext, arguments: NoArguments) throws -> String? {
        throw GraphQLFieldFailure(description: "failingField always fails")
    }

    /// `requiredFailingField: String!`: always fails; being non-null, it takes `data` down with it.
    func requiredFailingField(context: GraphQLRequestContext, arguments: NoArguments) throws -> String {
        throw GraphQLFieldFailure(description: "requiredFailingField always fails")
    }

    /// `echoVariables: String!`: the request's variables as JSON text, as they arrived.
    func echoVariables(context: GraphQLRequestContext, arguments: NoArguments) -> String {
        GraphQLJSON.text(of: context.variables)
    }

    /// `authorization: String`: the request's `Authorization` header.
    func authorization(context: GraphQLRequestContext, arguments: NoArguments) -> String? {
        context.authorization
    }

    /// `operationNumber: Int!`: which operation this is among those the server executed.
    func operationNumber(context: GraphQLRequestContext, arguments: NoArguments) -> Int {
        context.operationNumber
    }

    /// `uploadFile(file: Upload!): UploadedFile!`: the file as the server received it.
    func uploadFile(context: GraphQLRequestContext, arguments: UploadFileArguments) -> GraphQLUploadedFile {
        Self.uploaded(arguments.file)
    }

    /// `uploadFiles(files: [Upload!]!): [UploadedFile!]!`: each file as the server received it.
    func uploadFiles(context: GraphQLRequestContext, arguments: UploadFilesArguments) -> [GraphQLUploadedFile] {
        arguments.files.map(Self.uploaded)
    }

    private static func uploaded(_ file: GraphQLUpload) -> GraphQLUploadedFile {
        GraphQLUploadedFile(
            filename: file.filename, contentType: file.contentType, size: file.size, sha256: file.sha256)
    }

    /// `addTask(title:): TaskItem!`: a task numbered from 1 up, published to every `taskAdded`
    /// subscription.
    func addTask(context: GraphQLRequestContext, arguments: AddTaskArguments) -> GraphQLTaskItem {
        context.state.addGraphQLTask(title: arguments.title)
    }

    /// `tasks: [TaskItem!]!`: every task, by id.
    func tasks(context: GraphQLRequestContext, arguments: NoArguments) -> [GraphQLTaskItem] {
        context.state.graphQLTasks()
    }

    /// `taskConnection(first: Int, after: String, last: Int, before: String): TaskConnection!`: the
    /// tasks by id as a Relay connection; a cursor is `task:<id>`. `first` (after `after`) or
    /// `last` (before `before`); an error for a cursor that is not one, or a negative count.
    func taskConnection(context: GraphQLRequestContext, arguments: TaskConnectionArguments) throws
        -> GraphQLTaskConnection
    {
        func id(of cursor: String?) throws -> Int? {
            guard let cursor else { return nil }
            guard cursor.hasPrefix("task:"), let id = Int(cursor.dropFirst(5)) else {
                throw GraphQLError(message: "Not a cursor: \(cursor)")
            }
            return id
        }
        let all = context.state.graphQLTasks()
        var window = all
        if let after = try id(of: arguments.after) { window = window.filter { $0.id > after } }
        if let before = try id(of: arguments.before) { window = window.filter { $0.id < before } }
        if let first = arguments.first {
            guard first >= 0 else { throw GraphQLError(message: "first cannot be negative") }
            window = Array(window.prefix(first))
        } else if let last = arguments.last {
            guard last >= 0 else { throw GraphQLError(message: "last cannot be negative") }
            window = Array(window.suffix(last))
        }
        let edges = window.map { GraphQLTaskEdge(cursor: "task:\($0.id)", node: $0) }
        return GraphQLTaskConnection(
            edges: edges,
            pageInfo: GraphQLPageInfo(
                startCursor: edges.first?.cursor, endCursor: edges.last?.cursor,
                hasPreviousPage: window.first.map { first in all.contains { $0.id < first.id } } ?? false,
                hasNextPage: window.last.map { last in all.contains { $0.id > last.id } } ?? false))
    }

    /// `taskPage(offset: Int!, limit: Int!): [TaskItem!]!`: `limit` tasks by id from `offset`.
    func taskPage(context: GraphQLRequestContext, arguments: TaskPageArguments) throws -> [GraphQLTaskItem] {
        guard arguments.offset >= 0, arguments.limit >= 0 else {
            throw GraphQLError(message: "offset and limit cannot be negative")
        }
        return Array(context.state.graphQLTasks().dropFirst(arguments.offset).prefix(arguments.limit))
    }

    /// `task(id: Int!): TaskItem`: the task, or null.
    func task(context: GraphQLRequestContext, arguments: TaskArguments) -> GraphQLTaskItem? {
        context.state.graphQLTask(id: arguments.id)
    }

    /// `renameTask(id: Int!, title: String!): TaskItem!`: the task renamed; an error for an id
    /// that has no task.
    func renameTask(context: GraphQLRequestContext, arguments: RenameTaskArguments) throws -> GraphQLTaskItem {
        guard let renamed = context.state.renameGraphQLTask(id: arguments.id, title: arguments.title) else {
            throw GraphQLError(message: "No task \(arguments.id)")
        }
        return renamed
    }

    /// `subscription { taskAdded: TaskItem! }`: every task `addTask` adds from now on.
    func taskAdded(context: GraphQLRequestContext, arguments: NoArguments) -> AsyncThrowingStream<
        GraphQLTaskItem, any Error
    > {
        context.state.graphQLTaskFeed()
    }

    /// `subscription { counter(to: Int!, intervalMs: Int): Int! }`: 1, 2, ... `to`, one every
    /// `intervalMs` milliseconds (none: at once), then complete.
    func counter(context: GraphQLRequestContext, arguments: CounterArguments) -> AsyncThrowingStream<Int, any Error> {
        let state = context.state
        let to = max(0, arguments.to)
        let interval = max(0, arguments.intervalMs ?? 0)
        return AsyncThrowingStream { continuation in
            let task = Task {
                for value in 0..<to {
                    if value > 0 && interval > 0 {
                        do { try await Task.sleep(for: .milliseconds(interval)) } catch { break }
                    }
                    if Task.isCancelled { break }
                    continuation.yield(value + 1)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                task.cancel()
                state.countGraphQLCounterEnded()
            }
        }
    }

    /// `subscription { failingSubscription: Int }`: refused when subscribed (an `error` message).
    func failingSubscription(context: GraphQLRequestContext, arguments: NoArguments) throws -> AsyncThrowingStream<
        Int, any Error
    > {
        // A GraphQLError keeps its message (another error would be reported by its localized description).
        throw GraphQLError(message: "failingSubscription always fails")
    }

    /// `createIssue(repo:input:)`: a new issue numbered from 1347 up, built from the input.
    func createIssue(context: GraphQLRequestContext, arguments: CreateIssueArguments) -> GraphQLIssue {
        let number = context.state.withValues { values in
            defer { values.graphQL.nextIssueNumber += 1 }
            return values.graphQL.nextIssueNumber
        }
        let input = arguments.input
        return GraphQLIssue(
            number: number,
            repo: arguments.repo,
            title: input.title,
            body: input.body,
            labels: input.labels ?? [],
            priority: input.meta?.priority,
            assignees: input.meta?.assignees ?? [],
            url: "https://github.com/\(arguments.repo)/issues/\(number)"
        )
    }
}

/// The schema `POST /graphql` serves (see ``GraphQLRoutes``), built once per process.
enum GraphQLTestSchema {
    static let schema: Schema<GraphQLResolver, GraphQLRequestContext> = {
        do {
            return try makeSchema()
        } catch {
            preconditionFailure("The test GraphQL schema does not build: \(error)")
        }
    }()

    static let resolver = GraphQLResolver()

    private static func makeSchema() throws -> Schema<GraphQLResolver, GraphQLRequestContext> {
        try Schema<GraphQLResolver, GraphQLRequestContext> {
            Type(GraphQLUser.self, as: "User") {
                Field("login", at: \.login)
                Field("name", at: \.name)
                Field("publicRepos", at: \.publicRepos)
            }
            Type(GraphQLIssue.self, as: "Issue") {
                Field("number", at: \.number)
                Field("repo", at: \.repo)
                Field("title", at: \.title)
                Field("body", at: \.body)
                Field("labels", at: \.labels)
                Field("priority", at: \.priority)
                Field("assignees", at: \.assignees)
                Field("url", at: \.url)
            }
            Type(GraphQLTaskItem.self, as: "TaskItem") {
                Field("id", at: \.id)
                Field("title", at: \.title)
            }
            Type(GraphQLTaskEdge.self, as: "TaskEdge") {
                Field("cursor", at: \.cursor)
                Field("node", at: \.node)
            }
            Type(GraphQLPageInfo.self, as: "PageInfo") {
                Field("startCursor", at: \.startCursor)
                Field("endCursor", at: \.endCursor)
                Field("hasPreviousPage", at: \.hasPreviousPage)
                Field("hasNextPage", at: \.hasNextPage)
            }
            Type(GraphQLTaskConnection.self, as: "TaskConnection") {
                Field("edges", at: \.edges)
                Field("pageInfo", at: \.pageInfo)
            }
            Scalar(GraphQLUpload.self, as: "Upload")
            Type(GraphQLUploadedFile.self, as: "UploadedFile") {
                Field("filename", at: \.filename)
                Field("contentType", at: \.contentType)
                Field("size", at: \.size)
                Field("sha256", at: \.sha256)
            }
            Input(GraphQLIssueMetaInput.self, as: "IssueMetaInput") {
                InputField("priority", at: \.priority)
                InputField("assignees", at: \.assignees)
            }
            Input(GraphQLIssueInput.self, as: "IssueInput") {
                InputField("title", at: \.title)
                InputField("body", at: \.body)
                InputField("labels", at: \.labels)
                InputField("meta", at: \.meta)
            }
            Query {
                Field("user", at: GraphQLResolver.user) {
                    Argument("login", at: \.login)
                }
                Field("failingField", at: GraphQLResolver.failingField)
                Field("requiredFailingField", at: GraphQLResolver.requiredFailingField)
                Field("echoVariables", at: GraphQLResolver.echoVariables)
                Field("authorization", at: GraphQLResolver.authorization)
                Field("operationNumber", at: GraphQLResolver.operationNumber)
                Field("tasks", at: GraphQLResolver.tasks)
                Field("task", at: GraphQLResolver.task) {
                    Argument("id", at: \.id)
                }
                Field("taskConnection", at: GraphQLResolver.taskConnection) {
                    Argument("first", at: \.first)
                    Argument("after", at: \.after)
                    Argument("last", at: \.last)
                    Argument("before", at: \.before)
                }
                Field("taskPage", at: GraphQLResolver.taskPage) {
                    Argument("offset", at: \.offset)
                    Argument("limit", at: \.limit)
                }
            }
            Mutation {
                Field("createIssue", at: GraphQLResolver.createIssue) {
                    Argument("repo", at: \.repo)
                    Argument("input", at: \.input)
                }
                Field("uploadFile", at: GraphQLResolver.uploadFile) {
                    Argument("file", at: \.file)
                }
                Field("uploadFiles", at: GraphQLResolver.uploadFiles) {
                    Argument("files", at: \.files)
                }
                Field("addTask", at: GraphQLResolver.addTask) {
                    Argument("title", at: \.title)
                }
                Field("renameTask", at: GraphQLResolver.renameTask) {
                    Argument("id", at: \.id)
                    Argument("title", at: \.title)
                }
            }
            Subscription {
                SubscriptionField("taskAdded", as: GraphQLTaskItem.self, atSub: GraphQLResolver.taskAdded)
                SubscriptionField("counter", as: Int.self, atSub: GraphQLResolver.counter) {
                    Argument("to", at: \.to)
                    Argument("intervalMs", at: \.intervalMs)
                }
                SubscriptionField("failingSubscription", as: Int?.self, atSub: GraphQLResolver.failingSubscription)
            }
        }
    }
}
