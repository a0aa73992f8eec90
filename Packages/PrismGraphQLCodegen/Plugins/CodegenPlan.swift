import Foundation

/// Which files of a target the generator reads, and the files it writes: shared by the build
/// tool plugin and the command plugin (a symbolic link in each plugin's folder).
struct CodegenPlan {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let schema: URL
    let config: URL?
    let operations: [URL]
    /// The names of the Swift files written (as `CodegenFileNames` in the generator computes them).
    let outputNames: [String]

    init(files: [URL], targetDirectory: URL, targetName: String) throws {
        let config = files.first { $0.lastPathComponent == "prism-graphql.json" }
        var configuredSchema: String?
        if let config, let data = try? Data(contentsOf: config),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        {
            configuredSchema = object["schema"] as? String
        }
        let schemas = files.filter { $0.pathExtension == "graphqls" || $0.lastPathComponent == "schema.json" }
        let schema: URL
        if let configuredSchema {
            schema = targetDirectory.appending(path: configuredSchema)
        } else if schemas.count == 1 {
            schema = schemas[0]
        } else if schemas.isEmpty {
            throw Failure(
                description: "\(targetName) has .graphql files but no schema: add schema.graphqls (SDL) or "
                    + "schema.json (an introspection result), or name it in prism-graphql.json.")
        } else {
            throw Failure(
                description:
                    "\(targetName) has several schemas (\(schemas.map(\.lastPathComponent).sorted().joined(separator: ", "))): "
                    + "name the one to use in prism-graphql.json (\"schema\").")
        }
        let operations = files.filter { $0.pathExtension == "graphql" }.sorted { $0.path() < $1.path() }
        self.schema = schema
        self.config = config
        self.operations = operations
        let base = targetDirectory.path(percentEncoded: false)
        let prefix = base.hasSuffix("/") ? base : base + "/"
        outputNames =
            operations.map { url in
                var relative = url.path(percentEncoded: false)
                if relative.hasPrefix(prefix) { relative.removeFirst(prefix.count) }
                return relative.split(separator: "/").joined(separator: "_") + ".swift"
            } + ["GraphQLSchemaTypes.swift"]
    }
}
