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
    /// Interfaces and unions a selection or a fragment is on, for the normalized cache's
    /// `possibleTypes`.
    private(set) var usedAbstractTypes: Set<String> = []
    /// ``exposedFields(ofFragment:)``, by fragment.
    private var exposedByFragment: [String: [ExposedField]] = [:]

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
        if type is GraphQLAbstractType { usedAbstractTypes.insert(type.name) }
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
        let conformances = Self.conformances + (isPageInfo(plan(selection)) ? ", PrismGraphQLPageInfo" : "")
        out.append("\(indent)\(access)struct \(name): \(conformances) {")
        selectionBody(selection, indent: indent + "    ", into: &out)
        out.append("\(indent)}")
    }

    /// Whether a struct of `fields` is a Relay connection's page info (PrismGraphQL's pager reads
    /// it): `endCursor: String?` and `hasNextPage: Bool`, and, if selected, `startCursor: String?`
    /// and `hasPreviousPage: Bool`, each of exactly that type (a protocol's default would otherwise
    /// stand in for a field of another type).
    private func isPageInfo(_ fields: [PlannedField]) -> Bool {
        let types = Dictionary(fields.map { ($0.property, $0.type) }, uniquingKeysWith: { first, _ in first })
        guard types["endCursor"] == "Swift.String?", types["hasNextPage"] == "Swift.Bool" else { return false }
        return (types["startCursor"] ?? "Swift.String?") == "Swift.String?"
            && (types["hasPreviousPage"] ?? "Swift.Bool") == "Swift.Bool"
    }

    /// The stored fields of `selection`'s struct, in order: property, Swift type, and the
    /// nested struct of a field with a selection set.
    private mutating func plan(_ selection: Selection) -> [PlannedField] {
        var planned: [PlannedField] = []
        var takenNames: Set<String> = []
        for field in selection.fields.values {
            var nestedName: String?
            var nestedSelection: Selection?
            if !field.selectionSets.isEmpty, let named = getNamedType(type: field.definition.type) {
                var candidate = Naming.typeName(forKey: field.key)
                while takenNames.contains(candidate) { candidate += "_" }
                takenNames.insert(candidate)
                nestedName = candidate
                nestedSelection = builder.selection(of: field.selectionSets, on: named)
            }
            planned.append(
                PlannedField(
                    field: field, property: Naming.identifier(field.key),
                    type: fieldType(field, nested: nestedName), nestedName: nestedName, nested: nestedSelection))
        }
        return planned
    }

    /// What a mock gives `planned` when the test does not: nil for an optional, an empty list,
    /// `""`, 0, false, the enum's first value, the nested struct's own mock, and for
    /// `__typename` the type's name (an abstract type's first object type). Nil (no default) for
    /// a custom scalar mapped to a type of the app's.
    private func mockDefault(_ planned: PlannedField, parent: GraphQLNamedType) -> String? {
        if planned.type.hasSuffix("?") { return "nil" }
        if planned.field.name == "__typename" {
            let name = parent is GraphQLObjectType ? parent.name : schema.objectTypes(of: parent).map(\.name).min()
            return Naming.stringLiteral(name ?? parent.name)
        }
        let declared = planned.field.definition.type
        let type: GraphQLType = (declared as? GraphQLNonNull)?.ofType ?? declared
        if type is GraphQLList { return "[]" }
        guard let named = type as? GraphQLNamedType else { return nil }
        switch named.name {
        case "String", "ID": return "\"\""
        case "Int", "Float": return "0"
        case "Boolean": return "false"
        default: break
        }
        if named is GraphQLScalarType {
            return configuration.scalars[named.name] == nil && named.name != "Upload" ? "\"\"" : nil
        }
        if named is GraphQLEnumType { return ".allCases[0]" }
        return planned.nestedName.map { "\($0).mock()" }
    }

    /// The Swift type of `field`'s property; `nested` names its struct.
    private mutating func fieldType(_ field: SelectedField, nested: String?) -> String {
        var type = outputSwiftType(field.definition.type, nested: nested)
        if field.conditional && !type.hasSuffix("?") { type += "?" }
        return type
    }

    /// The fields fragment `name`'s struct exposes, stored or forwarded from the fragments it
    /// spreads, with their types as written outside it (its nested structs qualified by its name).
    private mutating func exposedFields(ofFragment name: String) -> [ExposedField] {
        if let known = exposedByFragment[name] { return known }
        guard let fragment = builder.fragments[name],
            let type = schema.getType(name: fragment.typeCondition.name.value)
        else { return [] }
        let selection = builder.selection(of: [fragment.selectionSet], on: type)
        let typeName = Naming.schemaTypeName(name)
        var exposed: [ExposedField] = []
        var keys: Set<String> = []
        for planned in plan(selection) {
            keys.insert(planned.field.key)
            exposed.append(
                ExposedField(
                    key: planned.field.key,
                    type: fieldType(planned.field, nested: planned.nestedName.map { "\(typeName).\($0)" }),
                    deprecation: planned.field.definition.deprecationReason))
        }
        for (spread, optional) in selection.fragments {
            for field in exposedFields(ofFragment: spread) where !keys.contains(field.key) {
                keys.insert(field.key)
                var field = field
                if optional && !field.type.hasSuffix("?") { field.type += "?" }
                exposed.append(field)
            }
        }
        exposedByFragment[name] = exposed
        return exposed
    }

    /// The members of a selection's struct (the table of ``Selection`` says where each
    /// selection goes):
    ///
    /// | Member | For |
    /// | --- | --- |
    /// | `let key: T` | each field (a deprecated one: a deprecated `var` over private storage) |
    /// | `let fragmentName: Fragment` (`Fragment?`) | each fragment spread |
    /// | `var key: T { fragmentName.key }` | each field of a fragment the selection does not select itself: `issue.title` beside `issue.issueRow.title` |
    /// | `let on: On`, `var asBook: AsBook? { … }` | inline fragments on object types: `AsBook` holds the selection's own fields too |
    /// | `let asNode: AsNode?` | inline fragments on abstract types |
    /// | `init(…)` | every stored member, optional ones defaulting to nil: data made in a test or a preview, without JSON |
    private mutating func selectionBody(_ selection: Selection, indent: String, into out: inout [String]) {
        if selection.parent is GraphQLAbstractType { usedAbstractTypes.insert(selection.parent.name) }
        usedAbstractTypes.formUnion(selection.abstractConditions.keys)
        var nested: [(String, Selection)] = []
        var storedKeys: [(property: String, key: String, decode: String)] = []
        // Every stored member, for the initializer: (its key, type, the property it is stored in).
        var members: [(key: String, type: String, storage: String)] = []
        // The mock's default of each member (nil: none, the mock asks for it).
        var mockDefaults: [String?] = []
        var hasDeprecated = false
        for planned in plan(selection) {
            let field = planned.field
            let definition = field.definition
            if let name = planned.nestedName, let child = planned.nested { nested.append((name, child)) }
            let type = planned.type
            let property = planned.property
            out += Naming.docComment(definition.description, indent: indent)
            if let reason = definition.deprecationReason {
                hasDeprecated = true
                let stored = "_" + field.key
                out.append("\(indent)private let \(stored): \(type)")
                out += Naming.deprecation(reason, indent: indent)
                out.append("\(indent)\(access)var \(property): \(type) { \(stored) }")
                storedKeys.append((stored, field.key, type))
                members.append((field.key, type, stored))
                mockDefaults.append(mockDefault(planned, parent: selection.parent))
            } else {
                out.append("\(indent)\(access)let \(property): \(type)")
                storedKeys.append((property, field.key, type))
                members.append((field.key, type, property))
                mockDefaults.append(mockDefault(planned, parent: selection.parent))
            }
        }
        var taken = Set(selection.fields.keys)
        var fragmentProperties: [(property: String, type: String, optional: Bool)] = []
        for (fragment, optional) in selection.fragments {
            let key = fragment.prefix(1).lowercased() + fragment.dropFirst()
            let property = Naming.identifier(key)
            let name = Naming.schemaTypeName(fragment)
            let type = "\(name)\(optional ? "?" : "")"
            out.append("\(indent)\(access)let \(property): \(type)")
            fragmentProperties.append((property, name, optional))
            members.append((key, type, property))
            mockDefaults.append(optional ? "nil" : "\(name).mock()")
            taken.insert(key)
        }
        var objectCases: [(caseName: String, typeName: String, structName: String)] = []
        if !selection.objectConditions.isEmpty {
            let unknown = Naming.unknownCase
            for typeName in selection.objectConditions.keys {
                var caseName = Naming.caseName(typeName)
                if caseName == unknown { caseName += "_" }
                objectCases.append((caseName, typeName, Naming.typeName(forKey: "as" + typeName)))
            }
            out.append("\(indent)/// The fields selected for one type only, by `__typename`.")
            out.append("\(indent)\(access)let on: On")
            members.append(("on", "On", "on"))
            mockDefaults.append(".\(Naming.unknownCase)")
            taken.insert("on")
            out.append("\(indent)\(access)enum On: Sendable, Hashable {")
            for entry in objectCases {
                out.append("\(indent)    case \(Naming.identifier(entry.caseName))(\(entry.structName))")
            }
            out.append("\(indent)    /// Another type, which this selection asks nothing more of.")
            out.append("\(indent)    case \(unknown)")
            out.append("\(indent)}")
            for entry in objectCases {
                // `asBook`, as Apollo's users write it; `on` for a switch over every case.
                let property = "as" + entry.typeName
                guard !taken.contains(property) else { continue }
                taken.insert(property)
                out.append(
                    "\(indent)\(access)var \(Naming.identifier(property)): \(entry.structName)? { guard case .\(Naming.identifier(entry.caseName))(let value) = on else { return nil }; return value }"
                )
            }
            for typeName in selection.objectConditions.keys {
                guard let type = schema.getType(name: typeName) else { continue }
                // The selection's own fields and fragments apply to the type too.
                let inner = builder.selection(of: selection.sets, on: type)
                nested.append((Naming.typeName(forKey: "as" + typeName), inner))
            }
            objectCases.append((unknown, "", ""))
        }
        var abstractProperties: [(property: String, structName: String, possible: [String])] = []
        for typeName in selection.abstractConditions.keys {
            guard let type = schema.getType(name: typeName) else { continue }
            let structName = Naming.typeName(forKey: "as" + typeName)
            let property = "as" + typeName
            out.append("\(indent)\(access)let \(Naming.identifier(property)): \(structName)?")
            members.append((property, structName + "?", Naming.identifier(property)))
            mockDefaults.append("nil")
            taken.insert(property)
            abstractProperties.append((property, structName, schema.objectTypes(of: type).map(\.name).sorted()))
            nested.append((structName, builder.selection(of: selection.sets, on: type)))
        }
        // The fields of the fragments, where the selection reads them (`issue.title`), as
        // Apollo's generated types have them: read through the fragment, never stored twice.
        for entry in fragmentProperties {
            let fragment = entry.type
            let name = selection.fragments.first { Naming.schemaTypeName($0.name) == fragment }?.name ?? fragment
            for field in exposedFields(ofFragment: name) where !taken.contains(field.key) {
                taken.insert(field.key)
                let type = entry.optional && !field.type.hasSuffix("?") ? field.type + "?" : field.type
                let path = "\(entry.property)\(entry.optional ? "?" : "").\(Naming.identifier(field.key))"
                out.append("\(indent)/// The field of `\(fragment)`.")
                out += Naming.deprecation(field.deprecation, indent: indent)
                out.append("\(indent)\(access)var \(Naming.identifier(field.key)): \(type) { \(path) }")
            }
        }
        // The initializer: every stored member, optional ones defaulting to nil.
        if !members.isEmpty {
            let parameters = members.map {
                "\(Naming.parameter($0.key)): \($0.type)\($0.type.hasSuffix("?") ? " = nil" : "")"
            }
            out.append("\(indent)\(access)init(\(parameters.joined(separator: ", "))) {")
            for member in members {
                out.append("\(indent)    self.\(member.storage) = \(Naming.parameterName(member.key))")
            }
            out.append("\(indent)}")
            if configuration.testMocks {
                // Every member defaulted where a value goes without saying: a test names what it
                // is about (`.mock(title: "Hello")`).
                let parameters = zip(members, mockDefaults).map { member, mock in
                    "\(Naming.parameter(member.key)): \(member.type)\(mock.map { " = \($0)" } ?? "")"
                }
                let arguments = members.map { "\(Naming.label($0.key)): \(Naming.parameterName($0.key))" }
                out.append("\(indent)/// Data for a test or a preview: every member not given has a plain value.")
                out.append("\(indent)\(access)static func mock(\(parameters.joined(separator: ", "))) -> Self {")
                out.append("\(indent)    Self(\(arguments.joined(separator: ", ")))")
                out.append("\(indent)}")
            }
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
    ///
    /// | Field | Swift |
    /// | --- | --- |
    /// | required (non-null, no default) | `var name: T`, a parameter of the initializer |
    /// | may be left out | `var name: PrismGraphQLNullable<T> = .absent` (or `T? = nil`), a parameter with that default |
    /// | deprecated (GraphQL lets only one that may be left out be) | a deprecated property over private storage, encoded under its name; left out of the initializer, which a deprecated one that also sets it stands beside |
    ///
    /// The initializer's parameters are in the schema's order of the fields.
    private func inputStruct(
        named name: String, conformances: String,
        fields: [(String, String, Bool, String?, String?)], indent: String, into out: inout [String]
    ) {
        typealias Field = (name: String, type: String, optional: Bool, description: String?, deprecation: String?)
        let fields = fields.map { Field(name: $0.0, type: $0.1, optional: $0.2, description: $0.3, deprecation: $0.4) }
        // A required field cannot be left out of the initializer: deprecated or not, it is a
        // plain property (a valid schema has none).
        func isDeprecated(_ field: Field) -> Bool { field.deprecation != nil && field.optional }
        let deprecated = fields.filter(isDeprecated)
        out.append("\(indent)\(access)struct \(name): \(conformances) {")
        for field in fields {
            let property = Naming.identifier(field.name)
            let initial = field.optional ? " = \(defaultValue(of: field.type))" : ""
            out += Naming.docComment(field.description, indent: indent + "    ")
            if isDeprecated(field) {
                out += Naming.deprecation(field.deprecation, indent: indent + "    ")
                out.append("\(indent)    \(access)var \(property): \(field.type) {")
                out.append("\(indent)        get { _\(field.name) }")
                out.append("\(indent)        set { _\(field.name) = newValue }")
                out.append("\(indent)    }")
                out.append("\(indent)    private var _\(field.name): \(field.type)\(initial)")
            } else {
                out.append("\(indent)    \(access)var \(property): \(field.type)\(initial)")
            }
        }
        if !deprecated.isEmpty {
            let cases = fields.map { field in
                isDeprecated(field)
                    ? "_\(field.name) = \(Naming.stringLiteral(field.name))" : Naming.identifier(field.name)
            }
            out.append(
                "\(indent)    private enum CodingKeys: Swift.String, CodingKey { case \(cases.joined(separator: ", ")) }"
            )
        }
        // Synthesized, the memberwise initializer is internal, and private storage makes it private.
        guard configuration.accessLevel == .public || !deprecated.isEmpty, !fields.isEmpty else {
            out.append("\(indent)}")
            return
        }
        func initializer(_ fields: [Field], defaultsDeprecated: Bool) {
            let parameters = fields.map { field in
                let initial =
                    field.optional && !(isDeprecated(field) && !defaultsDeprecated)
                    ? " = \(defaultValue(of: field.type))" : ""
                return "\(Naming.parameter(field.name)): \(field.type)\(initial)"
            }.joined(separator: ", ")
            out.append("\(indent)    \(access)init(\(parameters)) {")
            for field in fields {
                let stored = isDeprecated(field) ? "_" + field.name : Naming.identifier(field.name)
                out.append("\(indent)        self.\(stored) = \(Naming.parameterName(field.name))")
            }
            out.append("\(indent)    }")
        }
        initializer(fields.filter { !isDeprecated($0) }, defaultsDeprecated: true)
        if !deprecated.isEmpty {
            // The deprecated fields are parameters without defaults: a call that leaves them out
            // is the initializer above's, never ambiguous.
            let names = deprecated.map { "`\($0.name)`" }.joined(separator: ", ")
            out.append(
                "\(indent)    @available(*, deprecated, message: \(Naming.stringLiteral("Sets deprecated input fields: \(names).")))"
            )
            initializer(fields, defaultsDeprecated: false)
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
        cacheConfiguration(into: &out)
        out.append("}")
    }

    /// The normalized cache's configuration for this schema: the configured key fields, and the
    /// object types of each interface and union the operations select on.
    private func cacheConfiguration(into out: inout [String]) {
        func literal(_ names: [String]) -> String {
            "[" + names.map(Naming.stringLiteral).joined(separator: ", ") + "]"
        }
        out.append("")
        out.append("    /// How PrismGraphQL's normalized cache identifies this schema's objects (the key fields of")
        out.append("    /// `prism-graphql.json`), and which object types each interface and union the operations")
        out.append("    /// select on stands for:")
        out.append("    ///")
        out.append("    /// ```swift")
        out.append("    /// let cache = PrismGraphQLNormalizedCache(configuration: \(namespace).cacheConfiguration)")
        out.append("    /// ```")
        out.append("    \(access)static var cacheConfiguration: PrismGraphQLNormalizedCacheConfiguration {")
        func dictionary(_ name: String, of type: String, _ entries: [String]) {
            guard !entries.isEmpty else {
                out.append("        let \(name): \(type) = [:]")
                return
            }
            out.append("        let \(name): \(type) = [")
            out += entries.map { "            \($0)," }
            out.append("        ]")
        }
        dictionary(
            "keyFields", of: "[Swift.String: [Swift.String]]",
            configuration.keyFields.keys.sorted().map {
                "\(Naming.stringLiteral($0)): \(literal(configuration.keyFields[$0] ?? []))"
            })
        dictionary(
            "possibleTypes", of: "[Swift.String: Swift.Set<Swift.String>]",
            usedAbstractTypes.sorted().compactMap { name in
                schema.getType(name: name).map {
                    "\(Naming.stringLiteral(name)): \(literal(schema.objectTypes(of: $0).map(\.name).sorted()))"
                }
            })
        out.append("        return PrismGraphQLNormalizedCacheConfiguration(")
        out.append(
            "            keyFields: keyFields, defaultKeyFields: \(literal(configuration.defaultKeyFields)), possibleTypes: possibleTypes)"
        )
        out.append("    }")
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
        let unknown = Naming.unknownCase
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

/// A stored field of a selection's struct, as ``SwiftEmitter`` writes it.
struct PlannedField {
    let field: SelectedField
    /// The property's name (a keyword in backticks).
    let property: String
    let type: String
    /// The name of the nested struct of a field with a selection set, and its selection.
    let nestedName: String?
    let nested: Selection?
}

/// A field a fragment's struct exposes, with its type as written outside the fragment.
struct ExposedField {
    let key: String
    var type: String
    let deprecation: String?
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
