import Foundation
import Testing

@testable import PrismGraphQLCodegen

/// The operations whose generated Swift is checked in under `Expected/`, one file each, with the
/// schema's types and the manifest: a change to what is generated shows as a diff there.
/// `PRISM_UPDATE_EXPECTED=1 swift test --filter ExpectedOutputTests` rewrites them.
let expectedOperations = [
    "Search.graphql": """
    # A union: a case per type condition, and unknown for a type added later.
    query Search($text: String!) {
      search(text: $text) {
        ... on Book { title genre }
        ... on Author { name }
      }
    }
    """,
    "Node.graphql": """
    # An interface with a fragment spread on one of its types.
    query Node($id: ID!) {
      node(id: $id) {
        ...BookCard
      }
    }

    fragment BookCard on Book {
      title
      pages
      isbn
      author { name books(first: 2) { title } }
    }
    """,
    "AddBook.graphql": """
    mutation AddBook($input: BookInput!) {
      addBook(input: $input) { title genre }
    }
    """,
]

@Suite("The generated Swift of a few operations, checked in as expected output")
struct ExpectedOutputTests {
    static let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Expected")

    static func output() throws -> [String: String] {
        let generated = try generate(expectedOperations)
        var files = Dictionary(
            uniqueKeysWithValues: generated.files.map {
                ($0.key.replacingOccurrences(of: ".graphql", with: ""), $0.value)
            })
        files["GraphQLSchemaTypes"] = generated.schemaTypes
        files["operations.json"] = generated.manifest
        return files
    }

    @Test(
        "each file is as checked in", arguments: ["Search", "Node", "AddBook", "GraphQLSchemaTypes", "operations.json"])
    func matches(name: String) throws {
        let generated = try #require(try Self.output()[name])
        let file = Self.folder.appending(path: name.hasSuffix(".json") ? name : name + ".swift.expected")
        if ProcessInfo.processInfo.environment["PRISM_UPDATE_EXPECTED"] == "1" {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(generated.utf8).write(to: file)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        let generatedLines = generated.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(generatedLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            generated == expected,
            "\(name) differs from Expected/\(file.lastPathComponent) at line \((first?.offset ?? min(generatedLines.count, expectedLines.count)) + 1)"
        )
    }

    @Test("the checked-in Swift of a 20-field selection, its initializer included, stays near 60 lines")
    func size() throws {
        let fields = (1...20).map { "f\($0)" }
        let schema = CodegenInput(
            path: "wide.graphqls",
            text:
                "type Query { wide: Wide }\ntype Wide { id: ID! \(fields.map { "\($0): String" }.joined(separator: " ")) }"
        )
        let operation = "query Wide {\n  wide {\n" + fields.map { "    \($0)\n" }.joined() + "  }\n}\n"
        let generated = try PrismGraphQLCodegen.generate(
            schema: schema, operations: [CodegenInput(path: "Wide.graphql", text: operation)],
            configuration: CodegenConfiguration())
        let lines = try #require(generated.files["Wide.graphql"]).split(separator: "\n").count
        #expect(lines <= 65, "a 20-field selection generated \(lines) lines")
    }
}
