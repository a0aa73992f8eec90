import Foundation
import Testing

@testable import PrismGraphQLCodegen

@Suite(
    "What the schema deprecates is deprecated in Swift, or a warning at the document's place where Swift cannot mark it"
)
struct DeprecationTests {
    static let schema = CodegenInput(
        path: "schema.graphqls",
        text: """
            enum Sort { NEWEST OLDEST STARS @deprecated(reason: "Stars are hidden.") }
            input Filter {
              "Words to find."
              text: String
              language: String @deprecated(reason: "Use languages.")
              languages: [String!]
              owner: String!
              legacy: LegacyInput @deprecated
            }
            input LegacyInput { sort: Sort old: Int @deprecated(reason: "Gone.") }
            type Repo { name: String! }
            type Query {
              repos(filter: Filter, first: Int @deprecated(reason: "Use last."), last: Int, sort: Sort): [Repo!]!
            }
            """)

    static func generate(_ operation: String) throws -> CodegenOutput {
        try PrismGraphQLCodegen.generate(
            schema: schema, operations: [CodegenInput(path: "Q.graphql", text: operation)])
    }

    @Test("a deprecated argument, input field or enum value written in a document is a warning at its place")
    func writtenInTheDocument() throws {
        let output = try Self.generate(
            """
            query Q {
              repos(first: 3, sort: STARS, filter: {owner: "a", language: "swift",
                legacy: {old: 1, sort: NEWEST}}) { name }
            }
            """)
        #expect(
            output.warnings.map(\.description) == [
                #"Q.graphql:2:9: warning: The argument "first" of "Query.repos" is deprecated: Use last."#,
                #"Q.graphql:2:25: warning: The enum value "Sort.STARS" is deprecated: Stars are hidden."#,
                #"Q.graphql:2:53: warning: The field "Filter.language" is deprecated: Use languages."#,
                #"Q.graphql:3:5: warning: The field "Filter.legacy" is deprecated: No longer supported"#,
                #"Q.graphql:3:14: warning: The field "LegacyInput.old" is deprecated: Gone."#,
            ])
    }

    @Test("what is not deprecated, and variables, give no warning")
    func notDeprecated() throws {
        let output = try Self.generate(
            """
            query Q($filter: Filter, $sort: Sort) {
              repos(last: 3, sort: $sort, filter: $filter) { name }
              other: repos(sort: OLDEST, filter: {owner: "a", languages: ["swift"]}) { name }
            }
            """)
        #expect(output.warnings.isEmpty, "\(output.warnings)")
    }

    @Test(
        "a deprecated input field is a deprecated property, left out of the initializer; a deprecated initializer sets it"
    )
    func inputFields() throws {
        let output = try Self.generate(#"query Q($filter: Filter) { repos(filter: $filter) { name } }"#)
        let swift = output.schemaTypes
        #expect(
            swift.contains(
                """
                        /// Deprecated: Use languages.
                        @available(*, deprecated, message: "Use languages.")
                        var language: PrismGraphQLNullable<Swift.String> {
                            get { _language }
                            set { _language = newValue }
                        }
                        private var _language: PrismGraphQLNullable<Swift.String> = .absent
                """))
        #expect(
            swift.contains(
                #"private enum CodingKeys: Swift.String, CodingKey { case text, _language = "language", languages, owner, _legacy = "legacy" }"#
            ))
        // The schema's order, without the deprecated fields; then all of them, deprecated.
        #expect(
            swift.contains(
                "init(text: PrismGraphQLNullable<Swift.String> = .absent, languages: PrismGraphQLNullable<[Swift.String]> = .absent, owner: Swift.String) {"
            ))
        #expect(
            swift.contains(
                """
                        @available(*, deprecated, message: "Sets deprecated input fields: `language`, `legacy`.")
                        init(text: PrismGraphQLNullable<Swift.String> = .absent, language: PrismGraphQLNullable<Swift.String>, languages: PrismGraphQLNullable<[Swift.String]> = .absent, owner: Swift.String, legacy: PrismGraphQLNullable<GraphQLSchema.LegacyInput>) {
                """))
    }
}
