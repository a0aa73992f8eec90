import Foundation
import Testing

@testable import PrismGraphQLCodegen

/// An inline fragment whose type covers every type its parent can be always applies: its fields
/// are the parent's, even when the parent (a union, an interface) does not define them itself.
/// They were left out of the generated type, without a word.
@Suite("Fields of an inline fragment that always applies are never dropped")
struct CoveringFragmentTests {
    static let schema = CodegenInput(
        path: "schema.graphqls",
        text: """
            interface Node { id: ID! }
            interface Starrable { stargazerCount: Int! }
            interface Actor { login: String! }
            type User implements Node & Actor { id: ID! login: String! }
            type Bot implements Node & Actor { id: ID! login: String! }
            type Repository implements Node & Starrable { id: ID! stargazerCount: Int! name: String! }
            type Gist implements Node & Starrable { id: ID! stargazerCount: Int! }
            union Starred = Repository | Gist
            type Query { starred: [Starred!]! author: Actor }
            """)

    /// The Swift for `operation`, with no key field added (so that `id` is there only when selected).
    static func generated(_ operation: String) throws -> String {
        var configuration = CodegenConfiguration()
        configuration.defaultKeyFields = []
        let output = try PrismGraphQLCodegen.generate(
            schema: schema, operations: [CodegenInput(path: "Q.graphql", text: operation)],
            configuration: configuration)
        return try #require(output.files["Q.graphql"])
    }

    @Test("a union whose members are all Starrable: `... on Starrable { stargazerCount }` is a property of each item")
    func unionMembersAllCovered() throws {
        let swift = try Self.generated("query Q { starred { ... on Starrable { stargazerCount } } }")
        #expect(swift.contains("let stargazerCount: Swift.Int"), "\(swift)")
    }

    @Test("an interface whose implementations are all Nodes: `... on Node { id }` beside `login`")
    func interfaceImplementationsAllCovered() throws {
        let swift = try Self.generated("query Q { author { login ... on Node { id } } }")
        #expect(swift.contains("let login: Swift.String"), "\(swift)")
        #expect(swift.contains("let id: "), "\(swift)")
        // Nested: a fragment without a type condition inside the covering one keeps its scope.
        let nested = try Self.generated(
            "query Q { starred { ... on Starrable { ... @include(if: true) { stargazerCount } } } }")
        #expect(nested.contains("stargazerCount"), "\(nested)")
    }

    @Test("every field a document selects is a property of the generated type (a walk over the selections)")
    func everySelectedFieldIsExposed() throws {
        let operation = """
            query Q {
              starred { __typename ... on Starrable { stargazerCount } ... on Node { id } ... on Repository { name } }
              author { login ... on Node { id } ... on User { id } }
            }
            """
        let swift = try Self.generated(operation)
        // Every field name in the document (outside the type conditions) has a property.
        let names = ["stargazerCount", "id", "name", "login"]
        for name in names {
            #expect(swift.contains("let \(name): "), "no property for \(name):\n\(swift)")
        }
    }
}
