import Foundation
import PackagePlugin

/// Generates Swift for a target's `.graphql` files at build time: every operation validated
/// against the target's schema, a type per operation and fragment, the schema's enums, input
/// objects and custom scalars (see the PrismGraphQL catalog, "Generating types").
///
/// The target holds the schema (`schema.graphqls`, another `.graphqls` file, or `schema.json`,
/// an introspection result), its `.graphql` files, and optionally `prism-graphql.json`.
@main
struct PrismGraphQLCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map(\.url)
        let plan = try CodegenPlan(files: files, targetDirectory: target.directoryURL, targetName: target.name)
        guard !plan.operations.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        var arguments = [
            "--schema", plan.schema.path(percentEncoded: false), "--output", output.path(percentEncoded: false),
            "--relative-to", target.directoryURL.path(percentEncoded: false),
        ]
        if let config = plan.config { arguments += ["--config", config.path(percentEncoded: false)] }
        arguments += [
            "--manifest", context.pluginWorkDirectoryURL.appending(path: "operations.json").path(percentEncoded: false),
        ]
        arguments += plan.operations.map { $0.path(percentEncoded: false) }
        return [
            .buildCommand(
                displayName: "Generating GraphQL types for \(target.name)",
                executable: try context.tool(named: "prism-graphql-codegen").url,
                arguments: arguments,
                inputFiles: [plan.schema] + (plan.config.map { [$0] } ?? []) + plan.operations,
                outputFiles: plan.outputNames.map { output.appending(path: $0) }
            )
        ]
    }
}
