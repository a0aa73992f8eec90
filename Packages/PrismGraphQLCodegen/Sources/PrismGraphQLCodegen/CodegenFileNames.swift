/// The names of the files the generator writes: the plugins compute the same (they cannot use
/// this module), so the rule is kept this simple.
///
/// | Input | Output |
/// | --- | --- |
/// | `Queries/User.graphql` under the target's folder | `Queries_User.graphql.swift` |
/// | the schema's types | `GraphQLSchemaTypes.swift` |
public enum CodegenFileNames {
    /// The file with the schema's enums, input objects and custom scalars.
    public static let schemaTypes = "GraphQLSchemaTypes.swift"

    /// The Swift file of `path`: its path under `base` with `/` written `_`, then `.swift`.
    public static func swiftFile(forInput path: String, relativeTo base: String) -> String {
        var relative = path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        if relative.hasPrefix(prefix) { relative.removeFirst(prefix.count) }
        return relative.split(separator: "/").joined(separator: "_") + ".swift"
    }
}
