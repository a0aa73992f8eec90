import GraphQL

/// A built schema written back as SDL: what `prism-graphql-codegen --print-schema` prints.
///
/// GraphQLSwift's own `printSchema` rebuilds each default value from its parsed form and
/// stops the process (a `try!`) on one it cannot rebuild: an input object default that leaves a
/// field out (`filters: ComplianceViolationInput = {}`, in GitLab's published schema) reads the
/// missing field as `undefined`. It also drops, without a word, an input field's default it
/// cannot rebuild. Every schema here is built from SDL (an introspection result is first written
/// as SDL, `IntrospectionSDL`), so every default value has the literal it was written as, and
/// this printer prints that literal.
///
/// | Part | Printed as |
/// | --- | --- |
/// | root types named other than `Query`, `Mutation`, `Subscription` | `schema { query: ... }` |
/// | a directive not built in | `directive @name(args) repeatable on A \| B` |
/// | a type not built in (no `__` type, no specified scalar) | in the schema's order |
/// | a default value | the literal of the SDL it was built from |
/// | a description | a block string, or a quoted string when a block string would change it |
/// | `@deprecated`, `@specifiedBy`, `@oneOf` | as written, reasons and URLs quoted |
enum SchemaPrinter {
    static func sdl(of schema: GraphQLSchema) -> String {
        var blocks: [String] = []
        if let definition = schemaDefinition(schema) { blocks.append(definition) }
        for directive in schema.directives where !builtInDirectives.contains(directive.name) {
            blocks.append(
                description(directive.description) + "directive @\(directive.name)"
                    + arguments(
                        directive.args.map {
                            Argument(
                                name: $0.name, type: $0.type, description: $0.description,
                                literal: $0.astNode?.defaultValue, deprecation: $0.deprecationReason)
                        }, indentation: "") + (directive.isRepeatable ? " repeatable" : "")
                    + " on " + directive.locations.map(\.rawValue).joined(separator: " | "))
        }
        for type in schema.typeMap.values where !type.name.hasPrefix("__") && !builtInScalars.contains(type.name) {
            blocks.append(definition(of: type))
        }
        return blocks.joined(separator: "\n\n")
    }

    private static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    private static let builtInDirectives: Set<String> = [
        "skip", "include", "deprecated", "specifiedBy", "oneOf", "defer", "stream",
    ]

    /// `schema { ... }` only when a root type is not named as the convention names it, or a
    /// type with a conventional name is not the root it names (else the SDL would be ambiguous).
    private static func schemaDefinition(_ schema: GraphQLSchema) -> String? {
        let roots: [(String, GraphQLObjectType?, String)] = [
            ("query", schema.queryType, "Query"), ("mutation", schema.mutationType, "Mutation"),
            ("subscription", schema.subscriptionType, "Subscription"),
        ]
        guard roots.contains(where: { $0.1 != nil }) else { return nil }
        let conventional = roots.allSatisfy { _, type, name in
            let named = schema.getType(name: name) as? GraphQLObjectType
            return type.map(ObjectIdentifier.init) == named.map(ObjectIdentifier.init)
        }
        guard !conventional else { return nil }
        let lines = roots.compactMap { keyword, type, _ in type.map { "  \(keyword): \($0.name)" } }
        return "schema {\n" + lines.joined(separator: "\n") + "\n}"
    }

    private static func definition(of type: GraphQLNamedType) -> String {
        switch type {
        case let type as GraphQLScalarType:
            let head = description(type.description)
            let url = type.specifiedByURL.map { " @specifiedBy(url: \(IntrospectionSDL.quoted($0)))" } ?? ""
            return head + "scalar \(type.name)\(url)"
        case let type as GraphQLObjectType:
            let head = description(type.description)
            return head + "type \(type.name)" + implements((try? type.interfaces()) ?? [])
                + fields((try? type.fields()) ?? [:])
        case let type as GraphQLInterfaceType:
            let head = description(type.description)
            return head + "interface \(type.name)" + implements((try? type.interfaces()) ?? [])
                + fields((try? type.fields()) ?? [:])
        case let type as GraphQLUnionType:
            let head = description(type.description)
            let members = ((try? type.types()) ?? []).map(\.name)
            return head + "union \(type.name)" + (members.isEmpty ? "" : " = " + members.joined(separator: " | "))
        case let type as GraphQLEnumType:
            let head = description(type.description)
            let values = type.values.enumerated().map { index, value in
                description(value.description, indentation: "  ", first: index == 0) + "  \(value.name)"
                    + deprecated(value.deprecationReason)
            }
            return head + "enum \(type.name)" + block(values)
        case let type as GraphQLInputObjectType:
            let head = description(type.description)
            let fields = ((try? type.fields()) ?? [:]).enumerated().map { index, entry in
                let field = entry.value
                return description(field.description, indentation: "  ", first: index == 0) + "  "
                    + Argument(
                        name: entry.key, type: field.type, description: field.description,
                        literal: field.astNode?.defaultValue, deprecation: field.deprecationReason
                    ).sdl
            }
            return head + "input \(type.name)" + (type.isOneOf ? " @oneOf" : "") + block(fields)
        default:
            return "scalar \(type.name)"
        }
    }

    private static func implements(_ interfaces: [GraphQLInterfaceType]) -> String {
        interfaces.isEmpty ? "" : " implements " + interfaces.map(\.name).joined(separator: " & ")
    }

    private static func fields(_ fields: GraphQLFieldMap) -> String {
        block(
            fields.enumerated().map { index, entry in
                let field = entry.value
                let arguments = field.args.map { name, argument in
                    Argument(
                        name: name, type: argument.type, description: argument.description,
                        literal: argument.astNode?.defaultValue, deprecation: argument.deprecationReason)
                }
                return description(field.description, indentation: "  ", first: index == 0) + "  \(entry.key)"
                    + Self.arguments(arguments, indentation: "  ") + ": \(field.type.debugDescription)"
                    + deprecated(field.deprecationReason)
            })
    }

    /// An argument or an input field: `name: Type = default @deprecated(...)`.
    private struct Argument {
        let name: String
        let type: GraphQLInputType
        let description: String?
        let literal: (any Value)?
        let deprecation: String?

        /// GraphQLSwift's printer writes an empty object as `{  }`; graphql-js, `{}`.
        static func printed(_ literal: any Value) -> String {
            if let object = literal as? ObjectValue, object.fields.isEmpty { return "{}" }
            return print(ast: literal)
        }

        var sdl: String {
            "\(name): \(type.debugDescription)" + (literal.map { " = " + Self.printed($0) } ?? "")
                + SchemaPrinter.deprecated(deprecation)
        }
    }

    /// On one line when no argument has a description, else one argument a line.
    private static func arguments(_ arguments: [Argument], indentation: String) -> String {
        guard !arguments.isEmpty else { return "" }
        guard arguments.contains(where: { $0.description != nil }) else {
            return "(" + arguments.map(\.sdl).joined(separator: ", ") + ")"
        }
        let lines = arguments.enumerated().map { index, argument in
            description(argument.description, indentation: "  " + indentation, first: index == 0) + "  "
                + indentation + argument.sdl
        }
        return "(\n" + lines.joined(separator: "\n") + "\n" + indentation + ")"
    }

    fileprivate static func deprecated(_ reason: String?) -> String {
        guard let reason else { return "" }
        return reason == "No longer supported"
            ? " @deprecated" : " @deprecated(reason: \(IntrospectionSDL.quoted(reason)))"
    }

    private static func block(_ items: [String]) -> String {
        items.isEmpty ? "" : " {\n" + items.joined(separator: "\n") + "\n}"
    }

    /// A description above its definition, as a block string when the block string reads back
    /// as the same text, else as a quoted string.
    private static func description(_ text: String?, indentation: String = "", first: Bool = true) -> String {
        guard let text else { return "" }
        let prefix = !indentation.isEmpty && !first ? "\n" + indentation : indentation
        guard readsBackFromBlock(text) else { return prefix + IntrospectionSDL.quoted(text) + "\n" }
        let escaped = text.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
        // On one line unless it has several, or ends with a quote or a backslash (which would
        // run into the closing quotes).
        guard text.contains("\n") || text.hasSuffix("\"") || text.hasSuffix("\\") else {
            return prefix + "\"\"\"\(escaped)\"\"\"\n"
        }
        let body = escaped.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : indentation + $0 }.joined(separator: "\n")
        return prefix + "\"\"\"\n\(body)\n\(indentation)\"\"\"\n"
    }

    /// Whether a block string holding `text` reads back as `text` (the spec's BlockStringValue:
    /// line endings become \n, the common indentation of the lines after the first and blank
    /// first and last lines are removed): no control character but \n and \t, no \r, no
    /// blank or whitespace-only first or last line, no leading or trailing whitespace, and not
    /// every line after the first indented.
    static func readsBackFromBlock(_ text: String) -> Bool {
        guard !text.isEmpty else { return true }
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }) {
            return false
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let isBlank = { (line: Substring) in line.allSatisfy { $0 == " " || $0 == "\t" } }
        guard let firstLine = lines.first, let lastLine = lines.last, !isBlank(firstLine), !isBlank(lastLine) else {
            return false
        }
        if let first = text.unicodeScalars.first, first == " " || first == "\t" { return false }
        let rest = lines.dropFirst().filter { !isBlank($0) }
        if !rest.isEmpty && rest.allSatisfy({ $0.first == " " || $0.first == "\t" }) { return false }
        return true
    }
}
