import Foundation

/// One GraphQL operation to send: the document, its variables and, when the document holds
/// several operations, which one to run. Mutations are written the same way.
///
/// ```swift
/// let query = PrismGraphQLQuery(
///     query: """
///     query GetUser($login: String!) {
///         user(login: $login) { name publicRepos }
///     }
///     """,
///     variables: ["login": "octocat"],
///     operationName: "GetUser"
/// )
/// ```
///
/// Variables may be any `Encodable` values (`["login": login, "first": 10]`), literals of
/// ``PrismGraphQLValue`` for nested input objects and explicit `null`
/// (`["input": ["title": "Crash", "body": nil]]`), or one `Encodable` value whose members are
/// the variables (`variables: GetUserVariables(login: "octocat")`). They are encoded with
/// `PrismJSON.makeEncoder()` (keys as the types spell them, ISO 8601 dates).
public struct PrismGraphQLQuery: Sendable {
    /// The GraphQL document (`query ...`, `mutation ...`).
    public var query: String
    /// The operation to run when ``query`` holds several.
    public var operationName: String?
    /// How long the response stays fresh in the client's cache, in seconds; `nil` (the default)
    /// caches it only when a cache policy asks to. Mutations are never cached.
    public var cacheInterval: TimeInterval?
    /// How this operation is sent; `nil` (the default) follows the client's
    /// ``PrismGraphQLClient/queryMethod`` for a query and POSTs a mutation. See
    /// ``PrismGraphQLHTTPMethod``.
    public var httpMethod: PrismGraphQLHTTPMethod?

    /// The variables, encoded when the query is sent.
    var variables: Variables

    /// How the variables were given.
    enum Variables: Sendable {
        /// Name → value; an empty dictionary sends no `variables` member.
        case members([String: any Encodable & Sendable])
        /// One value whose encoding is the variables object.
        case value(any Encodable & Sendable)
    }

    /// Creates an operation whose variables are `Encodable` values.
    ///
    /// ```swift
    /// PrismGraphQLQuery(query: getUser, variables: ["login": login, "first": 10])
    /// ```
    public init(
        query: String,
        variables: [String: any Encodable & Sendable] = [:],
        operationName: String? = nil
    ) {
        self.query = query
        self.variables = .members(variables)
        self.operationName = operationName
    }

    /// Creates an operation whose variables are JSON literals: nested input objects, arrays and
    /// explicit `null` included.
    ///
    /// ```swift
    /// PrismGraphQLQuery(query: createIssue, variables: ["input": ["title": "Crash", "body": nil]])
    /// ```
    public init(query: String, variables: [String: PrismGraphQLValue], operationName: String? = nil) {
        self.query = query
        self.variables = .members(variables)
        self.operationName = operationName
    }

    /// Creates an operation whose variables are the members of `variables`, an `Encodable` value
    /// that encodes to a JSON object.
    ///
    /// ```swift
    /// struct GetUserVariables: Encodable, Sendable { var login: String }
    /// PrismGraphQLQuery(query: getUser, variables: GetUserVariables(login: "octocat"))
    /// ```
    public init<Variables: Encodable & Sendable>(
        query: String,
        variables: Variables,
        operationName: String? = nil
    ) {
        self.query = query
        self.variables = .value(variables)
        self.operationName = operationName
    }

    /// Whether the operation that runs is a mutation: such operations are never cached, and
    /// retried only by a policy that retries non-idempotent requests.
    public var isMutation: Bool {
        DocumentMemo.shared.operationType(in: query, named: operationName) == .mutation
    }
}
