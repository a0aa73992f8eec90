/// An executable GraphQL document as the normalized cache reads it: its operations and
/// fragments, each selection set with its fields (alias, name, arguments, `@include`/`@skip`),
/// fragment spreads and inline fragments. What the server validates (types, that a field exists)
/// is not checked here: the cache follows the selections the server answered.
struct GraphQLDocument: Sendable {
    enum OperationType: String, Sendable {
        case query, mutation, subscription
    }

    struct Operation: Sendable {
        var type: OperationType
        var name: String?
        /// Each variable's default value, when it has one.
        var variableDefaults: [String: GraphQLInputValue]
        var selections: [Selection]
    }

    struct Fragment: Sendable {
        var name: String
        var typeCondition: String
        var selections: [Selection]
    }

    struct Field: Sendable {
        var alias: String?
        var name: String
        var arguments: [(name: String, value: GraphQLInputValue)]
        var conditions: [Condition]
        var selections: [Selection]?

        /// The member of the response that holds it.
        var responseKey: String { alias ?? name }
    }

    /// `@include(if:)` or `@skip(if:)`.
    struct Condition: Sendable {
        var include: Bool
        var value: GraphQLInputValue
    }

    indirect enum Selection: Sendable {
        case field(Field)
        case fragmentSpread(name: String, conditions: [Condition])
        case inlineFragment(typeCondition: String?, conditions: [Condition], selections: [Selection])
    }

    var operations: [Operation]
    var fragments: [String: Fragment]

    /// The operation called `name`, or the only one when `name` is nil.
    func operation(named name: String?) -> Operation? {
        if let name { return operations.first { $0.name == name } }
        return operations.count == 1 ? operations.first : nil
    }
}

/// A value written in a document: a literal, or a variable the request's variables give.
indirect enum GraphQLInputValue: Sendable {
    case variable(String)
    case literal(PrismGraphQLValue)
    /// An enum value (a name), kept as a string.
    case enumValue(String)
    case list([GraphQLInputValue])
    case object([(String, GraphQLInputValue)])

    /// The value with `variables` put in (a missing variable is null, as the server takes it).
    func resolved(_ variables: [String: PrismGraphQLValue]) -> PrismGraphQLValue {
        switch self {
        case .variable(let name): variables[name] ?? .null
        case .literal(let value): value
        case .enumValue(let name): .string(name)
        case .list(let items): .array(items.map { $0.resolved(variables) })
        case .object(let members):
            .object(Dictionary(members.map { ($0.0, $0.1.resolved(variables)) }, uniquingKeysWith: { _, last in last }))
        }
    }
}

/// Why a document could not be read.
struct GraphQLDocumentError: Error, Sendable, CustomStringConvertible {
    var message: String
    var line: Int
    var column: Int

    var description: String { "\(message) (line \(line), column \(column))" }
}
