import Foundation

/// What a target's `prism-graphql.json` says (every member optional):
///
/// ```json
/// {
///   "schema": "schema.graphqls",
///   "scalars": { "DateTime": "Foundation.Date", "URI": "Foundation.URL" },
///   "keyFields": { "User": ["login"], "Repository": ["owner", "name"] },
///   "defaultKeyFields": ["id"],
///   "accessLevel": "public",
///   "schemaNamespace": "GitHub",
///   "testMocks": true
/// }
/// ```
///
/// | Member | Default | Meaning |
/// | --- | --- | --- |
/// | `schema` | the target's one `.graphqls` file, or its `schema.json` | the schema: SDL, or an introspection result as JSON |
/// | `scalars` | every custom scalar is `String`, but `Upload`, which is `PrismGraphQLUpload` | the Swift type of a custom scalar (`Decodable`, `Encodable`, `Hashable`, `Sendable`) |
/// | `keyFields` | none | the fields that identify an object of a type, added to every selection of it |
/// | `defaultKeyFields` | `["id"]` | the key fields of a type `keyFields` does not name, added when the type has them all |
/// | `accessLevel` | `internal` | `public` for types an app's other modules use |
/// | `schemaNamespace` | `GraphQLSchema` | the enum that holds the schema's enums, input objects and custom scalars |
/// | `testMocks` | `false` | a `static func mock(…)` on every generated data type, each member defaulted (`""`, 0, nil, `[]`, the first enum value, a nested mock): data for a test or a preview that names only what it is about |
public struct CodegenConfiguration: Decodable, Sendable, Hashable {
    /// The access level of generated declarations.
    public enum AccessLevel: String, Decodable, Sendable, Hashable {
        case `internal`
        case `public`
    }

    /// The schema file, relative to the target; nil: the target's one schema.
    public var schema: String?
    /// Custom scalar name → Swift type.
    public var scalars: [String: String]
    /// Type name → its key fields.
    public var keyFields: [String: [String]]
    /// The key fields of types `keyFields` does not name.
    public var defaultKeyFields: [String]
    /// The access level of what is generated.
    public var accessLevel: AccessLevel
    /// The enum that holds the schema's types.
    public var schemaNamespace: String
    /// Whether every generated data type has a `mock(…)` with every member defaulted.
    public var testMocks: Bool

    /// A configuration; every argument defaults as the table above says.
    public init(
        schema: String? = nil, scalars: [String: String] = [:], keyFields: [String: [String]] = [:],
        defaultKeyFields: [String] = ["id"], accessLevel: AccessLevel = .internal,
        schemaNamespace: String = "GraphQLSchema", testMocks: Bool = false
    ) {
        self.schemaNamespace = schemaNamespace
        self.testMocks = testMocks
        self.schema = schema
        self.scalars = scalars
        self.keyFields = keyFields
        self.defaultKeyFields = defaultKeyFields
        self.accessLevel = accessLevel
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case schema, scalars, keyFields, defaultKeyFields, accessLevel, schemaNamespace, testMocks
    }

    /// Reads a configuration, each missing member at its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try container.decodeIfPresent(String.self, forKey: .schema)
        scalars = try container.decodeIfPresent([String: String].self, forKey: .scalars) ?? [:]
        keyFields = try container.decodeIfPresent([String: [String]].self, forKey: .keyFields) ?? [:]
        defaultKeyFields = try container.decodeIfPresent([String].self, forKey: .defaultKeyFields) ?? ["id"]
        accessLevel = try container.decodeIfPresent(AccessLevel.self, forKey: .accessLevel) ?? .internal
        schemaNamespace = try container.decodeIfPresent(String.self, forKey: .schemaNamespace) ?? "GraphQLSchema"
        testMocks = try container.decodeIfPresent(Bool.self, forKey: .testMocks) ?? false
    }

    /// Reads `data`, the contents of `file`: an unknown member or a value of the wrong type is
    /// an error at the file (a typo must not be ignored).
    public static func load(_ data: Data, file: String) throws(CodegenFailure) -> CodegenConfiguration {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw CodegenFailure([CodegenDiagnostic(file: file, line: 1, column: 1, message: "Not JSON: \(error)")])
        }
        guard let members = object as? [String: Any] else {
            throw CodegenFailure([CodegenDiagnostic(file: file, line: 1, column: 1, message: "Expected a JSON object.")]
            )
        }
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        let unknown = members.keys.filter { !known.contains($0) }.sorted()
        if !unknown.isEmpty {
            throw CodegenFailure([
                CodegenDiagnostic(
                    file: file, line: 1, column: 1,
                    message: "Unknown member(s) \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); "
                        + "known: \(known.sorted().joined(separator: ", ")).")
            ])
        }
        do {
            return try JSONDecoder().decode(CodegenConfiguration.self, from: data)
        } catch {
            throw CodegenFailure([
                CodegenDiagnostic(file: file, line: 1, column: 1, message: "Cannot read the configuration: \(error)")
            ])
        }
    }
}
