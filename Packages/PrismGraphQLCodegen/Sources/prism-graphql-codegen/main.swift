import Foundation
import PrismGraphQLCodegen

/// `prism-graphql-codegen`: what the build tool plugin and the command plugin run.
///
///     prism-graphql-codegen --schema FILE [--config FILE] --output DIR [--manifest FILE]
///                           [--relative-to DIR] FILE.graphql...
///
/// Writes, in `--output`, one `.swift` file per `.graphql` file (named by its path under
/// `--relative-to`, `/` written `_`: ``CodegenFileNames``) and `GraphQLSchemaTypes.swift`; and
/// the operation manifest where `--manifest` says. A file whose contents would not change is not
/// rewritten. Problems are printed as `file:line:column: error: message` and the exit status is 1.
struct Arguments {
    var schema: String?
    var config: String?
    var output: String?
    var manifest: String?
    var relativeTo: String?
    var printSchema = false
    var inputs: [String] = []

    static let usage = """
        usage: prism-graphql-codegen --schema FILE [--config FILE] --output DIR [--manifest FILE] \
        [--relative-to DIR] FILE.graphql...
               prism-graphql-codegen --schema FILE --print-schema   (the schema as SDL: converts an \
        introspection result)
        """

    init(_ arguments: [String]) throws(CodegenFailure) {
        var index = 0
        func value(_ option: String) throws(CodegenFailure) -> String {
            index += 1
            guard index < arguments.count else {
                throw CodegenFailure([CodegenDiagnostic(file: nil, message: "\(option) needs a value.\n\(Self.usage)")])
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--schema": schema = try value(argument)
            case "--config": config = try value(argument)
            case "--output": output = try value(argument)
            case "--manifest": manifest = try value(argument)
            case "--relative-to": relativeTo = try value(argument)
            case "--print-schema": printSchema = true
            case "--help", "-h":
                print(Self.usage)
                exit(0)
            default:
                if argument.hasPrefix("--") {
                    throw CodegenFailure([
                        CodegenDiagnostic(file: nil, message: "Unknown option \(argument).\n\(Self.usage)")
                    ])
                }
                inputs.append(argument)
            }
            index += 1
        }
        guard schema != nil, output != nil || printSchema else {
            throw CodegenFailure([
                CodegenDiagnostic(file: nil, message: "--schema and --output are required.\n\(Self.usage)")
            ])
        }
    }
}

func read(_ path: String) throws(CodegenFailure) -> String {
    do {
        return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        throw CodegenFailure([
            CodegenDiagnostic(file: path, message: "Cannot read the file: \(error.localizedDescription)")
        ])
    }
}

/// Writes `contents` to `path` unless the file holds them already (so nothing rebuilds).
func write(_ contents: String, to path: String) throws(CodegenFailure) {
    if let existing = try? String(contentsOfFile: path, encoding: .utf8), existing == contents { return }
    do {
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
    } catch {
        throw CodegenFailure([
            CodegenDiagnostic(file: path, message: "Cannot write the file: \(error.localizedDescription)")
        ])
    }
}

func run() throws(CodegenFailure) {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    if arguments.printSchema, let schemaPath = arguments.schema {
        print(
            try PrismGraphQLCodegen.printSchema(CodegenInput(path: schemaPath, text: try read(schemaPath))),
            terminator: "")
        return
    }
    guard let schemaPath = arguments.schema, let output = arguments.output else { return }
    var configuration = CodegenConfiguration()
    if let config = arguments.config {
        configuration = try CodegenConfiguration.load(Data(try read(config).utf8), file: config)
    }
    let schema = CodegenInput(path: schemaPath, text: try read(schemaPath))
    var inputs: [CodegenInput] = []
    for path in arguments.inputs { inputs.append(CodegenInput(path: path, text: try read(path))) }
    let generated = try PrismGraphQLCodegen.generate(schema: schema, operations: inputs, configuration: configuration)
    for warning in generated.warnings {
        FileHandle.standardError.write(Data((warning.description + "\n").utf8))
    }
    do {
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    } catch {
        throw CodegenFailure([CodegenDiagnostic(file: output, message: "Cannot create the folder: \(error)")])
    }
    let base = arguments.relativeTo ?? FileManager.default.currentDirectoryPath
    for input in inputs {
        let name = CodegenFileNames.swiftFile(forInput: input.path, relativeTo: base)
        try write(generated.files[input.path] ?? "", to: output + "/" + name)
    }
    try write(generated.schemaTypes, to: output + "/" + CodegenFileNames.schemaTypes)
    if let manifest = arguments.manifest { try write(generated.manifest, to: manifest) }
}

do {
    try run()
} catch {
    for diagnostic in error.diagnostics {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }
    exit(1)
}
