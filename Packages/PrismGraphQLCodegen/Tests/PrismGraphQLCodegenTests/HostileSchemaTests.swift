import Foundation
import Testing

@testable import PrismGraphQLCodegen

/// A schema is often a stranger's text (an introspection result a third party serves): nothing in
/// it may write Swift into the app's module. Each generated file is parsed by the Swift compiler
/// (`swiftc -dump-parse`), and the declarations it finds are compared with those the generator
/// means to write.
@Suite("A schema's descriptions and names cannot write Swift into the app")
struct HostileSchemaTests {
    /// After each kind of line terminator, code that closes the namespace and declares a type.
    static let terminators: [(name: String, graphQL: String)] = [
        ("CR", #"\r"#), ("LF", #"\n"#), ("CRLF", #"\r\n"#), ("NEL", #"\u0085"#), ("LS", #"\u2028"#),
        ("PS", #"\u2029"#),
    ]

    static func payload(_ terminator: (name: String, graphQL: String)) -> String {
        let end = terminator.graphQL
        return
            "Text.\(end)}\(end)public enum InjectedBy\(terminator.name) { static let ran = true }\(end)enum Reopened\(terminator.name) {"
    }

    /// A schema whose every description (type, field, argument, enum value, input field,
    /// scalar) carries a payload, with bidirectional controls and a bell besides.
    static var schema: String {
        var payloads = terminators.map(payload).makeIterator()
        func next() -> String { "\"" + (payloads.next() ?? "plain") + "\"" }
        return """
            "Not generated: the root's own description."
            type Query {
              \(next())
              items("An argument's, not generated either." filter: Filter): [Item!]!
            }
            type Item {
              \(next())
              name: String!
              \(next())
              kind: Kind!
              stamp: Stamp
            }
            \(next())
            enum Kind {
              \(next())
              BOOK
              "Bidirectional text: \\u202Eevil\\u202C, \\u2066isolated\\u2069, a bell \\u0007, a NUL \\u0000."
              FILM
            }
            "\\r\\n}\\rextension Foundation.JSONDecoder { public static let injected = 1 }\\renum Again {"
            input Filter { \(next()) kind: Kind }
            "\\u0085}\\u0085let injectedInScalar = 1\\u0085"
            scalar Stamp
            """
    }

    static let operation = """
        query Items($filter: Filter) { items(filter: $filter) { name kind stamp } }
        """

    /// The compiler's parse of `swift`: every declaration's kind and name, in order.
    static func declarations(in swift: String) async throws -> (topLevel: [String], all: [String], errors: String) {
        let run = try await withFolder(holding: ["Generated.swift": swift]) { folder in
            let file = folder.appendingPathComponent("Generated.swift")
            return try await runProgram(
                URL(fileURLWithPath: "/usr/bin/env"), ["swiftc", "-dump-parse", file.path], in: folder)
        }
        let dump = run.output
        var topLevel: [String] = []
        var all: [String] = []
        for line in dump.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("("), let kind = trimmed.dropFirst().split(separator: " ").first,
                kind.hasSuffix("_decl"), kind != "pattern_binding_decl"
            else { continue }
            // The declaration's name is its first quoted word (an import's is its module).
            let name = trimmed.split(separator: "\"").dropFirst().first.map(String.init) ?? ""
            let entry = "\(kind) \(name)"
            all.append(entry)
            if line.count - trimmed.count == 2 { topLevel.append(entry) }
        }
        return (topLevel, all, run.status == 0 ? run.errors : "exit \(run.status): \(run.errors)")
    }

    @Test(
        "descriptions with CR, LF, CRLF, NEL, LS and PS stay comments: the compiler finds only the generated declarations"
    )
    func descriptionsStayComments() async throws {
        let output = try PrismGraphQLCodegen.generate(
            schema: CodegenInput(path: "schema.graphqls", text: Self.schema),
            operations: [CodegenInput(path: "Items.graphql", text: Self.operation)])
        let types = try await Self.declarations(in: output.schemaTypes)
        #expect(types.errors.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(types.errors)")
        #expect(types.topLevel.filter { !$0.hasPrefix("import_decl") } == ["enum_decl GraphQLSchema"])
        #expect(types.all.filter { $0.contains("njected") || $0.contains("Reopened") || $0.contains("Again") }.isEmpty)
        // The namespace holds the enum and the input, with what they declare.
        #expect(types.all.contains("enum_decl Kind"))
        #expect(types.all.contains("struct_decl Filter"))
        let items = try #require(output.files["Items.graphql"])
        let operation = try await Self.declarations(in: items)
        #expect(operation.errors.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(operation.errors)")
        #expect(operation.topLevel.filter { !$0.hasPrefix("import_decl") } == ["struct_decl ItemsQuery"])
        #expect(operation.all.filter { $0.contains("njected") || $0.contains("Reopened") }.isEmpty)
        // Each payload is still there, line by line, in the documentation.
        let everything = output.schemaTypes + items
        for terminator in Self.terminators {
            #expect(everything.contains("/// public enum InjectedBy\(terminator.name)"), "\(terminator.name)")
        }
        // Bidirectional controls, the bell and the NUL are written as escapes.
        #expect(
            output.schemaTypes.contains(
                #"/// Bidirectional text: \u{202e}evil\u{202c}, \u{2066}isolated\u{2069}, a bell \u{7}, a NUL \u{0}."#))
        let forbidden: Set<UInt32> = [0x0D, 0x85, 0x2028, 0x2029, 0x202E, 0x2066, 0x07, 0x00]
        #expect(!everything.unicodeScalars.contains { forbidden.contains($0.value) })
    }

    @Test("an introspection result whose names are not GraphQL names is refused, naming the name")
    func introspectionNames() throws {
        func introspection(typeName: String, fieldName: String) -> String {
            """
            {"data": {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": \(IntrospectionSDL.quoted(typeName)), "fields": [
                {"name": \(IntrospectionSDL.quoted(fieldName)), "args": [],
                 "type": {"kind": "SCALAR", "name": "String"}}]}]}}}
            """
        }
        for (typeName, fieldName) in [
            ("Query", "a: String }\ntype Evil { b"), ("Query {\n x: Int }\nscalar", "a"), ("Query", "9lives"),
            ("Qu\u{2028}ery", "a"), ("Query", ""),
        ] {
            do {
                let output = try PrismGraphQLCodegen.printSchema(
                    CodegenInput(path: "schema.json", text: introspection(typeName: typeName, fieldName: fieldName)))
                Issue.record("\(typeName).\(fieldName) was accepted: \(output)")
            } catch {
                let message = error.diagnostics.map(\.description).joined(separator: "\n")
                #expect(
                    message.contains("which is not a GraphQL name") || message.contains("has no name"), "\(message)")
            }
        }
        // A name that is one is accepted, and printed as SDL.
        let sdl = try PrismGraphQLCodegen.printSchema(
            CodegenInput(path: "schema.json", text: introspection(typeName: "Query", fieldName: "_ok9")))
        #expect(sdl.contains("type Query {\n  _ok9: String\n}"))
    }
}
