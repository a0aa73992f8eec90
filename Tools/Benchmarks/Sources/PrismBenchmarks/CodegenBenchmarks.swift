// The GraphQL code generator (issue 35): generating for 100 operations against a 1 MB schema,
// beside the same schema with one operation (what reading and validating the schema costs).
// Bar: under 2 s.
import Foundation
import PrismGraphQLCodegen

/// The large schema's test folder: its schema (1 MB) and operations.
private let largeSchemaFolder = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appending(path: "Packages/PrismGraphQLCodegen/Tests/PrismGraphQLLargeSchemaTests")

/// `copies` copies of the folder's operation files, each copy's operations and fragments renamed
/// (`CatalogChain` → `CatalogChain2`) so that they can all be generated together.
func codegenOperations(copies: Int) throws -> [CodegenInput] {
    let files = try FileManager.default.contentsOfDirectory(atPath: largeSchemaFolder.path(percentEncoded: false))
        .filter { $0.hasSuffix(".graphql") }.sorted()
    let definition = try NSRegularExpression(
        pattern: #"^(query|mutation|subscription|fragment) (\w+)"#, options: .anchorsMatchLines)
    let spread = try NSRegularExpression(pattern: #"\.\.\.(?!\s*on\b)(\w+)"#)
    var inputs: [CodegenInput] = []
    for copy in 0..<copies {
        for file in files {
            let text = try String(contentsOf: largeSchemaFolder.appending(path: file), encoding: .utf8)
            let whole = NSRange(text.startIndex..., in: text)
            var renamed = definition.stringByReplacingMatches(in: text, range: whole, withTemplate: "$1 $2\(copy)")
            renamed = spread.stringByReplacingMatches(
                in: renamed, range: NSRange(renamed.startIndex..., in: renamed), withTemplate: "...$1\(copy)")
            inputs.append(CodegenInput(path: "\(copy)/\(file)", text: renamed))
        }
    }
    return inputs
}

@MainActor
func codegenBenchmarks() throws -> [Result] {
    guard selected("codegen") else { return [] }
    let schemaFile = largeSchemaFolder.appending(path: "schema.graphqls")
    let schema = CodegenInput(path: "schema.graphqls", text: try String(contentsOf: schemaFile, encoding: .utf8))
    let one = try codegenOperations(copies: 1)
    let operationsPerCopy = one.reduce(0) { count, file in
        count
            + file.text.split(separator: "\n").filter {
                $0.hasPrefix("query ") || $0.hasPrefix("mutation ") || $0.hasPrefix("subscription ")
            }.count
    }
    let copies = (100 + operationsPerCopy - 1) / operationsPerCopy
    let many = try codegenOperations(copies: copies)
    let single = [CodegenInput(path: "One.graphql", text: "query One($id: ID!) { catalogItem(id: $id) { name } }")]
    var lines = 0
    let (candidate, baseline) = measurePair(operations: 1, repetitions: 3) {
        let output = try! PrismGraphQLCodegen.generate(
            schema: schema, operations: many, configuration: CodegenConfiguration())
        lines = output.files.values.reduce(0) { $0 + $1.split(separator: "\n").count }
    } against: {
        blackHole(
            try! PrismGraphQLCodegen.generate(schema: schema, operations: single, configuration: CodegenConfiguration())
        )
    }
    return [
        Result(
            name: "codegen: \(operationsPerCopy * copies) operations, \(schema.text.utf8.count / 1_000) KB schema",
            timing: candidate,
            baselineName: "the same schema, one operation",
            baseline: baseline,
            bar: .atMostNanoseconds(2e9),
            note: String(
                format: "%.2f s; %d lines of Swift for the operations, %.0f per operation",
                candidate.nanosecondsPerOperation / 1e9,
                lines, Double(lines) / Double(operationsPerCopy * copies))
        )
    ]
}
