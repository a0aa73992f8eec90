import GraphQL

/// `type User { login: String!, name: String, publicRepos: Int! }`: the GraphQL twin of the
/// GitHub-shaped `GET /users/:login` (same name and repository count).
struct GraphQLUser: Codable, Sendable {
    let login: String
    let name: String?
    let publicRepos: Int
}

/// `type Issue`: what `createIssue` returns, built from its input.
struct GraphQLIssue: Codable, Sendable {
    let number: Int
    let repo: String
    let title: String
    let body: String?
    let labels: [String]
    let priority: Int?
    let assignees: [String]
    let url: String
}

/// `input IssueInput { title: String!, body: String, labels: [String!], meta: IssueMetaInput }`.
struct GraphQLIssueInput: Codable, Sendable {
    let title: String
    let body: String?
    let labels: [String]?
    let meta: GraphQLIssueMetaInput?
}

/// `input IssueMetaInput { priority: Int, assignees: [String!] }`: nested in ``GraphQLIssueInput``.
struct GraphQLIssueMetaInput: Codable, Sendable {
    let priority: Int?
    let assignees: [String]?
}

/// What every resolver sees of the request it serves.
struct GraphQLRequestContext: Sendable {
    /// The server's state (issue numbers).
    let state: ServerState
    /// The variables exactly as the request carried them.
    let variables: [String: Map]
    /// The request's `Authorization` header, if any.
    let authorization: String?
    /// The number of this operation among those the server executed (1 for the first).
    let operationNumber: Int
}

/// The error a failing resolver throws; GraphQL reports its description as the message.
struct GraphQLFieldFailure: Error, CustomStringConvertible {
    let description: String
}

/// `scalar Upload`: a file of a GraphQL multipart request, as the server received it (the file
/// part's name, type, size and SHA-256; the bytes are not kept).
struct GraphQLUpload: Codable, Sendable {
    let filename: String?
    let contentType: String?
    let size: Int
    let sha256: String
}

/// `type UploadedFile { filename: String, contentType: String, size: Int!, sha256: String! }`:
/// what the upload mutations return for each file.
struct GraphQLUploadedFile: Codable, Sendable {
    let filename: String?
    let contentType: String?
    let size: Int
    let sha256: String
}

/// `type TaskItem { id: Int!, title: String! }`: what `addTask(title:)` adds and `taskAdded`
/// streams.
struct GraphQLTaskItem: Codable, Sendable {
    let id: Int
    let title: String
}

/// A page of tasks as a Relay connection (the GraphQL Cursor Connections specification).
struct GraphQLTaskConnection: Codable, Sendable {
    let edges: [GraphQLTaskEdge]
    let pageInfo: GraphQLPageInfo
}

struct GraphQLTaskEdge: Codable, Sendable {
    let cursor: String
    let node: GraphQLTaskItem
}

struct GraphQLPageInfo: Codable, Sendable {
    let startCursor: String?
    let endCursor: String?
    let hasPreviousPage: Bool
    let hasNextPage: Bool
}
