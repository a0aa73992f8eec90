import Foundation

/// One GraphQL subscription to run over WebSocket: the document, its variables and, when the
/// document holds several operations, which one to run.
///
/// ```swift
/// let taskAdded = PrismGraphQLSubscription(
///     query: """
///     subscription TaskAdded($list: String!) {
///         taskAdded(list: $list) { id title }
///     }
///     """,
///     variables: ["list": "inbox"],
///     operationName: "TaskAdded"
/// )
/// for try await event in graphql.subscribe(taskAdded, as: TaskAddedData.self) {
///     print(event.data?.taskAdded.title ?? "")
/// }
/// ```
///
/// Variables are given as for ``PrismGraphQLQuery``: `Encodable` values, ``PrismGraphQLValue``
/// literals, or one `Encodable` value whose members are the variables, encoded with
/// `PrismJSON.makeEncoder()`.
public struct PrismGraphQLSubscription: Sendable {
    /// The document, its variables and the operation's name: what a query holds too.
    private var operation: PrismGraphQLQuery

    /// The GraphQL document (`subscription ...`).
    public var query: String {
        get { operation.query }
        set { operation.query = newValue }
    }
    /// The operation to run when ``query`` holds several.
    public var operationName: String? {
        get { operation.operationName }
        set { operation.operationName = newValue }
    }

    /// The variables, encoded when the subscription is sent.
    var variables: PrismGraphQLQuery.Variables { operation.variables }

    /// Creates a subscription whose variables are `Encodable` values.
    public init(query: String, variables: [String: any Encodable & Sendable] = [:], operationName: String? = nil) {
        operation = PrismGraphQLQuery(query: query, variables: variables, operationName: operationName)
    }

    /// Creates a subscription whose variables are JSON literals: nested input objects, arrays
    /// and explicit `null` included.
    public init(query: String, variables: [String: PrismGraphQLValue], operationName: String? = nil) {
        operation = PrismGraphQLQuery(query: query, variables: variables, operationName: operationName)
    }

    /// Creates a subscription whose variables are the members of `variables`, an `Encodable`
    /// value that encodes to a JSON object.
    public init<Variables: Encodable & Sendable>(query: String, variables: Variables, operationName: String? = nil) {
        operation = PrismGraphQLQuery(query: query, variables: variables, operationName: operationName)
    }
}
