import Foundation
import Testing

/// The repository's own targets with `.graphql` files commit the code the generator makes (in
/// each one's `GraphQLGenerated`, written by `make graphql-generate`: the command plugin) rather
/// than apply the build tool plugin, whose tool every fresh clone's build would otherwise build
/// first. Each committed folder must be what the generator writes now from the target's files,
/// read and passed as the command plugin reads and passes them (`CodegenPlan`, which the plugins
/// share): else a change of the generator, a schema or an operation would go untested.
@Suite("Committed GraphQL code is what the generator writes now")
struct CommittedCodeTests {
    /// The repository's folder: this file is Packages/PrismGraphQLCodegen/Tests/PrismGraphQLCodegenTests/.
    static let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The targets of the root's manifest (Tools/Modules.toml) whose generated code is committed.
    static let targets = [
        "Packages/PrismGraphQLCodegen/Tests/PrismGraphQLGeneratedTests",
        "Packages/PrismGraphQLCodegen/Tests/PrismGraphQLLargeSchemaTests",
        "Apps/PrismSample/Sources/PrismSample",
    ]

    /// The names and contents of the files in `folder`.
    static func contents(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false)) {
            files[name] = try Data(contentsOf: folder.appending(path: name))
        }
        return files
    }

    @Test("each target's GraphQLGenerated holds exactly what the generator writes from its files", arguments: targets)
    func committedCodeIsCurrent(_ path: String) async throws {
        let directory = Self.repository.appending(path: path).standardizedFileURL
        let committed = try Self.contents(of: directory.appending(path: "GraphQLGenerated"))
        let name = directory.lastPathComponent
        let plan = try CodegenPlan(
            files: CodegenPlan.graphQLFiles(in: directory, skipping: "GraphQLGenerated"), targetDirectory: directory,
            targetName: name)
        try await withFolder { folder in
            let output = folder.appending(path: "GraphQLGenerated")
            let arguments = plan.committedCodeArguments(output: output, targetDirectory: directory)
            let run = try await runTool(arguments, in: folder)
            try #require(run.status == 0, "the generator failed for \(path): \(run.errors)")
            let written = try Self.contents(of: output)
            let fix = "run `make graphql-generate` and commit what it writes"
            #expect(
                Set(written.keys) == Set(committed.keys),
                "\(path)/GraphQLGenerated holds \(committed.keys.sorted()); the generator writes \(written.keys.sorted()): \(fix)"
            )
            let stale = written.keys.sorted().filter { committed[$0] != nil && committed[$0] != written[$0] }
            #expect(
                stale.isEmpty, "\(path)/GraphQLGenerated: \(stale) differ from what the generator writes now: \(fix)")
        }
    }
}
