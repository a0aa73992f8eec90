import GraphQL

/// Where `__typename` and key fields go in the text of a file, and the text with them.
///
/// | Selection set | Added | Why |
/// | --- | --- | --- |
/// | an operation's root | nothing | a subscription may select one root field only; the root's type is known |
/// | any other, on any composite type | `__typename`, unless selected (unaliased) | the generated code tells types apart by it, and a normalized cache keys objects by it |
/// | on an object or interface type with every key field (`id`, or the configuration's) | each key field not selected under its own name | a normalized cache needs them; a key field with a required argument is left out |
/// | a key that an alias takes for another field (`id: login`) | not that key field | two fields under one key would not merge |
/// | an inline fragment on another type | its key fields, when the enclosing type lacks them (a union) | each object keeps its key |
struct Insertions {
    let schema: GraphQLSchema
    let configuration: CodegenConfiguration

    /// The insertions for file `file`: (UTF-8 offset, text), in any order.
    func points(in document: Document, file: String) -> [(Int, String)] {
        var result: [(Int, String)] = []
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition, operation.loc?.source.name == file,
                let root = SelectionMergingRule.rootType(of: operation, in: schema)
            {
                children(of: operation.selectionSet, parent: root, into: &result)
            } else if let fragment = definition as? FragmentDefinition, fragment.loc?.source.name == file,
                let type = schema.getType(name: fragment.typeCondition.name.value)
            {
                visit(fragment.selectionSet, parent: type, into: &result)
            }
        }
        return result
    }

    private func visit(_ set: SelectionSet, parent: GraphQLNamedType, into result: inout [(Int, String)]) {
        if let start = set.loc?.start {
            let added = additions(for: set, parent: parent)
            if !added.isEmpty { result.append((start + 1, " " + added.joined(separator: " "))) }
        }
        children(of: set, parent: parent, into: &result)
    }

    private func children(of set: SelectionSet, parent: GraphQLNamedType, into result: inout [(Int, String)]) {
        for selection in set.selections {
            if let field = selection as? Field, let child = field.selectionSet,
                let type = schema.field(field.name.value, on: parent).flatMap({ getNamedType(type: $0.type) })
            {
                visit(child, parent: type, into: &result)
            } else if let inline = selection as? InlineFragment {
                let type = inline.typeCondition.flatMap { schema.getType(name: $0.name.value) } ?? parent
                // The enclosing set has __typename; key fields go here when the enclosing type
                // cannot have them (a union, or an interface without them).
                if let start = inline.selectionSet.loc?.start, type.name != parent.name {
                    let parentFields = GraphQLSchema.fields(of: parent)
                    let added = additions(for: inline.selectionSet, parent: type).filter {
                        $0 != "__typename" && parentFields?[$0] == nil
                    }
                    if !added.isEmpty { result.append((start + 1, " " + added.joined(separator: " "))) }
                }
                children(of: inline.selectionSet, parent: type, into: &result)
            }
        }
    }

    /// The fields `set` (on `parent`) lacks: `__typename` and key fields.
    func additions(for set: SelectionSet, parent: GraphQLNamedType) -> [String] {
        var keys: [String: String] = [:]  // response key -> field name, of the set's own fields
        for case let field as Field in set.selections {
            keys[field.alias?.value ?? field.name.value] = field.name.value
        }
        var added: [String] = []
        if keys["__typename"] == nil { added.append("__typename") }
        guard let fields = GraphQLSchema.fields(of: parent) else { return added }
        let wanted = configuration.keyFields[parent.name] ?? configuration.defaultKeyFields
        let usable = wanted.filter { name in
            guard let field = fields[name] else { return false }
            return !field.args.values.contains { $0.type is GraphQLNonNull && $0.defaultValue == nil }
        }
        // The default key fields apply only to a type that has them all; a type's own must exist.
        guard usable.count == wanted.count || configuration.keyFields[parent.name] != nil else { return added }
        for name in usable where keys[name] == nil { added.append(name) }
        return added
    }

    /// `text` with `points` inserted (offsets in UTF-8 bytes of the original).
    static func apply(_ points: [(Int, String)], to text: String) -> String {
        var bytes = Array(text.utf8)
        for (offset, insertion) in points.sorted(by: { $0.0 > $1.0 }) where offset <= bytes.count {
            bytes.insert(contentsOf: Array(insertion.utf8), at: offset)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
