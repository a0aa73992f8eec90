import Foundation
import GraphQL

/// A file the generator reads: its path (as diagnostics name it) and its text.
public struct CodegenInput: Sendable, Hashable {
    /// The path diagnostics name the file by.
    public var path: String
    /// The file's contents.
    public var text: String

    /// A file at `path` holding `text`.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// Loading the schema and the operations, every problem a diagnostic at its place.
enum Loading {
    /// The schema of `input`: SDL, or an introspection result when the file ends in `.json`.
    static func schema(_ input: CodegenInput) throws(CodegenFailure) -> GraphQLSchema {
        try schemaAndWarnings(input).schema
    }

    /// The schema of `input`, and the warnings about it (a definition the server repeats: the
    /// first is used; see ``SDLChecks``).
    static func schemaAndWarnings(
        _ input: CodegenInput
    ) throws(CodegenFailure) -> (schema: GraphQLSchema, warnings: [CodegenDiagnostic]) {
        var sdl = input.text
        if input.path.lowercased().hasSuffix(".json") {
            do {
                sdl = try IntrospectionSDL.sdl(fromJSON: Data(input.text.utf8))
            } catch {
                throw CodegenFailure([
                    CodegenDiagnostic(
                        file: input.path, line: 1, column: 1, message: "Not an introspection result: \(error)")
                ])
            }
        }
        let source = Source(body: sdl, name: input.path)
        // Places in SDL made from JSON are places in that SDL, not in the file: name the file only.
        let fromJSON = input.path.lowercased().hasSuffix(".json")
        do {
            var document = try parse(source: source)
            let checked = SDLChecks.check(document, source: source, file: input.path)
            let problems = checked.problems.map {
                var problem = $0
                if problem.severity == .error { problem.message = "Invalid schema: " + problem.message }
                if fromJSON { (problem.line, problem.column) = (nil, nil) }
                return problem
            }
            guard !problems.contains(where: { $0.severity == .error }) else { throw CodegenFailure(problems) }
            if !checked.repeated.isEmpty {
                // The repeated definitions blanked out (spaces, line breaks kept: every place
                // stays where it was), and the schema read again.
                var bytes = Array(sdl.utf8)
                for range in checked.repeated {
                    for index in range.clamped(to: 0..<bytes.count) where bytes[index] != 0x0A && bytes[index] != 0x0D {
                        bytes[index] = 0x20
                    }
                }
                document = try parse(source: Source(body: String(decoding: bytes, as: UTF8.self), name: input.path))
            }
            // SDLChecks did what GraphQLSwift's SDL validation would (see there).
            return (try buildASTSchema(documentAST: document, assumeValidSDL: true), problems)
        } catch let failure as CodegenFailure {
            throw failure
        } catch let error as GraphQLError {
            let place = fromJSON ? nil : source
            throw CodegenFailure(diagnostics(of: error, in: place, file: input.path, prefix: "Invalid schema: "))
        } catch {
            throw CodegenFailure([CodegenDiagnostic(file: input.path, message: "Invalid schema: \(error)")])
        }
    }

    /// Every definition of every file in `inputs`, parsed, as one document.
    static func document(_ inputs: [CodegenInput]) throws(CodegenFailure) -> Document {
        var definitions: [Definition] = []
        var problems: [CodegenDiagnostic] = []
        var first: Document?
        for input in inputs {
            let source = Source(body: input.text, name: input.path)
            do {
                let document = try parse(source: source)
                // A schema read as operations (a schema file named `.graphql`, as many are
                // published) is one problem, said once: not "not executable" for each of its
                // thousands of types.
                if let typeDefinition = document.definitions.first(where: { $0 is TypeSystemDefinition }) {
                    problems.append(
                        PrismGraphQLCodegen.diagnostic(
                            at: typeDefinition.loc,
                            "\(input.path.split(separator: "/").last ?? "This file") holds type definitions, "
                                + "not operations: it is a schema. Give it the target's schema alone (the plugins "
                                + "take a .graphql file that holds type definitions as the schema), or name it in "
                                + "prism-graphql.json (\"schema\")."))
                    continue
                }
                if first == nil { first = document }
                definitions += document.definitions
            } catch let error as GraphQLError {
                problems += diagnostics(of: error, in: source, file: input.path, prefix: "Syntax error: ")
            } catch {
                problems.append(CodegenDiagnostic(file: input.path, message: "Syntax error: \(error)"))
            }
        }
        guard problems.isEmpty else { throw CodegenFailure(problems) }
        guard let first else {
            throw CodegenFailure([
                CodegenDiagnostic(file: nil, message: "No .graphql file with an operation or a fragment.")
            ])
        }
        return first.set(value: .array(definitions), key: "definitions")
    }

    /// `error` at each of its places: in the file of the node it names when it names one.
    static func diagnostics(
        of error: GraphQLError, in source: Source?, file: String, prefix: String = ""
    ) -> [CodegenDiagnostic] {
        let located = error.source ?? source
        guard let located, !error.positions.isEmpty else {
            return [CodegenDiagnostic(file: located?.name ?? file, message: prefix + error.message)]
        }
        // The first place is the error's; the others are named in the message already.
        let (line, column) = lineAndColumn(in: located.body, utf8Offset: error.positions[0])
        return [CodegenDiagnostic(file: located.name, line: line, column: column, message: prefix + error.message)]
    }
}
