import GraphQL

/// The two rules of the GraphQL specification that GraphQLSwift's `specifiedRules` leave out
/// (commented out there), with graphql-js's wording, as every other rule's:
///
/// | Rule | Specification | What it refuses |
/// | --- | --- | --- |
/// | Single root field | 5.2.3.1 | a subscription selecting more than one root field, or an introspection field |
/// | Field selection merging | 5.3.2 | two fields of one response name that are different fields, take different arguments, or return shapes that cannot be one value |
///
/// Run after the specified rules pass: fragments are known and acyclic, fields exist.
struct SelectionMergingRule {
    let schema: GraphQLSchema
    let fragments: [String: FragmentDefinition]
    private(set) var diagnostics: [CodegenDiagnostic] = []
    /// Conflicts found, by the places of the two fields (each pair reported once).
    private var reported: Set<[Int]> = []

    init(schema: GraphQLSchema, document: Document) {
        self.schema = schema
        var fragments: [String: FragmentDefinition] = [:]
        for case let fragment as FragmentDefinition in document.definitions {
            fragments[fragment.name.value] = fragment
        }
        self.fragments = fragments
    }

    static func check(_ document: Document, schema: GraphQLSchema) -> [CodegenDiagnostic] {
        var rule = SelectionMergingRule(schema: schema, document: document)
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition {
                guard let root = rootType(of: operation, in: schema) else { continue }
                if operation.operation == .subscription { rule.checkSingleRootField(operation, root: root) }
                rule.visit(operation.selectionSet, parent: root)
            } else if let fragment = definition as? FragmentDefinition,
                let type = schema.getType(name: fragment.typeCondition.name.value)
            {
                rule.visit(fragment.selectionSet, parent: type)
            }
        }
        return rule.diagnostics
    }

    static func rootType(of operation: OperationDefinition, in schema: GraphQLSchema) -> GraphQLObjectType? {
        switch operation.operation {
        case .query: return schema.queryType
        case .mutation: return schema.mutationType
        case .subscription: return schema.subscriptionType
        }
    }

    // MARK: Single root field (5.2.3.1)

    private mutating func checkSingleRootField(_ operation: OperationDefinition, root: GraphQLObjectType) {
        let fields = collect(operation.selectionSet, parent: root)
        var keys: [String] = []
        for field in fields where !keys.contains(field.key) { keys.append(field.key) }
        let name = operation.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous Subscription"
        if keys.count > 1 {
            let extra = fields.first { $0.key == keys[1] }
            report(at: extra?.node.loc ?? operation.loc, "\(name) must select only one top level field.")
        }
        for field in fields where field.node.name.value.hasPrefix("__") {
            report(at: field.node.loc, "\(name) must not select an introspection top level field.")
        }
    }

    // MARK: Field selection merging (5.3.2)

    /// A field as selected: its response key, its node, the type it was selected on.
    struct Occurrence {
        let key: String
        let node: Field
        let parent: GraphQLNamedType
        var definition: GraphQLField?
    }

    /// Checks `selectionSet` (selected on `parent`) and, depth first, every selection set in it.
    private mutating func visit(_ selectionSet: SelectionSet, parent: GraphQLNamedType) {
        let fields = collect(selectionSet, parent: parent)
        var byKey: [String: [Occurrence]] = [:]
        var order: [String] = []
        for field in fields {
            if byKey[field.key] == nil { order.append(field.key) }
            byKey[field.key, default: []].append(field)
        }
        for key in order {
            let group = byKey[key] ?? []
            for i in group.indices {
                for j in group.indices where j > i {
                    if let reason = conflict(group[i], group[j], exclusive: false) {
                        reportConflict(key, reason, group[i], group[j])
                    }
                }
            }
        }
        for selection in selectionSet.selections {
            if let field = selection as? Field, let child = field.selectionSet,
                let definition = schema.field(field.name.value, on: parent),
                let type = getNamedType(type: definition.type)
            {
                visit(child, parent: type)
            } else if let inline = selection as? InlineFragment {
                let type = inline.typeCondition.flatMap { schema.getType(name: $0.name.value) } ?? parent
                visit(inline.selectionSet, parent: type)
            }
        }
    }

    /// Every field of `selectionSet` on `parent`, fragments and inline fragments expanded.
    func collect(_ selectionSet: SelectionSet, parent: GraphQLNamedType) -> [Occurrence] {
        var result: [Occurrence] = []
        var visited: Set<String> = []
        collect(selectionSet, parent: parent, into: &result, visited: &visited)
        return result
    }

    private func collect(
        _ selectionSet: SelectionSet, parent: GraphQLNamedType, into result: inout [Occurrence],
        visited: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            if let field = selection as? Field {
                result.append(
                    Occurrence(
                        key: field.alias?.value ?? field.name.value, node: field, parent: parent,
                        definition: schema.field(field.name.value, on: parent)))
            } else if let inline = selection as? InlineFragment {
                let type = inline.typeCondition.flatMap { schema.getType(name: $0.name.value) } ?? parent
                collect(inline.selectionSet, parent: type, into: &result, visited: &visited)
            } else if let spread = selection as? FragmentSpread {
                let name = spread.name.value
                guard !visited.contains(name), let fragment = fragments[name],
                    let type = schema.getType(name: fragment.typeCondition.name.value)
                else { continue }
                visited.insert(name)
                collect(fragment.selectionSet, parent: type, into: &result, visited: &visited)
            }
        }
    }

    /// Why `a` and `b` (of one response key) cannot merge, as graphql-js words it; nil if they can.
    /// `exclusive`: their parents can never both apply (two different object types, here or above).
    private func conflict(_ a: Occurrence, _ b: Occurrence, exclusive: Bool) -> Reason? {
        let exclusive =
            exclusive
            || (a.parent.name != b.parent.name && a.parent is GraphQLObjectType && b.parent is GraphQLObjectType)
        if !exclusive {
            if a.node.name.value != b.node.name.value {
                return .message("\"\(a.node.name.value)\" and \"\(b.node.name.value)\" are different fields")
            }
            if !sameArguments(a.node.arguments, b.node.arguments) { return .message("they have differing arguments") }
        }
        if let typeA = a.definition?.type, let typeB = b.definition?.type, typesConflict(typeA, typeB) {
            return .message("they return conflicting types \"\(spelling(of: typeA))\" and \"\(spelling(of: typeB))\"")
        }
        guard let setA = a.node.selectionSet, let setB = b.node.selectionSet,
            let typeA = a.definition.flatMap({ getNamedType(type: $0.type) }),
            let typeB = b.definition.flatMap({ getNamedType(type: $0.type) })
        else { return nil }
        let fieldsA = collect(setA, parent: typeA)
        let fieldsB = collect(setB, parent: typeB)
        var reasons: [(String, Reason)] = []
        for fieldA in fieldsA {
            for fieldB in fieldsB where fieldB.key == fieldA.key {
                if let reason = conflict(fieldA, fieldB, exclusive: exclusive),
                    !reasons.contains(where: { $0.0 == fieldA.key })
                {
                    reasons.append((fieldA.key, reason))
                }
            }
        }
        return reasons.isEmpty ? nil : .subfields(reasons)
    }

    indirect enum Reason {
        case message(String)
        case subfields([(String, Reason)])

        var text: String {
            switch self {
            case .message(let text): return text
            case .subfields(let reasons):
                return reasons.map { "subfields \"\($0.0)\" conflict because \($0.1.text)" }.joined(separator: " and ")
            }
        }
    }

    private func sameArguments(_ a: [Argument], _ b: [Argument]) -> Bool {
        guard a.count == b.count else { return false }
        return a.allSatisfy { argument in
            b.contains {
                $0.name.value == argument.name.value
                    && GraphQL.print(ast: $0.value) == GraphQL.print(ast: argument.value)
            }
        }
    }

    /// graphql-js's `doTypesConflict`: list against list, non-null against non-null, and a
    /// leaf only against the same leaf.
    private func typesConflict(_ a: GraphQLType, _ b: GraphQLType) -> Bool {
        if let listA = a as? GraphQLList {
            guard let listB = b as? GraphQLList else { return true }
            return typesConflict(listA.ofType, listB.ofType)
        }
        if b is GraphQLList { return true }
        if let nonNullA = a as? GraphQLNonNull {
            guard let nonNullB = b as? GraphQLNonNull else { return true }
            return typesConflict(nonNullA.ofType, nonNullB.ofType)
        }
        if b is GraphQLNonNull { return true }
        if isLeaf(a) || isLeaf(b) {
            return (a as? GraphQLNamedType)?.name != (b as? GraphQLNamedType)?.name
        }
        return false
    }

    private mutating func reportConflict(_ key: String, _ reason: Reason, _ a: Occurrence, _ b: Occurrence) {
        let places = [a.node.loc?.start ?? -1, b.node.loc?.start ?? -1].sorted()
        guard !reported.contains(places) else { return }
        reported.insert(places)
        report(
            at: b.node.loc,
            "Fields \"\(key)\" conflict because \(reason.text). Use different aliases on the fields to fetch both if this was intentional."
        )
    }

    private mutating func report(at location: Location?, _ message: String) {
        guard let location else {
            diagnostics.append(CodegenDiagnostic(file: nil, message: message))
            return
        }
        let (line, column) = lineAndColumn(in: location.source.body, utf8Offset: location.start)
        diagnostics.append(
            CodegenDiagnostic(file: location.source.name, line: line, column: column, message: message))
    }
}
