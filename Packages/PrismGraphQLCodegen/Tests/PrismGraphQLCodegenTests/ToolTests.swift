import Foundation
import PrismTestSupport
import Testing

@testable import PrismGraphQLCodegen

/// A class of this test target's own, for `Bundle(for:)`.
private final class BundleMarker {}

/// `prism-graphql-codegen`, built next to the test bundle (every build of the package builds it):
/// `Bundle(for:)` is the products folder on Linux, `<products>/<name>.xctest` on Apple platforms.
let codegenTool: URL = {
    let bundle = Bundle(for: BundleMarker.self).bundleURL.resolvingSymlinksInPath()
    let candidates = [bundle, bundle.deletingLastPathComponent()].map {
        $0.appendingPathComponent("prism-graphql-codegen")
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
}()

struct ToolRun: Sendable {
    let status: Int32
    let output: String
    let errors: String
}

/// Runs the tool with `arguments` in `folder` and waits for it.
func runTool(_ arguments: [String], in folder: URL) async throws -> ToolRun {
    try await runProgram(codegenTool, arguments, in: folder)
}

/// Runs `executable` with `arguments` in `folder` and waits for it, on a thread of its own: a
/// test that blocks one of the two threads Swift concurrency runs every test on stalls the tests
/// beside it (their servers among them) for as long as the child runs, which on a busy machine
/// was long enough for their timeouts to fire.
func runProgram(_ executable: URL, _ arguments: [String], in folder: URL) async throws -> ToolRun {
    try await offTheCooperativePool {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = folder.appendingPathComponent("tool-output.txt")
        let errors = folder.appendingPathComponent("tool-errors.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return ToolRun(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }
}

/// Makes a temporary folder holding `files` (each a path in the folder, with the folders it is in,
/// and its text), runs `body` with it, and removes it whatever happens.
func withFolder<T>(holding files: [String: String] = [:], _ body: (URL) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prism-codegen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for (path, text) in files {
        let file = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }
    return try await body(folder)
}

@Suite("prism-graphql-codegen, the program the plugins run")
struct ToolTests {
    @Test("an invalid operation: exit status 1 and each problem as file:line:column: error:, the form builds show")
    func diagnostics() async throws {
        let files = [
            "schema.graphqls": librarySchema.text,
            "Queries/Book.graphql": "query GetBook {\n  book(id: \"1\") { titel }\n}\n",
        ]
        try await withFolder(holding: files) { folder in
            let query = folder.appendingPathComponent("Queries/Book.graphql")
            let run = try await runTool(["--schema", "schema.graphqls", "--output", "out", query.path], in: folder)
            #expect(run.status == 1)
            #expect(
                run.errors
                    == "\(query.path):2:19: error: Cannot query field \"titel\" on type \"Book\". Did you mean \"title\"?\n"
            )
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
        }
    }

    @Test(
        "a schema that repeats a field: exit status 0, the Swift written, and a warning at the repeat, as builds show it"
    )
    func warnings() async throws {
        let files = ["schema.graphqls": "type Query {\n  a: Int\n  a: Int\n}\n", "Q.graphql": "query Q { a }\n"]
        try await withFolder(holding: files) { folder in
            let run = try await runTool(["--schema", "schema.graphqls", "--output", "out", "Q.graphql"], in: folder)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.errors.hasPrefix(#"schema.graphqls:3:3: warning: Field "Query.a" can only be defined once."#))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/Q.graphql.swift").path))
        }
    }

    @Test(
        "a valid target: a Swift file per .graphql file, the schema's types and the manifest; unchanged files are not rewritten"
    )
    func outputs() async throws {
        let files = [
            "schema.graphqls": librarySchema.text,
            "Queries/Book.graphql": "query GetBook($id: ID!) { book(id: $id) { title genre } }",
            "AddBook.graphql": "mutation AddBook($input: BookInput!) { addBook(input: $input) { title } }",
        ]
        try await withFolder(holding: files) { folder in
            let arguments = [
                "--schema", "schema.graphqls", "--output", "out", "--manifest", "out/operations.json", "--relative-to",
                folder.path, folder.appendingPathComponent("Queries/Book.graphql").path,
                folder.appendingPathComponent("AddBook.graphql").path,
            ]
            let first = try await runTool(arguments, in: folder)
            #expect(first.status == 0, "\(first.errors)")
            let out = folder.appendingPathComponent("out")
            let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            #expect(
                names == [
                    "AddBook.graphql.swift", "GraphQLSchemaTypes.swift", "Queries_Book.graphql.swift",
                    "operations.json",
                ])
            let book = try String(contentsOf: out.appendingPathComponent("Queries_Book.graphql.swift"), encoding: .utf8)
            #expect(book.contains("struct GetBookQuery: PrismGraphQLQueryOperation {"))
            let types = try String(contentsOf: out.appendingPathComponent("GraphQLSchemaTypes.swift"), encoding: .utf8)
            #expect(types.contains("enum Genre: PrismGraphQLEnum {"))
            #expect(types.contains("struct BookInput: Encodable, Sendable, Hashable {"))

            let manifest =
                try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("operations.json")))
                as? [String: Any]
            #expect(manifest?["format"] as? String == "apollo-persisted-query-manifest")
            let operations = manifest?["operations"] as? [[String: Any]] ?? []
            #expect(operations.map { $0["name"] as? String } == ["AddBook", "GetBook"])
            for operation in operations {
                let body = try #require(operation["body"] as? String)
                #expect(operation["id"] as? String == SHA256.hex(of: body))
            }
            #expect(
                operations.last?["body"] as? String
                    == "query GetBook($id: ID!) { book(id: $id) { __typename id title genre } }")

            let addBook = out.appendingPathComponent("AddBook.graphql.swift").path
            let written = try FileManager.default.attributesOfItem(atPath: addBook)[.modificationDate] as? Date
            try await Task.sleep(for: .seconds(1.1))
            let second = try await runTool(arguments, in: folder)
            #expect(second.status == 0)
            let again = try FileManager.default.attributesOfItem(atPath: addBook)[.modificationDate] as? Date
            #expect(written == again)
        }
    }

    @Test("--print-schema writes an introspection result as SDL; bad arguments are refused with the usage")
    func printSchemaAndUsage() async throws {
        let introspection = """
            {"data":{"__schema":{"queryType":{"name":"Query"},"mutationType":null,"subscriptionType":null,
            "types":[{"kind":"OBJECT","name":"Query","description":"The root.","fields":[{"name":"hello","description":null,
            "args":[{"name":"name","description":null,"type":{"kind":"SCALAR","name":"String","ofType":null},"defaultValue":"\\"you\\""}],
            "type":{"kind":"NON_NULL","name":null,"ofType":{"kind":"SCALAR","name":"String","ofType":null}},"isDeprecated":false,
            "deprecationReason":null}],"inputFields":null,"interfaces":[],"enumValues":null,"possibleTypes":null},
            {"kind":"SCALAR","name":"String","description":"","fields":null,"inputFields":null,"interfaces":null,"enumValues":null,
            "possibleTypes":null}],"directives":[]}}}
            """
        try await withFolder(holding: ["schema.json": introspection]) { folder in
            let run = try await runTool(["--schema", "schema.json", "--print-schema"], in: folder)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output == "\"\"\"The root.\"\"\"\ntype Query {\n  hello(name: String = \"you\"): String!\n}\n")
            let refused = try await runTool(["--schema"], in: folder)
            #expect(refused.status == 1)
            #expect(refused.errors.contains("--schema needs a value."))
            #expect(refused.errors.contains("usage: prism-graphql-codegen"))
            let unknown = try await runTool(["--schema", "schema.json", "--output", "o", "--verbose"], in: folder)
            #expect(unknown.errors.contains("Unknown option --verbose."))
        }
    }
}
