import Foundation
import Testing

@testable import PrismGraphQLCodegen

/// A target's `.graphql` files are told apart by what they hold: the plugins take one holding
/// type definitions as the schema (GitHub publishes its schema as `schema.graphql`), and the
/// generator says once, at the first type, that a schema given as operations is one.
@Suite("A schema is told from operations by what the file holds, not by its name")
struct SchemaOrOperationsTests {
    /// A folder with `files` in it, removed after `body`.
    func withTarget<T>(_ files: [String: String], _ body: (URL, [URL]) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("prism-codegen-plan-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var urls: [URL] = []
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            urls.append(url)
        }
        return try body(folder, urls)
    }

    @Test("schema.graphql beside operations is the schema, the others are operations")
    func schemaNamedGraphQL() throws {
        let plan = try withTarget([
            "schema.graphql":
                "\u{FEFF}# GitHub's schema, as published\n\"\"\"\nA \"repository\".\n\"\"\"\ntype Repository { id: ID! }\n",
            "Queries/GetRepository.graphql": "# comment\nquery GetRepository { viewer { id } }\n",
            "Short.graphql": "{ viewer { id } }\n",
            "Fragments.graphql": "\"not a description\" fragment F on Repository { id }\n",
        ]) { folder, files in
            try CodegenPlan(files: files, targetDirectory: folder, targetName: "App")
        }
        #expect(plan.schema.lastPathComponent == "schema.graphql")
        #expect(
            plan.operations.map(\.lastPathComponent).sorted() == [
                "Fragments.graphql", "GetRepository.graphql", "Short.graphql",
            ])
        #expect(plan.outputNames.contains("Queries_GetRepository.graphql.swift"))
        #expect(!plan.outputNames.contains("schema.graphql.swift"))
    }

    @Test("every kind of type system definition, and extensions, make a schema")
    func keywords() {
        for keyword in ["type", "schema", "interface", "enum", "input", "scalar", "union", "directive", "extend"] {
            #expect(CodegenPlan.firstKeyword(in: Array("  ,\n\"d \\\" q\" \(keyword) X".utf8)) == keyword)
        }
        #expect(CodegenPlan.firstKeyword(in: Array("\"\"\"a \\\"\"\" b\"\"\" query Q { a }".utf8)) == "query")
        #expect(CodegenPlan.firstKeyword(in: Array("".utf8)) == nil)
        #expect(CodegenPlan.firstKeyword(in: Array("# only a comment".utf8)) == nil)
        #expect(CodegenPlan.firstKeyword(in: Array("{ a }".utf8)) == nil)
    }

    @Test("two schemas, one by its extension and one by its content, are an error naming both")
    func twoSchemas() throws {
        let failure = try withTarget([
            "schema.graphqls": "type Query { a: Int }",
            "schema.graphql": "type Query { b: Int }",
            "Q.graphql": "query Q { a }",
        ]) { folder, files in
            #expect(throws: CodegenPlan.Failure.self) {
                try CodegenPlan(files: files, targetDirectory: folder, targetName: "App")
            }
        }
        #expect(failure?.description.contains("several schemas (schema.graphql, schema.graphqls)") == true)
        // Named in prism-graphql.json, the other schema is passed on as operations, where the
        // generator says what it is (below).
        let plan = try withTarget([
            "schema.graphqls": "type Query { a: Int }",
            "other.graphql": "type Query { b: Int }",
            "Q.graphql": "query Q { a }",
            "prism-graphql.json": #"{ "schema": "schema.graphqls" }"#,
        ]) { folder, files in
            try CodegenPlan(files: files, targetDirectory: folder, targetName: "App")
        }
        #expect(plan.schema.lastPathComponent == "schema.graphqls")
        #expect(plan.operations.map(\.lastPathComponent) == ["Q.graphql", "other.graphql"])
    }

    @Test("a schema given to the generator as operations is one error at its first type, not one per type")
    func schemaAsOperations() {
        let types = (0..<500).map { "type T\($0) { id: ID! }" }.joined(separator: "\n")
        let found = diagnostics([
            "Operations/GetBook.graphql": "query GetBook { book(id: \"1\") { title } }",
            "Vendor/schema.graphql": "# the vendor's schema\n" + types,
        ])
        #expect(found.count == 1)
        #expect(
            found.first?.hasPrefix("Vendor/schema.graphql:2:1: error: schema.graphql holds type definitions") == true)
    }
}
