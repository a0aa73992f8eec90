import GraphQL
import OrderedCollections

/// One selection set as the generated struct sees it: its fields by response key (merged when a
/// key is selected twice), the fragments it spreads, and the inline fragments that narrow it to
/// other types.
///
/// | Selection | Where it goes | Why |
/// | --- | --- | --- |
/// | a field | a property (optional if nullable, or under `@skip`/`@include`) | |
/// | a field selected again under the same key | merged into one property | the response has one value per key |
/// | an inline fragment whose type covers every type the parent can be (`... on Node` in `User`, or no type) | its fields merged into the parent | it always applies |
/// | an inline fragment on an object type the parent may be | a case of the `on` enum, with a struct `As<Type>` holding the parent's fields too, also read as `as<Type>` | one `__typename` picks one case; `unknown` for any other |
/// | an inline fragment on an abstract type the parent may be | an optional property `as<Type>`, its struct holding the parent's fields too | several may apply at once |
/// | a named fragment that always applies | a property of the fragment's type, and its fields read through it | fragments are usable alone; `issue.title` as well as `issue.issueRow.title` |
/// | a named fragment that applies to some types only | an optional property, decoded when `__typename` is one of them; its fields optional | |
/// | a fragment that never applies to the type (in an `As<Type>` built again from the parent's selection) | nothing | |
final class Selection {
    let parent: GraphQLNamedType
    /// The selection sets it was built from: an `As<Type>` struct is built from them again, on
    /// its type, so that it holds the selection's own fields too.
    var sets: [SelectionSet] = []
    var fields: OrderedDictionary<String, SelectedField> = [:]
    var fragments: [(name: String, optional: Bool)] = []
    /// Inline fragments on object types, by type name, in order of appearance.
    var objectConditions: OrderedDictionary<String, [(SelectionSet, conditional: Bool)]> = [:]
    /// Inline fragments on abstract types, by type name.
    var abstractConditions: OrderedDictionary<String, [(SelectionSet, conditional: Bool)]> = [:]

    init(parent: GraphQLNamedType) {
        self.parent = parent
    }

    /// Whether the generated struct needs its own `init(from:)`.
    var needsCustomDecoding: Bool {
        !fragments.isEmpty || !objectConditions.isEmpty || !abstractConditions.isEmpty
    }
}

/// A field of a selection.
struct SelectedField {
    let key: String
    let name: String
    let definition: GraphQLField
    /// Under `@skip` or `@include`, here or on an enclosing inline fragment: it may be absent.
    var conditional: Bool
    /// Its selection sets, merged (empty for a leaf).
    var selectionSets: [SelectionSet]
}

/// Builds ``Selection``s from the document.
struct SelectionBuilder {
    let schema: GraphQLSchema
    let fragments: [String: FragmentDefinition]

    /// `sets` (each selected on `parent`) as one selection.
    func selection(of sets: [SelectionSet], on parent: GraphQLNamedType, conditional: Bool = false) -> Selection {
        let selection = Selection(parent: parent)
        selection.sets = sets
        for set in sets { gather(set, into: selection, conditional: conditional) }
        return selection
    }

    /// Adds the selections of `set` to `selection`; `scope` is the type `set` is selected on (an
    /// inline fragment's condition that covers the parent, or the parent itself), where its
    /// fields are defined: `... on Starrable { stargazerCount }` in a union's selection, whose
    /// members are all Starrable, selects a field the union itself does not have.
    private func gather(
        _ set: SelectionSet, into selection: Selection, conditional: Bool, scope: GraphQLNamedType? = nil
    ) {
        for item in set.selections {
            if let field = item as? Field {
                let key = field.alias?.value ?? field.name.value
                // A validated document selects only fields its scope has.
                guard let definition = schema.field(field.name.value, on: scope ?? selection.parent) else { continue }
                let isConditional = conditional || Self.isConditional(field.directives)
                if var existing = selection.fields[key] {
                    existing.conditional = existing.conditional && isConditional
                    if let child = field.selectionSet { existing.selectionSets.append(child) }
                    selection.fields[key] = existing
                } else {
                    selection.fields[key] = SelectedField(
                        key: key, name: field.name.value, definition: definition, conditional: isConditional,
                        selectionSets: field.selectionSet.map { [$0] } ?? [])
                }
            } else if let inline = item as? InlineFragment {
                let isConditional = conditional || Self.isConditional(inline.directives)
                let type =
                    inline.typeCondition.flatMap { schema.getType(name: $0.name.value) } ?? scope ?? selection.parent
                if covers(type, selection.parent) {
                    gather(inline.selectionSet, into: selection, conditional: isConditional, scope: type)
                } else if !overlaps(type, selection.parent) {
                    // Never applies: a selection built again on a narrower type (`AsBook` from
                    // the selection that also has `... on Author`).
                    continue
                } else if type is GraphQLObjectType {
                    selection.objectConditions[type.name, default: []].append((inline.selectionSet, isConditional))
                } else {
                    selection.abstractConditions[type.name, default: []].append((inline.selectionSet, isConditional))
                }
            } else if let spread = item as? FragmentSpread {
                let name = spread.name.value
                guard let fragment = fragments[name],
                    let type = schema.getType(name: fragment.typeCondition.name.value),
                    !selection.fragments.contains(where: { $0.name == name }), overlaps(type, selection.parent)
                else { continue }
                let optional = conditional || Self.isConditional(spread.directives) || !covers(type, selection.parent)
                selection.fragments.append((name, optional))
            }
        }
    }

    /// Whether every object type `parent` can be is one `condition` can be.
    func covers(_ condition: GraphQLNamedType, _ parent: GraphQLNamedType) -> Bool {
        if condition.name == parent.name { return true }
        let possible = Set(schema.objectTypes(of: condition).map(\.name))
        return schema.objectTypes(of: parent).allSatisfy { possible.contains($0.name) }
    }

    /// Whether some object type is both one `condition` can be and one `parent` can be.
    func overlaps(_ condition: GraphQLNamedType, _ parent: GraphQLNamedType) -> Bool {
        let possible = Set(schema.objectTypes(of: condition).map(\.name))
        return schema.objectTypes(of: parent).contains { possible.contains($0.name) }
    }

    static func isConditional(_ directives: [Directive]) -> Bool {
        directives.contains { $0.name.value == "skip" || $0.name.value == "include" }
    }
}
