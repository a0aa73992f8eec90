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
        // A `.graphql` file is a schema or operations by what it holds, not by its name: many
        // schemas are published as `schema.graphql` (GitHub's among them).
        let graphQLFiles = files.filter { $0.pathExtension == "graphql" }
        let typeDefinitionFiles = Set(graphQLFiles.filter { Self.holdsTypeDefinitions($0) })
        let schemas =
            files.filter { $0.pathExtension == "graphqls" || $0.lastPathComponent == "schema.json" }
            + typeDefinitionFiles.sorted { $0.path() < $1.path() }
        let schema: URL
        if let configuredSchema {
            schema = targetDirectory.appending(path: configuredSchema)
        } else if schemas.count == 1 {
            schema = schemas[0]
        } else if schemas.isEmpty {
            throw Failure(
                description: "\(targetName) has .graphql files but no schema: add schema.graphqls (SDL; a .graphql "
                    + "file that holds type definitions is read as a schema too) or schema.json (an introspection "
                    + "result), or name it in prism-graphql.json.")
        } else {
            throw Failure(
                description:
                    "\(targetName) has several schemas (\(schemas.map(\.lastPathComponent).sorted().joined(separator: ", "))): "
                    + "name the one to use in prism-graphql.json (\"schema\").")
        }
        // Every other `.graphql` file is operations; one that holds type definitions but is not
        // the schema fails in the generator, which says so once for the file.
        let schemaPath = schema.standardizedFileURL.path(percentEncoded: false)
        let operations = graphQLFiles.filter { $0.standardizedFileURL.path(percentEncoded: false) != schemaPath }
            .sorted { $0.path() < $1.path() }
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

    /// The arguments of `prism-graphql-codegen` that write this plan's code into `output`, with
    /// the operation manifest `operations.json` beside it, naming files relative to
    /// `targetDirectory`: what the command plugin runs, and what PrismGraphQLCodegenTests runs
    /// to check the code the repository commits.
    func committedCodeArguments(output: URL, targetDirectory: URL) -> [String] {
        var arguments = [
            "--schema", schema.path(percentEncoded: false), "--output", output.path(percentEncoded: false),
            "--relative-to", targetDirectory.path(percentEncoded: false),
            "--manifest", output.appending(path: "operations.json").path(percentEncoded: false),
        ]
        if let config { arguments += ["--config", config.path(percentEncoded: false)] }
        return arguments + operations.map { $0.path(percentEncoded: false) }
    }

    /// The GraphQL files (and `prism-graphql.json`) in a target's folder, read from the folder
    /// rather than from the target's sources: a target whose code is committed excludes them
    /// (`exclude:`), since SwiftPM would otherwise warn about files it does not handle.
    static func graphQLFiles(in directory: URL, skipping folder: String) -> [URL] {
        let skipped = directory.appending(path: folder).standardizedFileURL.path(percentEncoded: false)
        let names: Set<String> = ["prism-graphql.json", "schema.json"]
        let found = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = found?.nextObject() as? URL {
            let path = url.standardizedFileURL.path(percentEncoded: false)
            if path == skipped || path.hasPrefix(skipped + "/") { continue }
            if ["graphql", "graphqls"].contains(url.pathExtension) || names.contains(url.lastPathComponent) {
                files.append(url.standardizedFileURL)
            }
        }
        return files
    }

    /// Whether the GraphQL document in `file` starts with a type system definition (`type`,
    /// `schema`, `interface`, `enum`, `input`, `scalar`, `union`, `directive`, `extend`), after
    /// any comments and the definition's description: a schema, not operations (which start
    /// with `query`, `mutation`, `subscription`, `fragment` or `{`). An unreadable file is not.
    static func holdsTypeDefinitions(_ file: URL) -> Bool {
        guard let data = try? Data(contentsOf: file) else { return false }
        return firstKeyword(in: Array(data)).map(typeSystemKeywords.contains) ?? false
    }

    static let typeSystemKeywords: Set<String> = [
        "type", "schema", "interface", "enum", "input", "scalar", "union", "directive", "extend",
    ]

    /// The first name in `bytes` outside comments and strings (a description), or nil when
    /// the document starts with punctuation (`{`, a shorthand query) or is empty.
    static func firstKeyword(in bytes: [UInt8]) -> String? {
        var index = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                    index += 1
                }
            case UInt8(ascii: "\""):
                index = end(ofStringAt: index, in: bytes)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                var end = index
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                return String(decoding: bytes[index..<end], as: UTF8.self)
            default:
                return nil
            }
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// The index after the string (`"…"` with escapes, or `"""…"""` with `\"""`) that starts at
    /// `start`; the end of `bytes` when it is not closed.
    private static func end(ofStringAt start: Int, in bytes: [UInt8]) -> Int {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        if bytes[start...].starts(with: [quote, quote, quote]) {
            var index = start + 3
            while index < bytes.count {
                if bytes[index] == backslash, bytes[(index + 1)...].starts(with: [quote, quote, quote]) {
                    index += 4
                } else if bytes[index...].starts(with: [quote, quote, quote]) {
                    return index + 3
                } else {
                    index += 1
                }
            }
            return bytes.count
        }
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case backslash: index += 2
            case quote: return index + 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return index
            default: index += 1
            }
        }
        return bytes.count
    }
}
