import GraphQL
import OrderedCollections

/// Writes Swift for operations, fragments and the schema types they use.
///
/// The shape of what it writes, for `query GetUser($login: String!) { user(login: $login) { name } }`:
///
/// ```swift
/// struct GetUserQuery: PrismGraphQLQueryOperation {
///     static let operationName = "GetUser"
///     static let document = "query GetUser($login: String!) { user(login: $login) { __typename id name } }"
///     var variables: Variables
///     init(login: Swift.String) { variables = Variables(login: login) }
///     struct Variables: Encodable, Sendable, Hashable { var login: Swift.String }
///     struct Data: Decodable, Sendable, Hashable {
///         let user: User?
///         struct User: Decodable, Sendable, Hashable {
///             let __typename: Swift.String
///             let id: Swift.String
///             let name: Swift.String?
///         }
///     }
/// }
/// ```
struct SwiftEmitter {
    let schema: GraphQLSchema
    let configuration: CodegenConfiguration
    let builder: SelectionBuilder
    /// Enums and input objects used so far, to write in the schema file.
    private(set) var usedEnums: Set<String> = []
    private(set) var usedInputs: Set<String> = []
    private(set) var usedScalars: Set<String> = []

    init(schema: GraphQLSchema, configuration: CodegenConfiguration, fragments: [String: FragmentDefinition]) {
        self.schema = schema
        self.configuration = configuration
        self.builder = SelectionBuilder(schema: schema, fragments: fragments)
    }

    var access: String { configuration.accessLevel == .public ? "public " : "" }
    var namespace: String { configuration.schemaNamespace }
    static let conformances = "Decodable, Sendable, Hashable"

    // MARK: Operations and fragments

    mutating func operation(
        _ operation: OperationDefinition, document: String, root: GraphQLObjectType, into out: inout [String]
    ) {
        let name = operation.name?.value ?? "Anonymous"
        let kind = operation.operation.rawValue
        let typeName = Naming.operationTypeName(name, kind: kind)
        let conformance = "PrismGraphQL\(kind.prefix(1).uppercased() + kind.dropFirst())Operation"
        out.append("\(access)struct \(typeName): \(conformance) {")
        out.append("    \(access)static let operationName = \(Naming.stringLiteral(name))")
        out.append("    \(access)static let document = \(Naming.stringLiteral(document))")
        let variables = operation.variableDefinitions.compactMap { definition -> (String, String, Bool)? in
            guard let type = inputType(definition.type) else { return nil }
            let (swift, optional) = inputSwiftType(type, hasDefault: definition.defaultValue != nil)
            return (definition.variable.name.value, swift, optional)
        }
        if !variables.isEmpty {
            out.append("    \(access)var variables: Variables")
            let parameters = variables.map { name, type, optional in
                "\(Naming.parameter(name)): \(type)\(optional ? " = \(defaultValue(of: type))" : "")"
            }.joined(separator: ", ")
            let arguments = variables.map { name, _, _ in
                "\(Naming.label(name)): \(Naming.parameterName(name))"
            }.joined(separator: ", ")
            out.append("    \(access)init(\(parameters)) { variables = Variables(\(arguments)) }")
            out.append("    \(access)init(variables: Variables) { self.variables = variables }")
            inputStruct(
                named: "Variables", conformances: "Encodable, Sendable, Hashable",
                fields: variables.map { ($0.0, $0.1, $0.2, nil, nil) }, indent: "    ", into: &out)
        } else {
            out.append("    \(access)init() {}")
        }
        let selection = builder.selection(of: [operation.selectionSet], on: root)
        selectionStruct(named: "Data", selection: selection, indent: "    ", into: &out)
        out.append("}")
    }

    mutating func fragment(_ fragment: FragmentDefinition, definition: String, into out: inout [String]) {
        guard let type = schema.getType(name: fragment.typeCondition.name.value) else { return }
        let possible = schema.objectTypes(of: type).map { Naming.stringLiteral($0.name) }.sorted()
        let selection = builder.selection(of: [fragment.selectionSet], on: type)
        let name = Naming.schemaTypeName(fragment.name.value)
        out += Naming.docComment(type.typeDescription, indent: "")
        out.append("\(access)struct \(name): PrismGraphQLFragment {")
        out.append("    \(access)static let fragmentDefinition = \(Naming.stringLiteral(definition))")
        out.append(
            "    \(access)static let possibleTypes: Swift.Set<Swift.String> = [\(possible.joined(separator: ", "))]")
        selectionBody(selection, indent: "    ", into: &out)
        out.append("}")
    }

    // MARK: Selections

    /// A struct for `selection`, named `name`.
    private mutating func selectionStruct(
        named name: String, selection: Selection, indent: String, into out: inout [String]
    ) {
        out.append("\(indent)\(access)struct \(name): \(Self.conformances) {")
        selectionBody(selection, indent: indent + "    ", into: &out)
        out.append("\(indent)}")
    }

    private mutating func selectionBody(_ selection: Selection, indent: String, into out: inout [String]) {
        var nested: [(String, Selection)] = []
        var takenNames: Set<String> = []
        var storedKeys: [(property: String, key: String, decode: String)] = []
        var hasDeprecated = false
        for field in selection.fields.values {
            let definition = field.definition
            var nestedName: String?
            if !field.selectionSets.isEmpty, let named = getNamedType(type: definition.type) {
                var candidate = Naming.typeName(forKey: field.key)
                while takenNames.contains(candidate) { candidate += "_" }
                takenNames.insert(candidate)
                nestedName = candidate
                nested.append((candidate, builder.selection(of: field.selectionSets, on: named)))
            }
            var type = outputSwiftType(definition.type, nested: nestedName)
            if field.conditional && !type.hasSuffix("?") { type += "?" }
            let property = Naming.identifier(field.key)
            out += Naming.docComment(definition.description, indent: indent)
            if let reason = definition.deprecationReason {
                hasDeprecated = true
                let stored = "_" + field.key
                out.append("\(indent)private let \(stored): \(type)")
                out += Naming.deprecation(reason, indent: indent)
                out.append("\(indent)\(access)var \(property): \(type) { \(stored) }")
                storedKeys.append((stored, field.key, type))
            } else {
                out.append("\(indent)\(access)let \(property): \(type)")
                storedKeys.append((property, field.key, type))
            }
        }
        var fragmentProperties: [(property: String, type: String, optional: Bool)] = []
        for (fragment, optional) in selection.fragments {
            let property = Naming.identifier(fragment.prefix(1).lowercased() + fragment.dropFirst())
            let name = Naming.schemaTypeName(fragment)
            out.append("\(indent)\(access)let \(property): \(name)\(optional ? "?" : "")")
            fragmentProperties.append((property, name, optional))
        }
        var objectCases: [(caseName: String, typeName: String, structName: String)] = []
        if !selection.objectConditions.isEmpty {
            var unknown = "unknown"
            for typeName in selection.objectConditions.keys {
                let caseName = Naming.caseName(typeName)
                if caseName == unknown { unknown += "_" }
                objectCases.append((caseName, typeName, Naming.typeName(forKey: "as" + typeName)))
            }
            out.append("\(indent)/// The fields selected for one type only, by `__typename`.")
            out.append("\(indent)\(access)let on: On")
            out.append("\(indent)\(access)enum On: Sendable, Hashable {")
            for entry in objectCases {
                out.append("\(indent)    case \(Naming.identifier(entry.caseName))(\(entry.structName))")
            }
            out.append("\(indent)    /// Another type, which this selection asks nothing more of.")
            out.append("\(indent)    case \(unknown)")
            out.append("\(indent)}")
            for (typeName, sets) in selection.objectConditions {
                guard let type = schema.getType(name: typeName) else { continue }
                let inner = builder.selection(of: sets.map(\.0), on: type)
                nested.append((Naming.typeName(forKey: "as" + typeName), inner))
            }
            objectCases.append((unknown, "", ""))
        }
        var abstractProperties: [(property: String, structName: String, possible: [String])] = []
        for (typeName, sets) in selection.abstractConditions {
            guard let type = schema.getType(name: typeName) else { continue }
            let structName = Naming.typeName(forKey: "as" + typeName)
            let property = "as" + typeName
            out.append("\(indent)\(access)let \(Naming.identifier(property)): \(structName)?")
            abstractProperties.append((property, structName, schema.objectTypes(of: type).map(\.name).sorted()))
            nested.append((structName, builder.selection(of: sets.map(\.0), on: type)))
        }
        for (name, child) in nested {
            selectionStruct(named: name, selection: child, indent: indent, into: &out)
        }
        guard selection.needsCustomDecoding || hasDeprecated else { return }
        // CodingKeys: the JSON keys of the stored fields.
        if !storedKeys.isEmpty {
            let cases = storedKeys.map { entry in
                entry.property == Naming.identifier(entry.key) || entry.property == entry.key
                    ? entry.property : "\(entry.property) = \(Naming.stringLiteral(entry.key))"
            }
            out.append(
                "\(indent)private enum CodingKeys: Swift.String, CodingKey { case \(cases.joined(separator: ", ")) }")
        }
        guard selection.needsCustomDecoding else { return }
        out.append("\(indent)\(access)init(from decoder: any Decoder) throws {")
        if !storedKeys.isEmpty {
            out.append("\(indent)    let container = try decoder.container(keyedBy: CodingKeys.self)")
        }
        for entry in storedKeys {
            let key = entry.property
            let optional = entry.decode.hasSuffix("?")
            let type = optional ? String(entry.decode.dropLast()) : entry.decode
            let method = optional ? "decodeIfPresent" : "decode"
            out.append(
                "\(indent)    \(Self.assignee(entry.property)) = try container.\(method)(\(type).self, forKey: .\(key))"
            )
        }
        let typename = storedKeys.contains { $0.key == "__typename" } ? "__typename" : "\"\""
        for entry in fragmentProperties {
            if entry.optional {
                out.append(
                    "\(indent)    \(Self.assignee(entry.property)) = try \(entry.type).possibleTypes.contains(\(typename)) ? \(entry.type)(from: decoder) : nil"
                )
            } else {
                out.append("\(indent)    \(Self.assignee(entry.property)) = try \(entry.type)(from: decoder)")
            }
        }
        if !objectCases.isEmpty {
            out.append("\(indent)    switch \(typename) {")
            for entry in objectCases where !entry.typeName.isEmpty {
                out.append(
                    "\(indent)    case \(Naming.stringLiteral(entry.typeName)): on = .\(Naming.identifier(entry.caseName))(try \(entry.structName)(from: decoder))"
                )
            }
            out.append("\(indent)    default: on = .\(objectCases.last?.caseName ?? "unknown")")
            out.append("\(indent)    }")
        }
        for entry in abstractProperties {
            let list = entry.possible.map(Naming.stringLiteral).joined(separator: ", ")
            out.append(
                "\(indent)    \(Naming.identifier(entry.property)) = [\(list)].contains(\(typename)) ? try \(entry.structName)(from: decoder) : nil"
            )
        }
        out.append("\(indent)}")
    }

    /// What `init(from:)` assigns a property through: `self.`self`` for a field named `self`
    /// (alone, `` `self` = `` would assign the whole value), the property's name otherwise.
    private static func assignee(_ property: String) -> String {
        property == "`self`" ? "self.`self`" : property
    }

    // MARK: Types

    /// The Swift type of an output type; `nested` names the struct of a composite type.
    private mutating func outputSwiftType(_ type: GraphQLType, nested: String?) -> String {
        if let nonNull = type as? GraphQLNonNull { return outputSwiftType(nonNull.ofType, nested: nested).dropOptional }
        if let list = type as? GraphQLList { return "[\(outputSwiftType(list.ofType, nested: nested))]?" }
        return namedSwiftType(type as? GraphQLNamedType, nested: nested) + "?"
    }

    private mutating func namedSwiftType(_ type: GraphQLNamedType?, nested: String?) -> String {
        guard let type else { return "Swift.String" }
        switch type.name {
        case "String", "ID": return "Swift.String"
        case "Int": return "Swift.Int"
        case "Float": return "Swift.Double"
        case "Boolean": return "Swift.Bool"
        default: break
        }
        if type is GraphQLScalarType {
            usedScalars.insert(type.name)
            return "\(namespace).\(Naming.schemaTypeName(type.name))"
        }
        if type is GraphQLEnumType {
            usedEnums.insert(type.name)
            return "\(namespace).\(Naming.schemaTypeName(type.name))"
        }
        if type is GraphQLInputObjectType {
            noteInput(type.name)
            return "\(namespace).\(Naming.schemaTypeName(type.name))"
        }
        return nested ?? "Swift.String"
    }

    private func inputType(_ node: any GraphQL.`Type`) -> GraphQLType? {
        if let nonNull = node as? NonNullType, let inner = inputType(nonNull.type) {
            return (inner as? GraphQLNullableType).map { GraphQLNonNull($0) }
        }
        if let list = node as? ListType, let inner = inputType(list.type) { return GraphQLList(inner) }
        if let named = node as? NamedType { return schema.getType(name: named.name.value) }
        return nil
    }

    /// The Swift type of an input (a variable, an input field) and whether it may be left out:
    /// nullable → `PrismGraphQLNullable<T>` (absent by default); non-null with a default → `T?`
    /// (nil leaves it out); non-null → `T`.
    private mutating func inputSwiftType(_ type: GraphQLType, hasDefault: Bool) -> (String, Bool) {
        if let nonNull = type as? GraphQLNonNull {
            let inner = inputElementType(nonNull.ofType)
            return hasDefault ? (inner + "?", true) : (inner, false)
        }
        return ("PrismGraphQLNullable<\(inputElementType(type))>", true)
    }

    /// An input type inside a list or under non-null: `T` or `T?`.
    private mutating func inputElementType(_ type: GraphQLType) -> String {
        if let nonNull = type as? GraphQLNonNull { return inputElementType(nonNull.ofType).dropOptional }
        if let list = type as? GraphQLList { return "[\(listElementType(list.ofType))]" }
        return namedSwiftType(type as? GraphQLNamedType, nested: nil)
    }

    private mutating func listElementType(_ type: GraphQLType) -> String {
        if let nonNull = type as? GraphQLNonNull { return inputElementType(nonNull.ofType) }
        return inputElementType(type) + "?"
    }

    private func defaultValue(of type: String) -> String {
        type.hasPrefix("PrismGraphQLNullable") ? ".absent" : "nil"
    }

    private mutating func noteInput(_ name: String) {
        guard !usedInputs.contains(name), let type = schema.getType(name: name) as? GraphQLInputObjectType else {
            return
        }
        usedInputs.insert(name)
        for field in (try? type.fields()) ?? [:] { _ = inputSwiftType(field.value.type, hasDefault: false) }
    }

    /// A struct of input fields: `(name, Swift type, may be left out, description, deprecation)`.
    private func inputStruct(
        named name: String, conformances: String,
        fields: [(String, String, Bool, String?, String?)], indent: String, into out: inout [String]
    ) {
        out.append("\(indent)\(access)struct \(name): \(conformances) {")
        for (field, type, optional, description, deprecation) in fields {
            out += Naming.docComment(description, indent: indent + "    ")
            // An input field's deprecation is in its description: setting it must not warn in
            // the generated initializers.
            _ = deprecation
            out.append(
                "\(indent)    \(access)var \(Naming.identifier(field)): \(type)\(optional ? " = \(defaultValue(of: type))" : "")"
            )
        }
        if configuration.accessLevel == .public && !fields.isEmpty {
            let parameters = fields.map { field, type, optional, _, _ in
                "\(Naming.parameter(field)): \(type)\(optional ? " = \(defaultValue(of: type))" : "")"
            }.joined(separator: ", ")
            out.append("\(indent)    public init(\(parameters)) {")
            for (field, _, _, _, _) in fields {
                out.append("\(indent)        self.\(Naming.identifier(field)) = \(Naming.parameterName(field))")
            }
            out.append("\(indent)    }")
        }
        out.append("\(indent)}")
    }

    // MARK: The schema's types

    /// The namespace with every enum, input object and custom scalar used.
    mutating func schemaTypes(into out: inout [String]) {
        out.append("/// The types of the GraphQL schema that the operations of this module use.")
        out.append("\(access)enum \(namespace) {")
        for name in usedScalars.sorted() {
            // The multipart request specification's `Upload`: the file itself (PrismGraphQL's
            // `upload` finds it in the variables and sends it as a part).
            let mapped = configuration.scalars[name] ?? (name == "Upload" ? "PrismGraphQLUpload" : "Swift.String")
            let type = schema.getType(name: name)
            out += Naming.docComment(type?.typeDescription, indent: "    ")
            out.append("    \(access)typealias \(Naming.schemaTypeName(name)) = \(mapped)")
        }
        // Input objects first: writing them may use more enums.
        var inputs: [String] = []
        for name in usedInputs.sorted() {
            guard let type = schema.getType(name: name) as? GraphQLInputObjectType else { continue }
            let fields = ((try? type.fields()) ?? [:]).map { entry -> (String, String, Bool, String?, String?) in
                let (swift, optional) = inputSwiftType(entry.value.type, hasDefault: entry.value.defaultValue != nil)
                var description = entry.value.description
                if let reason = entry.value.deprecationReason {
                    description = [description, "Deprecated: \(reason)"].compactMap { $0 }.joined(separator: "\n\n")
                }
                return (entry.key, swift, optional, description, entry.value.deprecationReason)
            }
            var lines: [String] = []
            lines += Naming.docComment(type.description, indent: "    ")
            inputStruct(
                named: Naming.schemaTypeName(name), conformances: "Encodable, Sendable, Hashable", fields: fields,
                indent: "    ", into: &lines
            )
            inputs += lines
        }
        for name in usedEnums.sorted() {
            guard let type = schema.getType(name: name) as? GraphQLEnumType else { continue }
            enumeration(type, into: &out)
        }
        out += inputs
        out.append("}")
    }

    private func enumeration(_ type: GraphQLEnumType, into out: inout [String]) {
        var cases: [(name: String, raw: String, deprecation: String?, description: String?)] = []
        var taken = Naming.reservedCaseNames
        for value in type.values {
            var name = Naming.caseName(value.name)
            while taken.contains(name) { name += "_" }
            taken.insert(name)
            cases.append((name, value.name, value.deprecationReason, value.description))
        }
        var unknown = "unknown"
        while taken.contains(unknown) { unknown += "_" }
        let indent = "    "
        out += Naming.docComment(type.description, indent: indent)
        out.append("\(indent)\(access)enum \(Naming.schemaTypeName(type.name)): PrismGraphQLEnum {")
        for entry in cases {
            out += Naming.docComment(entry.description, indent: indent + "    ")
            out += Naming.deprecation(entry.deprecation, indent: indent + "    ")
            out.append("\(indent)    case \(Naming.identifier(entry.name))")
        }
        out.append("\(indent)    /// A value the schema did not have when this code was generated.")
        out.append("\(indent)    case \(unknown)(Swift.String)")
        let current = cases.filter { $0.deprecation == nil }
        let deprecated = cases.filter { $0.deprecation != nil }
        out.append("\(indent)    \(access)init(rawValue: Swift.String) {")
        out.append("\(indent)        switch rawValue {")
        for entry in current {
            out.append(
                "\(indent)        case \(Naming.stringLiteral(entry.raw)): self = .\(Naming.identifier(entry.name))")
        }
        let fallback =
            deprecated.isEmpty
            ? ".\(unknown)(rawValue)" : "Self.lookUpDeprecatedValue(rawValue) ?? .\(unknown)(rawValue)"
        out.append("\(indent)        default: self = \(fallback)")
        out.append("\(indent)        }")
        out.append("\(indent)    }")
        out.append("\(indent)    \(access)var rawValue: Swift.String {")
        out.append("\(indent)        switch self {")
        for entry in cases {
            out.append("\(indent)        case .\(Naming.identifier(entry.name)): \(Naming.stringLiteral(entry.raw))")
        }
        out.append("\(indent)        case .\(unknown)(let value): value")
        out.append("\(indent)        }")
        out.append("\(indent)    }")
        let list = current.map { ".\(Naming.identifier($0.name))" }.joined(separator: ", ")
        out.append(
            "\(indent)    \(access)static var allCases: [Self] { [\(list)]\(deprecated.isEmpty ? "" : " + everyDeprecatedValue") }"
        )
        if !deprecated.isEmpty {
            out.append("\(indent)    @available(*, deprecated)")
            out.append("\(indent)    \(access)static func deprecatedValue(_ rawValue: Swift.String) -> Self? {")
            out.append("\(indent)        switch rawValue {")
            for entry in deprecated {
                out.append(
                    "\(indent)        case \(Naming.stringLiteral(entry.raw)): .\(Naming.identifier(entry.name))")
            }
            out.append("\(indent)        default: nil")
            out.append("\(indent)        }")
            out.append("\(indent)    }")
            let names = deprecated.map { ".\(Naming.identifier($0.name))" }.joined(separator: ", ")
            out.append("\(indent)    @available(*, deprecated)")
            out.append("\(indent)    \(access)static var deprecatedValues: [Self] { [\(names)] }")
        }
        out.append("\(indent)}")
    }
}

extension String {
    /// The type without its trailing `?`.
    fileprivate var dropOptional: String { hasSuffix("?") ? String(dropLast()) : self }
}

extension GraphQLNamedType {
    /// The type's description, whatever its kind.
    var typeDescription: String? {
        switch self {
        case let type as GraphQLObjectType: type.description
        case let type as GraphQLInterfaceType: type.description
        case let type as GraphQLUnionType: type.description
        case let type as GraphQLEnumType: type.description
        case let type as GraphQLInputObjectType: type.description
        case let type as GraphQLScalarType: type.description
        default: nil
        }
    }
}
