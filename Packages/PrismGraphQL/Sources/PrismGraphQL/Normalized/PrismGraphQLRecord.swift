/// Where a record of the normalized cache lives: `Type:key` for an object with key fields
/// (`User:42`), the root of an operation type (`QUERY_ROOT`), or, for an object without keys,
/// the path it was reached by (`QUERY_ROOT.viewer.settings`).
public struct PrismGraphQLCacheKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The key as text.
    public let rawValue: String

    /// The key `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The record of every query's root fields.
    public static let queryRoot = Self(rawValue: "QUERY_ROOT")
    /// The record of mutations' root fields.
    public static let mutationRoot = Self(rawValue: "MUTATION_ROOT")
    /// The record of subscription events' root fields.
    public static let subscriptionRoot = Self(rawValue: "SUBSCRIPTION_ROOT")

    /// The key as text.
    public var description: String { rawValue }
}

/// One value of a record's field: a value as the server sent it (a scalar, an enum, null, or a
/// custom scalar's JSON), a reference to another record, or a list of either.
public indirect enum PrismGraphQLRecordValue: Hashable, Sendable {
    /// A value as the server sent it.
    case value(PrismGraphQLValue)
    /// The object stored under this key.
    case reference(PrismGraphQLCacheKey)
    /// A list.
    case list([PrismGraphQLRecordValue])
}

/// One object of the normalized cache: its fields, each stored under its name and, when it has
/// arguments, their values (`items({"first":10})` and `items({"first":20})` apart).
public struct PrismGraphQLRecord: Hashable, Sendable {
    /// The fields, by field key.
    public var fields: [String: PrismGraphQLRecordValue]

    /// A record of `fields`.
    public init(fields: [String: PrismGraphQLRecordValue] = [:]) {
        self.fields = fields
    }

    /// The object's `__typename`, when it was selected.
    public var typename: String? {
        if case .value(.string(let name)) = fields["__typename"] { return name }
        return nil
    }
}
