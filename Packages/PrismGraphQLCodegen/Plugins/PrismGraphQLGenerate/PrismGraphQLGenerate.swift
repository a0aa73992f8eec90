import Foundation
import PackagePlugin

/// `swift package generate-graphql [--target NAME]... [--output FOLDER]`: the build tool plugin's
/// generator, run once, writing into the package for projects that commit generated code (the
/// default folder is each target's `GraphQLGenerated`), with the operation manifest
/// `operations.json` beside the Swift files.
///
/// A target whose generated code is committed must not also use the build tool plugin: its
/// types would be declared twice. The plugin reads the GraphQL files from the target's folder,
/// so such a target can exclude them from its sources (`exclude:`).
@main
struct PrismGraphQLGenerate: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let folder = extractor.extractOption(named: "output").last ?? "GraphQLGenerated"
        if !extractor.remainingArguments.isEmpty {
            throw CodegenPlan.Failure(
                description: "Unknown arguments: \(extractor.remainingArguments.joined(separator: " ")).")
        }
        let targets = try names.isEmpty ? context.package.targets : context.package.targets(named: names)
        let tool = try context.tool(named: "prism-graphql-codegen").url
        var generated = 0
        for case let target as SourceModuleTarget in targets {
            let files = CodegenPlan.graphQLFiles(in: target.directoryURL, skipping: folder)
            guard files.contains(where: { $0.pathExtension == "graphql" }) else { continue }
            let plan = try CodegenPlan(files: files, targetDirectory: target.directoryURL, targetName: target.name)
            let output = target.directoryURL.appending(path: folder)
            let process = Process()
            process.executableURL = tool
            process.arguments = plan.committedCodeArguments(output: output, targetDirectory: target.directoryURL)
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw CodegenPlan.Failure(description: "prism-graphql-codegen failed for \(target.name) (see above).")
            }
            print(
                "Generated \(plan.operations.count) GraphQL file(s) of \(target.name) into \(output.path(percentEncoded: false))."
            )
            generated += 1
        }
        if generated == 0 { print("No target with .graphql files.") }
    }
}
