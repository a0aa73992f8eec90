import GraphQL

/// Where a document uses what the schema deprecates and the generated Swift cannot mark: an
/// argument, an input object field or an enum value written in the document itself. Each is a
/// warning at its place in the `.graphql` file (the build goes on).
///
/// | Deprecated | Where Swift marks it | Here |
/// | --- | --- | --- |
/// | an output field | its property (`@available(*, deprecated)`): reading it warns | |
/// | an enum value | its case | a value written in the document |
/// | an input object field | its property; an initializer that sets it | a field written in the document |
/// | an argument | nowhere: arguments are in the document | every argument written in the document |
enum DeprecatedUses {
    static func warnings(in document: Document, schema: GraphQLSchema) -> [CodegenDiagnostic] {
        var walker = Walker(schema: schema)
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition,
                let root = SelectionMergingRule.rootType(of: operation, in: schema)
            {
                walker.walk(operation.selectionSet, on: root)
            } else if let fragment = definition as? FragmentDefinition,
                let type = schema.getType(name: fragment.typeCondition.name.value)
            {
                walker.walk(fragment.selectionSet, on: type)
            }
        }
        return walker.warnings
    }

    private struct Walker {
        let schema: GraphQLSchema
        var warnings: [CodegenDiagnostic] = []

        mutating func walk(_ set: SelectionSet, on parent: GraphQLNamedType) {
            for selection in set.selections {
                if let field = selection as? Field {
                    guard let definition = schema.field(field.name.value, on: parent) else { continue }
                    for argument in field.arguments {
                        guard let declared = definition.args[argument.name.value] else { continue }
                        let owner = "\(parent.name).\(field.name.value)"
                        if let reason = declared.deprecationReason {
                            warn(
                                at: argument.loc,
                                "The argument \"\(argument.name.value)\" of \"\(owner)\" is deprecated"
                                    + Self.because(reason))
                        }
                        check(argument.value, as: declared.type)
                    }
                    if let child = field.selectionSet, let named = getNamedType(type: definition.type) {
                        walk(child, on: named)
                    }
                } else if let inline = selection as? InlineFragment {
                    let type = inline.typeCondition.flatMap { schema.getType(name: $0.name.value) } ?? parent
                    walk(inline.selectionSet, on: type)
                }
                // A fragment spread: the fragment's definition is walked on its own.
            }
        }

        /// Deprecated input fields and enum values written in `value`, of input type `type`.
        mutating func check(_ value: Value, as type: GraphQLInputType) {
            let named = getNamedType(type: type)
            if let list = value as? ListValue {
                let nullable = (type as? GraphQLNonNull)?.ofType ?? type
                let element = (nullable as? GraphQLList)?.ofType as? GraphQLInputType ?? type
                for item in list.values { check(item, as: element) }
            } else if let object = value as? ObjectValue, let input = named as? GraphQLInputObjectType {
                let fields = (try? input.fields()) ?? [:]
                for field in object.fields {
                    guard let declared = fields[field.name.value] else { continue }
                    if let reason = declared.deprecationReason {
                        warn(
                            at: field.loc,
                            "The field \"\(input.name).\(field.name.value)\" is deprecated" + Self.because(reason))
                    }
                    check(field.value, as: declared.type)
                }
            } else if let value = value as? EnumValue, let enumeration = named as? GraphQLEnumType,
                let declared = enumeration.values.first(where: { $0.name == value.value }),
                let reason = declared.deprecationReason
            {
                warn(
                    at: value.loc,
                    "The enum value \"\(enumeration.name).\(value.value)\" is deprecated" + Self.because(reason))
            }
        }

        static func because(_ reason: String) -> String {
            reason.isEmpty ? "." : ": \(reason)"
        }

        mutating func warn(at location: Location?, _ message: String) {
            var diagnostic = PrismGraphQLCodegen.diagnostic(at: location, message)
            diagnostic.severity = .warning
            warnings.append(diagnostic)
        }
    }
}
