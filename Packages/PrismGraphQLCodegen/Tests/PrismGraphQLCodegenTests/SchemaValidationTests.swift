import Foundation
import Testing

@testable import PrismGraphQLCodegen

/// What the generator says of a schema that is not valid SDL: each problem at its line and
/// column in graphql-js's words, before anything is generated.
@Suite("An invalid schema is refused with each problem at its place")
struct SchemaValidationTests {
    static func problems(_ sdl: String) -> [String] {
        do {
            _ = try PrismGraphQLCodegen.generate(
                schema: CodegenInput(path: "schema.graphqls", text: sdl),
                operations: [CodegenInput(path: "Q.graphql", text: "query Q { a }")])
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test("a type or a directive defined twice is an error; a repeated field, enum value or argument a warning")
    func duplicates() {
        let sdl = """
            type Query { a: Int b: Int a: String }
            type Query { c: Int }
            enum E { X Y X }
            type T { f(x: Int, x: Int): Int }
            directive @d(y: Int, y: Int) on FIELD
            directive @d on FIELD
            extend type T { f: Int }
            """
        let repeats = " The server's schema repeats it: the first definition is used."
        #expect(
            Self.problems(sdl) == [
                #"schema.graphqls:1:28: warning: Field "Query.a" can only be defined once."# + repeats,
                #"schema.graphqls:2:6: error: Invalid schema: There can be only one type named "Query"."#,
                #"schema.graphqls:3:14: warning: Enum value "E.X" can only be defined once."# + repeats,
                #"schema.graphqls:4:20: warning: Argument "T.f(x:)" can only be defined once."# + repeats,
                #"schema.graphqls:5:22: warning: Argument "@d(y:)" can only be defined once."# + repeats,
                #"schema.graphqls:6:12: error: Invalid schema: There can be only one directive named "@d"."#,
                #"schema.graphqls:7:17: warning: Field "T.f" can only be defined once."# + repeats,
            ])
    }

    @Test(
        "a schema that repeats fields, enum values and arguments (as GitHub's does) generates: the first wins, each repeat a warning at its place"
    )
    func repeatedDefinitionsGenerate() throws {
        let sdl = """
            type Query {
              "The first."
              a: Int
              b(x: Int, x: String): Int
              "Repeated, with another type: left out."
              a: String
              e: E
            }
            enum E { X Y X }
            extend type Query { b: Int }
            """
        let output = try PrismGraphQLCodegen.generate(
            schema: CodegenInput(path: "schema.graphqls", text: sdl),
            operations: [CodegenInput(path: "Q.graphql", text: "query Q { a b(x: 1) e }")])
        let repeats = " The server's schema repeats it: the first definition is used."
        #expect(
            output.warnings.map(\.description) == [
                #"schema.graphqls:4:13: warning: Argument "Query.b(x:)" can only be defined once."# + repeats,
                #"schema.graphqls:6:3: warning: Field "Query.a" can only be defined once."# + repeats,
                #"schema.graphqls:9:14: warning: Enum value "E.X" can only be defined once."# + repeats,
                #"schema.graphqls:10:21: warning: Field "Query.b" can only be defined once."# + repeats,
            ])
        let swift = try #require(output.files["Q.graphql"])
        #expect(swift.contains("let a: Swift.Int?"), "the first definition's type")
        #expect(!swift.contains("a: Swift.String"))
        // An operation that relies on the left-out definition is invalid, at its place.
        #expect(throws: CodegenFailure.self) {
            try PrismGraphQLCodegen.generate(
                schema: CodegenInput(path: "schema.graphqls", text: sdl),
                operations: [CodegenInput(path: "Q.graphql", text: #"query Q { b(x: "text") }"#)])
        }
    }

    @Test("an unknown type, with the names it may have meant")
    func unknownTypes() {
        let sdl = """
            type Query { user: Usr items: [Itme!]! search: Result }
            type User { id: ID! }
            type Item { id: ID! }
            union Result = User | Missing
            """
        #expect(
            Self.problems(sdl) == [
                #"schema.graphqls:1:20: error: Invalid schema: Unknown type "Usr". Did you mean "User"?"#,
                #"schema.graphqls:1:32: error: Invalid schema: Unknown type "Itme". Did you mean "Item"?"#,
                #"schema.graphqls:4:23: error: Invalid schema: Unknown type "Missing"."#,
            ])
    }

    @Test("two schema definitions, and an operation type named twice")
    func schemaDefinitions() {
        let sdl = """
            schema { query: Query query: Query }
            schema { query: Query }
            type Query { a: Int }
            """
        #expect(
            Self.problems(sdl) == [
                #"schema.graphqls:1:23: error: Invalid schema: There can be only one query type in schema."#,
                #"schema.graphqls:2:1: error: Invalid schema: Must provide only one schema definition."#,
                #"schema.graphqls:2:10: error: Invalid schema: There can be only one query type in schema."#,
            ])
    }

    @Test("a syntax error in the schema is at its place")
    func syntax() {
        let problems = Self.problems("type Query {\n  a: Int\n  b Int\n}\n")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("schema.graphqls:3:5: error: Invalid schema: Syntax Error") == true)
    }

    @Test("suggestions are graphql-js's: within a third of the name, a change of case counts as one")
    func suggestions() {
        #expect(Suggestions.closest(to: "usr", among: ["User", "Issue", "Uses"]) == ["User", "Uses"])
        #expect(Suggestions.closest(to: "Itme", among: ["Item", "Team"]) == ["Item"])
        #expect(Suggestions.didYouMean(["A", "B", "C"]) == #" Did you mean "A", "B", or "C"?"#)
        #expect(Suggestions.editDistance(Array("ab"), Array("ba")) == 1)
    }
}
