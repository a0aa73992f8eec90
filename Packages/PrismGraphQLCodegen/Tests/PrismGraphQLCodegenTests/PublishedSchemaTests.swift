import Foundation
import Testing

@testable import PrismGraphQLCodegen

/// What the schemas big servers publish carry, each in a few lines: GitHub's (a repeated field,
/// a deprecated field implementing an interface field that is not), Shopify's Storefront API
/// (a root named `QueryRoot`, its own directives used in operations, an interface implementing
/// an interface), GitLab's (deprecated arguments and input fields with defaults, an input object
/// default that leaves fields out, an enum default in lower case). Tried on the published files
/// themselves (octokit/graphql-schema, Shopify/js-buy-sdk's schema.json, GitLab's
/// gitlab_schema.graphql): each generates, and `--print-schema` prints each.
@Suite("The schemas real servers publish generate and print")
struct PublishedSchemaTests {
    static let sdl = """
        schema { query: QueryRoot mutation: Mutation }

        "Marks an element as restricted."
        directive @accessRestricted(reason: String = null) on FIELD_DEFINITION | OBJECT
        directive @inContext(country: CountryCode, buyer: BuyerInput) on QUERY | MUTATION

        scalar Time @specifiedBy(url: "https://example.com/time?\\"quoted\\"")
        scalar JSON
        enum CountryCode { CA US }
        enum AlertDomain { operations threat_monitoring }
        input BuyerInput { token: String! }
        input ViolationFilter { projectIds: [ID!] mergedBefore: Time details: JSON }
        input CreateIssueInput {
          title: String!
          "Deprecated, with a default."
          weight: Int = 0 @deprecated(reason: "Use `weightWidget`.")
          labels: [String!] = []
        }

        interface Node { id: ID! }
        interface BaseCartLine implements Node { id: ID! quantity: Int! }
        type CartLine implements BaseCartLine & Node { id: ID! quantity: Int! }
        interface Starrable { stargazerCount: Int! }
        type Repository implements Node & Starrable {
          id: ID!
          stargazerCount: Int! @deprecated(reason: "Use `stars`.")
          stars: Int!
          name: String!
          name: String
        }

        "The root \\"query\\" type, as Shopify names it."
        type QueryRoot {
          node(id: ID!): Node
          repository(name: String!): Repository @accessRestricted
          alerts(domain: AlertDomain! = operations, filters: ViolationFilter = {}): [String!]!
          issues(
            "Deprecated, with a default."
            sort: String = "id_asc" @deprecated(reason: "Sorts by id.")
            since: Time
          ): [String!]!
          lines: [BaseCartLine!]!
        }
        type Mutation { createIssue(input: CreateIssueInput!): String }
        """

    static let operations = """
        query Everything($since: Time) @inContext(country: CA) {
          node(id: "1") { id ... on Repository { name stargazerCount } }
          repository(name: "prism") { ... on Starrable { stargazerCount } stars }
          alerts
          issues(since: $since)
          lines { id quantity ... on CartLine { __typename } }
        }
        mutation Create($input: CreateIssueInput!) @inContext(buyer: {token: "t"}) { createIssue(input: $input) }
        """

    @Test("each imperfection generates: one warning for the repeated field, none for the rest")
    func generates() throws {
        let output = try PrismGraphQLCodegen.generate(
            schema: CodegenInput(path: "schema.graphqls", text: Self.sdl),
            operations: [CodegenInput(path: "Ops.graphql", text: Self.operations)])
        #expect(
            output.warnings.map(\.description) == [
                #"schema.graphqls:29:3: warning: Field "Repository.name" can only be defined once."#
                    + " The server's schema repeats it: the first definition is used."
            ])
        let swift = try #require(output.files["Ops.graphql"])
        #expect(swift.contains("@inContext(country: CA)"), "the operation's text is sent as written")
        #expect(swift.contains("let name: Swift.String"), "the first definition of Repository.name")
        #expect(output.schemaTypes.contains("weight"))
    }

    @Test("--print-schema prints each default as written, and what it prints reads back as the same schema")
    func prints() throws {
        let printed = try PrismGraphQLCodegen.printSchema(CodegenInput(path: "schema.graphqls", text: Self.sdl))
        for expected in [
            "alerts(domain: AlertDomain! = operations, filters: ViolationFilter = {}): [String!]!",
            #"sort: String = "id_asc" @deprecated(reason: "Sorts by id.")"#,
            #"weight: Int = 0 @deprecated(reason: "Use `weightWidget`.")"#, "labels: [String!] = []",
            #"directive @accessRestricted(reason: String = null) on FIELD_DEFINITION | OBJECT"#,
            #"scalar Time @specifiedBy(url: "https://example.com/time?\"quoted\"")"#,
            "interface BaseCartLine implements Node {",
            "schema {\n  query: QueryRoot\n  mutation: Mutation\n}",
            #"""The root "query" type, as Shopify names it."""#,
        ] {
            #expect(printed.contains(expected), "\(expected)\n---\n\(printed)")
        }
        let again = try PrismGraphQLCodegen.printSchema(CodegenInput(path: "printed.graphqls", text: printed))
        #expect(again == printed)
    }

    @Test("a description a block string would change is printed quoted; one ending in a quote on lines of its own")
    func descriptions() throws {
        let sdl = """
            type Query {
              "Ends with \\"quoted\\""
              a: Int
              "  leading spaces, a\\r\\nCRLF and a tab\\tinside"
              b: Int
              "line one\\n  indented\\n  both"
              c: Int
              "ends with a backslash \\\\"
              d: Int
            }
            """
        let printed = try PrismGraphQLCodegen.printSchema(CodegenInput(path: "s.graphqls", text: sdl))
        #expect(printed.contains("  \"\"\"\n  Ends with \"quoted\"\n  \"\"\"\n  a: Int"), "\(printed)")
        #expect(printed.contains(#"  "  leading spaces, a\r\nCRLF and a tab\tinside""#), "\(printed)")
        #expect(printed.contains(#"  "line one\n  indented\n  both""#), "\(printed)")
        let again = try PrismGraphQLCodegen.printSchema(CodegenInput(path: "printed.graphqls", text: printed))
        #expect(again == printed)
    }

    @Test("which descriptions a block string holds unchanged")
    func readsBack() {
        #expect(SchemaPrinter.readsBackFromBlock("One line."))
        #expect(SchemaPrinter.readsBackFromBlock("Two\nlines, the second not indented."))
        #expect(!SchemaPrinter.readsBackFromBlock("\nleading line break"))
        #expect(!SchemaPrinter.readsBackFromBlock("trailing blank line\n  "))
        #expect(!SchemaPrinter.readsBackFromBlock("first\n  every other line\n  indented"))
        #expect(!SchemaPrinter.readsBackFromBlock("a\rb"))
        #expect(SchemaPrinter.readsBackFromBlock(""))
    }
}
