import GraphQL

/// What the generator wrote: Swift for each input file (keyed by its path), Swift for the
/// schema's types the operations use, and the operation manifest.
public struct CodegenOutput: Sendable {
    /// Swift for each `.graphql` file, by the file's path as given.
    public var files: [String: String]
    /// The namespace enum with the schema's enums, input objects and custom scalars.
    public var schemaTypes: String
    /// Every operation with its document and the SHA-256 of it, in the format of Apollo's
    /// persisted query manifest (`apollo-persisted-query-manifest`, version 1), sorted by name.
    public var manifest: String
    /// What is wrong in the schema but did not stop generation (a definition the server
    /// repeats: the first is used), and what the documents use that the schema deprecates where
    /// Swift cannot mark it (an argument, an input field or enum value written in a document),
    /// each at its place; printed as `file:line:column: warning:`.
    public var warnings: [CodegenDiagnostic] = []
}

/// PrismGraphQL's code generator: a schema and `.graphql` files in, Swift out.
///
/// 1. The schema is read (SDL, or an introspection result as JSON) and the files parsed; a
///    syntax error is a diagnostic at its place.
/// 2. Every operation and fragment is validated against the schema with every validation rule
///    of the GraphQL specification (GraphQLSwift's, and the two it leaves out:
///    `SelectionMergingRule`); each problem is a diagnostic at its file, line and column, in
///    graphql-js's words.
/// 3. `__typename` and the type's key fields (`id` by default) are added to every selection set
///    but the operations' roots, in the text itself: the documents sent are the files' own.
/// 4. Swift is written for each operation and fragment, the schema's types they use, and the
///    manifest.
public enum PrismGraphQLCodegen {
    /// Generates Swift for `operations` (`.graphql` files) against `schema`.
    ///
    /// - Throws: ``CodegenFailure`` with every problem found, each at its file, line and column.
    public static func generate(
        schema schemaInput: CodegenInput, operations inputs: [CodegenInput],
        configuration: CodegenConfiguration = CodegenConfiguration()
    ) throws(CodegenFailure) -> CodegenOutput {
        let result = FieldMaps.$current.withValue(FieldMaps()) { () -> Result<CodegenOutput, CodegenFailure> in
            do throws(CodegenFailure) {
                return .success(try generateOnce(schema: schemaInput, operations: inputs, configuration: configuration))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// ``generate(schema:operations:configuration:)`` with this generation's ``FieldMaps`` in place.
    private static func generateOnce(
        schema schemaInput: CodegenInput, operations inputs: [CodegenInput], configuration: CodegenConfiguration
    ) throws(CodegenFailure) -> CodegenOutput {
        let (schema, warnings) = try Loading.schemaAndWarnings(schemaInput)
        let document = try Loading.document(inputs)
        var problems = validate(document, schema: schema)
        guard problems.isEmpty else { throw CodegenFailure(problems) }
        problems = namingProblems(document, configuration: configuration)
        guard problems.isEmpty else { throw CodegenFailure(problems) }

        // Add __typename and key fields, then read the files again as they will be sent.
        let insertions = Insertions(schema: schema, configuration: configuration)
        var edited: [CodegenInput] = []
        for input in inputs {
            let points = insertions.points(in: document, file: input.path)
            edited.append(CodegenInput(path: input.path, text: Insertions.apply(points, to: input.text)))
        }
        let final = try Loading.document(edited)
        problems = validate(final, schema: schema)
        guard problems.isEmpty else {
            throw CodegenFailure(
                problems.map {
                    var problem = $0
                    problem.message = "With __typename and key fields added: " + problem.message
                    return problem
                })
        }

        var fragments: [String: FragmentDefinition] = [:]
        for case let fragment as FragmentDefinition in final.definitions { fragments[fragment.name.value] = fragment }
        var emitter = SwiftEmitter(schema: schema, configuration: configuration, fragments: fragments)
        var files: [String: [String]] = [:]
        var manifest: [(name: String, kind: String, body: String)] = []
        for definition in final.definitions {
            if let operation = definition as? OperationDefinition,
                let root = SelectionMergingRule.rootType(of: operation, in: schema), let location = operation.loc
            {
                let used = usedFragments(operation.selectionSet, fragments: fragments)
                let body = ([text(of: location)] + used.compactMap { fragments[$0]?.loc.map(text(of:)) })
                    .joined(separator: "\n\n")
                var lines: [String] = []
                emitter.operation(operation, document: body, root: root, into: &lines)
                files[location.source.name, default: []].append(lines.joined(separator: "\n"))
                manifest.append((operation.name?.value ?? "", operation.operation.rawValue, body))
            } else if let fragment = definition as? FragmentDefinition, let location = fragment.loc {
                var lines: [String] = []
                emitter.fragment(fragment, definition: text(of: location), into: &lines)
                files[location.source.name, default: []].append(lines.joined(separator: "\n"))
            }
        }
        var schemaLines: [String] = []
        emitter.schemaTypes(into: &schemaLines)

        var output: [String: String] = [:]
        for input in inputs {
            let name = input.path.split(separator: "/").last.map(String.init) ?? input.path
            let declarations = files[input.path] ?? []
            output[input.path] =
                header(name) + "import PrismGraphQL\n\n" + declarations.joined(separator: "\n\n") + "\n"
        }
        let needsFoundation = configuration.scalars.values.contains { $0.hasPrefix("Foundation.") }
        let schemaFile =
            header(schemaInput.path.split(separator: "/").last.map(String.init) ?? schemaInput.path)
            + (needsFoundation ? "import Foundation\n" : "") + "import PrismGraphQL\n\n"
            + schemaLines.joined(separator: "\n") + "\n"
        return CodegenOutput(
            files: output, schemaTypes: schemaFile, manifest: manifestJSON(manifest),
            warnings: warnings + DeprecatedUses.warnings(in: document, schema: schema))
    }

    /// The schema of `input` (SDL, or an introspection result as JSON) printed as SDL.
    public static func printSchema(_ input: CodegenInput) throws(CodegenFailure) -> String {
        SchemaPrinter.sdl(of: try Loading.schema(input)) + "\n"
    }

    /// The specified rules, then the two GraphQLSwift leaves out.
    ///
    /// All but one: "Fragments Must Be Used" (5.5.1.4) is a rule of a document sent for
    /// execution, and each document this generator sends is an operation with exactly the
    /// fragments it spreads. A fragment no operation spreads is still generated, a type to use
    /// on its own (as Apollo's generator does: its own StarWars fixture has nine such).
    static func validate(_ document: Document, schema: GraphQLSchema) -> [CodegenDiagnostic] {
        let errors = GraphQL.validate(schema: schema, ast: document).filter { !isUnusedFragment($0.message) }
        if !errors.isEmpty {
            return errors.flatMap { Loading.diagnostics(of: $0, in: nil, file: "") }
        }
        return SelectionMergingRule.check(document, schema: schema)
    }

    /// Whether `message` is GraphQLSwift's "Fragment "X" is never used." (NoUnusedFragmentsRule,
    /// which it does not make public to leave out of its rules).
    static func isUnusedFragment(_ message: String) -> Bool {
        message.hasPrefix("Fragment \"") && message.hasSuffix("\" is never used.")
            && !message.dropFirst(10).dropLast(16).contains(where: { !($0.isLetter || $0.isNumber || $0 == "_") })
    }

    /// Operations need names (their types are named after them), and no two generated types
    /// may share a name.
    static func namingProblems(_ document: Document, configuration: CodegenConfiguration) -> [CodegenDiagnostic] {
        var problems: [CodegenDiagnostic] = []
        var taken: [String: String] = [configuration.schemaNamespace: "the schema namespace"]
        for definition in document.definitions {
            var typeName: String?
            var what = ""
            var location: Location?
            if let operation = definition as? OperationDefinition {
                location = operation.loc
                guard let name = operation.name?.value else {
                    problems.append(
                        diagnostic(
                            at: location,
                            "An operation needs a name to be generated: its Swift type is named after it."))
                    continue
                }
                typeName = Naming.operationTypeName(name, kind: operation.operation.rawValue)
                what = "operation \"\(name)\""
            } else if let fragment = definition as? FragmentDefinition {
                location = fragment.loc
                typeName = Naming.schemaTypeName(fragment.name.value)
                what = "fragment \"\(fragment.name.value)\""
            }
            guard let typeName else { continue }
            if let other = taken[typeName] {
                problems.append(
                    diagnostic(at: location, "The Swift type \(typeName) of \(what) is already that of \(other)."))
            } else {
                taken[typeName] = what
            }
        }
        return problems
    }

    static func diagnostic(at location: Location?, _ message: String) -> CodegenDiagnostic {
        guard let location else { return CodegenDiagnostic(file: nil, message: message) }
        let (line, column) = lineAndColumn(in: location.source.body, utf8Offset: location.start)
        return CodegenDiagnostic(file: location.source.name, line: line, column: column, message: message)
    }

    /// The text of the operation or fragment definition that starts at `location`, through the
    /// `}` that closes its selection set.
    ///
    /// GraphQLSwift's `loc.end` of a definition is where its name ends (the location is made
    /// before the rest is parsed), so the end is found here: the first `{` outside parentheses
    /// (variable defaults and directive arguments may hold object literals) and its match,
    /// strings, block strings and comments skipped.
    static func text(of location: Location) -> String {
        let bytes = Array(location.source.body.utf8)
        let start = max(0, min(location.start, bytes.count))
        var index = start
        var parentheses = 0
        var braces = 0
        var end = bytes.count
        scan: while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                    index += 1
                }
                continue scan
            case UInt8(ascii: "\""):
                let block =
                    index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"")
                    && bytes[index + 2] == UInt8(ascii: "\"")
                if block {
                    index += 3
                    while index < bytes.count {
                        if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count,
                            bytes[index + 1] == UInt8(ascii: "\""),
                            bytes[index + 2] == UInt8(ascii: "\""), bytes[index + 3] == UInt8(ascii: "\"")
                        {
                            index += 4
                            continue
                        }
                        if bytes[index] == UInt8(ascii: "\""), index + 2 < bytes.count,
                            bytes[index + 1] == UInt8(ascii: "\""),
                            bytes[index + 2] == UInt8(ascii: "\"")
                        {
                            index += 3
                            continue scan
                        }
                        index += 1
                    }
                } else {
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    index += 1
                }
                continue scan
            case UInt8(ascii: "("): parentheses += 1
            case UInt8(ascii: ")"): parentheses -= 1
            case UInt8(ascii: "{"): braces += 1
            case UInt8(ascii: "}"):
                braces -= 1
                if braces == 0 && parentheses == 0 {
                    end = index + 1
                    break scan
                }
            default: break
            }
            index += 1
        }
        return String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
    }

    /// The fragments `set` spreads, directly or through other fragments, sorted by name.
    static func usedFragments(_ set: SelectionSet, fragments: [String: FragmentDefinition]) -> [String] {
        var found: Set<String> = []
        var pending: [SelectionSet] = [set]
        while let next = pending.popLast() {
            for selection in next.selections {
                if let field = selection as? Field, let child = field.selectionSet {
                    pending.append(child)
                } else if let inline = selection as? InlineFragment {
                    pending.append(inline.selectionSet)
                } else if let spread = selection as? FragmentSpread, !found.contains(spread.name.value) {
                    found.insert(spread.name.value)
                    if let fragment = fragments[spread.name.value] { pending.append(fragment.selectionSet) }
                }
            }
        }
        return found.sorted()
    }

    static func header(_ name: String) -> String {
        // The file's name on one line: a line break in it would end the comment.
        let shown = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { Naming.needsEscaping($0) || $0 == "\u{85}" ? "?" : $0 }))
        // The second line is swift-format's directive to skip the file: a project that commits the
        // generated code (the command plugin) and formats or lints its sources with swift-format
        // leaves it as generated.
        return "// Generated by prism-graphql-codegen from \(shown). Do not edit: edit the GraphQL file.\n"
            + "// swift-format-ignore-file\n\n"
    }

    static func manifestJSON(_ operations: [(name: String, kind: String, body: String)]) -> String {
        let entries = operations.sorted { $0.name < $1.name }.map { operation in
            """
                {
                  "id": "\(SHA256.hex(of: operation.body))",
                  "body": \(IntrospectionSDL.quoted(operation.body)),
                  "name": \(IntrospectionSDL.quoted(operation.name)),
                  "type": "\(operation.kind)"
                }
            """
        }
        return """
            {
              "format": "apollo-persisted-query-manifest",
              "version": 1,
              "operations": [
            \(entries.joined(separator: ",\n"))
              ]
            }

            """
    }
}
