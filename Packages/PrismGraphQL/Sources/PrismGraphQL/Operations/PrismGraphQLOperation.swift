import Foundation
import PrismCache
import PrismHTTP

/// Whether an operation reads (`query`), writes (`mutation`) or streams (`subscription`).
public enum PrismGraphQLOperationKind: String, Sendable, Hashable, CaseIterable {
    /// A `query`: sent with `PrismGraphQLClient.execute(_:options:)`, cached and retried as a read.
    case query
    /// A `mutation`: sent with `execute` or `upload`, never cached.
    case mutation
    /// A `subscription`: run with `PrismGraphQLClient.subscribe(_:)`.
    case subscription
}

/// One GraphQL operation with its document, its typed variables and the type its data decodes
/// as: what PrismGraphQL's code generator writes for each operation of a `.graphql` file, and
/// what an app can also write by hand.
///
/// ```swift
/// struct GetUserQuery: PrismGraphQLQueryOperation {
///     static let operationName = "GetUser"
///     static let document = "query GetUser($login: String!) { user(login: $login) { __typename name } }"
///     struct Variables: Encodable, Sendable, Hashable { var login: String }
///     struct Data: Decodable, Sendable, Hashable {
///         let user: User?
///         struct User: Decodable, Sendable, Hashable {
///             let __typename: String
///             let name: String
///         }
///     }
///     var variables: Variables
///     init(login: String) { variables = Variables(login: login) }
/// }
///
/// let user = try await graphql.execute(GetUserQuery(login: "octocat")).requireData().user
/// ```
public protocol PrismGraphQLOperation: Sendable {
    /// What the response's `data` decodes as.
    associatedtype Data: Decodable & Sendable
    /// The operation's variables: encoded as the request's `variables` object.
    associatedtype Variables: Encodable & Sendable = PrismGraphQLNoVariables

    /// The operation's name in ``document``.
    static var operationName: String { get }
    /// The document sent: the operation and every fragment it uses, exactly as sent (so that a
    /// persisted query's hash is the same on every build).
    static var document: String { get }
    /// The operation's kind.
    static var kind: PrismGraphQLOperationKind { get }

    /// This operation's variables.
    var variables: Variables { get }
}

extension PrismGraphQLOperation where Variables == PrismGraphQLNoVariables {
    /// An operation without variables sends an empty `variables` object.
    public var variables: PrismGraphQLNoVariables { PrismGraphQLNoVariables() }
}

/// A query or a mutation: what `PrismGraphQLClient.execute(_:options:)` sends.
public protocol PrismGraphQLExecutableOperation: PrismGraphQLOperation {}

/// A `query` operation.
public protocol PrismGraphQLQueryOperation: PrismGraphQLExecutableOperation {}

extension PrismGraphQLQueryOperation {
    /// `.query`.
    public static var kind: PrismGraphQLOperationKind { .query }
}

/// A `mutation` operation.
public protocol PrismGraphQLMutationOperation: PrismGraphQLExecutableOperation {}

extension PrismGraphQLMutationOperation {
    /// `.mutation`.
    public static var kind: PrismGraphQLOperationKind { .mutation }
}

/// A `subscription` operation.
public protocol PrismGraphQLSubscriptionOperation: PrismGraphQLOperation {}

extension PrismGraphQLSubscriptionOperation {
    /// `.subscription`.
    public static var kind: PrismGraphQLOperationKind { .subscription }
}

/// A named fragment as the generator writes it: a type that decodes the fields it selects, on
/// its own (a view can take one) or as part of any selection that spreads it.
public protocol PrismGraphQLFragment: Decodable, Sendable, Hashable {
    /// The fragment's definition, as appended to the documents of the operations that use it.
    static var fragmentDefinition: String { get }
    /// The names of the object types the fragment applies to.
    static var possibleTypes: Set<String> { get }
}

/// A GraphQL enum as the generator writes it: a case per value of the schema, and `unknown`
/// for a value the server has and the app was not built with, so that a new value on the
/// server does not make a response undecodable.
///
/// Values the schema deprecates are cases marked `@available(*, deprecated)`; the generated
/// code reaches them through ``deprecatedValue(_:)`` and ``deprecatedValues`` (themselves
/// deprecated), so that only an app's own use of such a value warns.
public protocol PrismGraphQLEnum: RawRepresentable, Codable, Hashable, Sendable, CaseIterable
where RawValue == String {
    /// The deprecated value spelled `rawValue`; nil for any other spelling.
    static func deprecatedValue(_ rawValue: String) -> Self?
    /// Every deprecated value.
    static var deprecatedValues: [Self] { get }
}

extension PrismGraphQLEnum {
    /// None: an enum without deprecated values.
    public static func deprecatedValue(_ rawValue: String) -> Self? { nil }
    /// None: an enum without deprecated values.
    public static var deprecatedValues: [Self] { [] }

    /// ``deprecatedValue(_:)``, called where naming a deprecated value would warn.
    public static func lookUpDeprecatedValue(_ rawValue: String) -> Self? { deprecatedValue(rawValue) }
    /// ``deprecatedValues``, read where naming a deprecated value would warn.
    public static var everyDeprecatedValue: [Self] { deprecatedValues }
}

/// The variables of an operation that has none: an empty object.
public struct PrismGraphQLNoVariables: Encodable, Sendable, Hashable {
    /// An empty variables object.
    public init() {}

    /// Writes `{}`.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: NoKeys.self)
    }

    private enum NoKeys: CodingKey {}
}

/// A value of a nullable input (a variable or an input object's field) that tells "absent"
/// from "null": GraphQL does (an absent field keeps its default or what the server has, `null`
/// clears it).
///
/// Properties of this type are left out of the JSON when ``absent``, written as `null` when
/// ``null``: with synthesized `Encodable`, through the `KeyedEncodingContainer` overload below.
///
/// ```swift
/// var input = UpdateUserInput(id: "1")   // every optional field .absent
/// input.bio = .null                       // "bio": null, cleared on the server
/// input.name = "Ada"                      // "name": "Ada"
/// ```
public enum PrismGraphQLNullable<Wrapped> {
    /// Not sent at all.
    case absent
    /// Sent as `null`.
    case null
    /// Sent as this value. (Indirect: an input object may hold a nullable field of its own type.)
    indirect case value(Wrapped)

    /// `.value(value)` for a value, `.null` for nil.
    public init(_ value: Wrapped?) {
        self = value.map { .value($0) } ?? .null
    }

    /// The value, or nil when ``absent`` or ``null``.
    public var wrapped: Wrapped? {
        if case .value(let value) = self { return value }
        return nil
    }
}

extension PrismGraphQLNullable: Sendable where Wrapped: Sendable {}
extension PrismGraphQLNullable: Equatable where Wrapped: Equatable {}
extension PrismGraphQLNullable: Hashable where Wrapped: Hashable {}

extension PrismGraphQLNullable: ExpressibleByNilLiteral {
    /// `nil` is ``null``: written as `null`, not left out.
    public init(nilLiteral: ()) { self = .null }
}

extension PrismGraphQLNullable: ExpressibleByStringLiteral,
    ExpressibleByExtendedGraphemeClusterLiteral, ExpressibleByUnicodeScalarLiteral
where Wrapped: ExpressibleByStringLiteral {
    /// `.value` of a string literal.
    public init(stringLiteral value: Wrapped.StringLiteralType) { self = .value(Wrapped(stringLiteral: value)) }
    /// `.value` of a character literal.
    public init(extendedGraphemeClusterLiteral value: Wrapped.StringLiteralType) {
        self = .value(Wrapped(stringLiteral: value))
    }
    /// `.value` of a scalar literal.
    public init(unicodeScalarLiteral value: Wrapped.StringLiteralType) {
        self = .value(Wrapped(stringLiteral: value))
    }
}

extension PrismGraphQLNullable: ExpressibleByIntegerLiteral where Wrapped: ExpressibleByIntegerLiteral {
    /// `.value` of an integer literal.
    public init(integerLiteral value: Wrapped.IntegerLiteralType) { self = .value(Wrapped(integerLiteral: value)) }
}

extension PrismGraphQLNullable: ExpressibleByFloatLiteral where Wrapped: ExpressibleByFloatLiteral {
    /// `.value` of a float literal.
    public init(floatLiteral value: Wrapped.FloatLiteralType) { self = .value(Wrapped(floatLiteral: value)) }
}

extension PrismGraphQLNullable: ExpressibleByBooleanLiteral where Wrapped: ExpressibleByBooleanLiteral {
    /// `.value` of a Boolean literal.
    public init(booleanLiteral value: Wrapped.BooleanLiteralType) { self = .value(Wrapped(booleanLiteral: value)) }
}

extension PrismGraphQLNullable: ExpressibleByArrayLiteral where Wrapped: RangeReplaceableCollection {
    /// `.value` of a array literal.
    public init(arrayLiteral elements: Wrapped.Element...) { self = .value(Wrapped(elements)) }
}

extension PrismGraphQLNullable: Encodable where Wrapped: Encodable {
    /// `null` for ``null`` and ``absent`` (a container leaves ``absent`` out, see below; an
    /// array or a single value cannot), the value otherwise.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .absent, .null: try container.encodeNil()
        case .value(let value): try container.encode(value)
        }
    }
}

extension KeyedEncodingContainer {
    /// Leaves an ``PrismGraphQLNullable/absent`` value out, writes `null` for
    /// ``PrismGraphQLNullable/null``: what synthesized `Encodable` calls for such a property.
    public mutating func encode<Wrapped: Encodable>(_ value: PrismGraphQLNullable<Wrapped>, forKey key: Key) throws {
        switch value {
        case .absent: break
        case .null: try encodeNil(forKey: key)
        case .value(let wrapped): try encode(wrapped, forKey: key)
        }
    }
}

extension PrismGraphQLQuery {
    /// The request of a typed operation: its document, name and variables.
    public init<Operation: PrismGraphQLOperation>(_ operation: Operation) {
        self.init(query: Operation.document, variables: operation.variables, operationName: Operation.operationName)
    }
}

extension PrismGraphQLSubscription {
    /// The subscription of a typed operation: its document, name and variables.
    public init<Operation: PrismGraphQLSubscriptionOperation>(_ operation: Operation) {
        self.init(query: Operation.document, variables: operation.variables, operationName: Operation.operationName)
    }
}

extension PrismGraphQLClient {
    /// Sends a typed query or mutation and decodes its data as the operation's `Data`.
    ///
    /// ```swift
    /// let response = try await graphql.execute(GetUserQuery(login: "octocat"))
    /// let name = try response.requireData().user?.name
    /// ```
    ///
    /// - Returns: The response: data, errors, or both (GraphQL errors are not thrown).
    /// - Throws: What `execute(_:options:)` of a ``PrismGraphQLQuery`` throws.
    public func execute<Operation: PrismGraphQLExecutableOperation>(
        _ operation: Operation,
        options: PrismRequestOptions = PrismRequestOptions()
    ) async throws -> PrismGraphQLResponse<Operation.Data> {
        if let normalizedCache {
            return try await executeNormalizing(operation, into: normalizedCache, options: options)
        }
        return try await execute(PrismGraphQLQuery(operation), as: Operation.Data.self, options: options)
    }

    /// Sends a typed query using the cache as `cachePolicy` says.
    public func execute<Operation: PrismGraphQLQueryOperation>(
        _ operation: Operation,
        cachePolicy: PrismCachePolicy
    ) async throws -> PrismGraphQLResponse<Operation.Data> {
        try await execute(operation, options: PrismRequestOptions(cachePolicy: cachePolicy))
    }

    /// Runs a typed subscription and streams its events, decoded as the operation's `Data`.
    ///
    /// ```swift
    /// for try await event in graphql.subscribe(TaskAddedSubscription()) {
    ///     print(event.data?.taskAdded.title ?? "")
    /// }
    /// ```
    public func subscribe<Operation: PrismGraphQLSubscriptionOperation>(
        _ operation: Operation
    ) -> AsyncThrowingStream<PrismGraphQLResponse<Operation.Data>, any Error> {
        if let normalizedCache { return subscribeNormalizing(operation, into: normalizedCache) }
        return subscribe(PrismGraphQLSubscription(operation), as: Operation.Data.self)
    }

    /// Sends a typed mutation with the files its variables hold: every ``PrismGraphQLUpload``
    /// (the `Upload` scalar of generated code), at any depth, is sent as a part of the request,
    /// streamed from disk, with `null` at its place in the variables, as the GraphQL multipart
    /// request specification says.
    ///
    /// ```swift
    /// let files = [PrismGraphQLUpload(fileURL: first), PrismGraphQLUpload(fileURL: second)]
    /// let response = try await graphql.upload(UploadFilesMutation(files: files))
    /// ```
    ///
    /// - Throws: What ``upload(_:files:as:options:progress:)`` throws; ``PrismGraphQLError``
    ///   with code `encodingFailed` when the variables do not encode.
    public func upload<Operation: PrismGraphQLMutationOperation>(
        _ operation: Operation,
        options: PrismRequestOptions = PrismRequestOptions(),
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void = { _ in }
    ) async throws -> PrismGraphQLResponse<Operation.Data> {
        let files = try PrismGraphQLUpload.files(in: operation.variables)
        return try await upload(operation, files: files, options: options, progress: progress)
    }

    /// Sends a typed mutation with files, as the GraphQL multipart request specification says
    /// (see ``upload(_:files:as:options:progress:)``).
    public func upload<Operation: PrismGraphQLMutationOperation>(
        _ operation: Operation,
        files: [PrismGraphQLFile],
        options: PrismRequestOptions = PrismRequestOptions(),
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void = { _ in }
    ) async throws -> PrismGraphQLResponse<Operation.Data> {
        try await upload(
            PrismGraphQLQuery(operation), files: files, as: Operation.Data.self, options: options, progress: progress)
    }
}
