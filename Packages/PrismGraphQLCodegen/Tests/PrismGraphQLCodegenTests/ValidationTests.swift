import Foundation
import Testing

@testable import PrismGraphQLCodegen

/// A small schema with what the rules are about: interfaces, unions, enums, input objects,
/// arguments, a subscription.
let librarySchema = CodegenInput(
    path: "Schema/library.graphqls",
    text: """
        "A thing with an identity."
        interface Node { id: ID! }
        type Author implements Node { id: ID! name: String! books(first: Int = 10): [Book!]! }
        type Book implements Node {
          id: ID!
          title: String!
          "How many pages."
          pages: Int
          author: Author!
          genre: Genre
          isbn: String @deprecated(reason: "Use identifiers.")
          identifiers: [String!]!
        }
        type Magazine { issue: Int! title: String! }
        union SearchResult = Book | Author | Magazine
        enum Genre { FICTION SCIENCE_FICTION POETRY OLD_STYLE @deprecated(reason: "Merged into FICTION.") }
        input BookInput { title: String! pages: Int genre: Genre tags: [String!] author: AuthorInput }
        input AuthorInput { name: String! }
        scalar DateTime
        type Query {
          book(id: ID!): Book
          search(text: String!): [SearchResult!]!
          node(id: ID!): Node
          now: DateTime!
        }
        type Mutation { addBook(input: BookInput!): Book! }
        type Subscription { bookAdded: Book! clock: DateTime! }
        """)

func generate(_ files: [String: String], configuration: CodegenConfiguration = CodegenConfiguration())
    throws(CodegenFailure) -> CodegenOutput
{
    try PrismGraphQLCodegen.generate(
        schema: librarySchema,
        operations: files.sorted { $0.key < $1.key }.map { CodegenInput(path: $0.key, text: $0.value) },
        configuration: configuration)
}

/// The diagnostics of `files`, as printed (`file:line:column: error: message`).
func diagnostics(_ files: [String: String]) -> [String] {
    do {
        _ = try generate(files)
        return []
    } catch {
        return error.diagnostics.map(\.description)
    }
}

@Suite(
    "Operations are validated against the schema with every rule of the specification, at their file, line and column")
struct ValidationTests {
    @Test("a field the type does not have is an error at its line and column, in the specification's words")
    func unknownField() {
        let found = diagnostics([
            "Books/Book.graphql": """
            query GetBook($id: ID!) {
              book(id: $id) {
                title
                subtitle
              }
            }
            """
        ])
        #expect(
            found == [
                #"Books/Book.graphql:4:5: error: Cannot query field "subtitle" on type "Book". Did you mean "title"?"#
            ])
    }

    @Test("a syntax error is an error at its place")
    func syntax() {
        let found = diagnostics(["A.graphql": "query A {\n  book(id: \"1\") { title \n}\n"])
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("A.graphql:4:1: error: Syntax error:") == true)
    }

    @Test("a variable that is not defined, one not used, and a wrong argument type are each reported")
    func variables() {
        let found = diagnostics([
            "A.graphql": """
            query A($unused: Int) {
              book(id: $missing) { title }
              node(id: 3.5) { id }
            }
            """
        ])
        #expect(found.contains { $0.contains(#"Variable "$missing" is not defined by operation "A"."#) })
        #expect(found.contains { $0.contains(#"Variable "$unused" is never used in operation "A"."#) })
        #expect(found.contains { $0.hasPrefix("A.graphql:3:12: error:") && $0.contains("ID") })
    }

    @Test("a fragment in another file is known; one on a type it cannot apply to is an error")
    func fragmentsAcrossFiles() {
        let valid = diagnostics([
            "Fragments.graphql": "fragment BookFields on Book { title pages }",
            "Query.graphql": "query GetBook { book(id: \"1\") { ...BookFields } }",
        ])
        #expect(valid == [])
        let found = diagnostics([
            "Fragments.graphql": "fragment BookFields on Book { title }\nfragment Unused on Author { name }",
            "Query.graphql": "query GetMagazine { search(text: \"x\") { ... on Magazine { ...BookFields } } }",
        ])
        // A fragment no operation spreads is generated for use on its own (see validate).
        #expect(!found.contains { $0.contains("is never used") }, "\(found)")
        #expect(
            found.contains {
                $0.hasPrefix("Query.graphql:1:59: error:")
                    && $0.contains(#"Fragment "BookFields" cannot be spread here"#)
            }, "\(found)")
    }

    @Test("a fragment that no operation spreads is generated on its own, and sent with none")
    func standaloneFragment() throws {
        let output = try generate([
            "Fragments.graphql": "fragment AuthorName on Author { name }",
            "Query.graphql": "query GetBook { book(id: \"1\") { title } }",
        ])
        let fragments = try #require(output.files["Fragments.graphql"])
        #expect(fragments.contains("struct AuthorName: PrismGraphQLFragment {"))
        #expect(!(output.files["Query.graphql"] ?? "").contains("fragment AuthorName"))
    }

    @Test("a subscription selects exactly one root field, and not an introspection one (5.2.3.1)")
    func singleRootField() {
        let two = diagnostics(["S.graphql": "subscription Updates {\n  bookAdded { title }\n  clock\n}"])
        #expect(two == [#"S.graphql:3:3: error: Subscription "Updates" must select only one top level field."#])
        let spread = diagnostics([
            "S.graphql": "subscription Updates { ...Both }\nfragment Both on Subscription { bookAdded { id } clock }"
        ])
        #expect(spread.contains { $0.contains("must select only one top level field") })
        let introspection = diagnostics(["S.graphql": "subscription Types { __typename }"])
        #expect(
            introspection == [
                #"S.graphql:1:22: error: Subscription "Types" must not select an introspection top level field."#
            ])
        #expect(diagnostics(["S.graphql": "subscription Added { bookAdded { title } }"]) == [])
    }

    @Test("two fields under one response key must merge (5.3.2): same field, same arguments, same shape")
    func fieldSelectionMerging() {
        let differentFields = diagnostics(["A.graphql": "query A { book(id: \"1\") { name: title name: isbn } }"])
        #expect(
            differentFields == [
                #"A.graphql:1:39: error: Fields "name" conflict because "title" and "isbn" are different fields. Use different aliases on the fields to fetch both if this was intentional."#
            ])
        let arguments = diagnostics([
            "A.graphql":
                "query A { node(id: \"1\") { ... on Author { books(first: 1) { id } books(first: 2) { id } } } }"
        ])
        #expect(arguments.count == 1)
        #expect(arguments.first?.contains(#"Fields "books" conflict because they have differing arguments."#) == true)
        // On two different object types the same key may be two fields, if the shapes agree.
        let shapes = diagnostics([
            "A.graphql":
                "query A { search(text: \"x\") { ... on Book { value: pages } ... on Magazine { value: title } } }"
        ])
        #expect(
            shapes.first?.contains(
                #"Fields "value" conflict because they return conflicting types "Int" and "String!""#)
                == true)
        let compatible = diagnostics([
            "A.graphql":
                "query A { search(text: \"x\") { ... on Book { label: title } ... on Magazine { label: title } } }"
        ])
        #expect(compatible == [])
        let nested = diagnostics([
            "A.graphql": "query A { book(id: \"1\") { author { name } author { name: id } } }"
        ])
        #expect(
            nested.first?.contains(
                #"Fields "author" conflict because subfields "name" conflict because "name" and "id" are different fields."#
            )
                == true)
    }

    @Test("an operation without a name, and two generated types of one name, are errors")
    func naming() {
        #expect(
            diagnostics(["A.graphql": "{ now }"]) == [
                "A.graphql:1:1: error: An operation needs a name to be generated: its Swift type is named after it."
            ])
        let clash = diagnostics([
            "A.graphql": "query Books { now }\nquery BooksQuery { now }"
        ])
        #expect(
            clash == [
                #"A.graphql:2:1: error: The Swift type BooksQuery of operation "BooksQuery" is already that of operation "Books"."#
            ])
    }

    @Test("an invalid schema is an error in the schema file")
    func invalidSchema() {
        do {
            _ = try PrismGraphQLCodegen.generate(
                schema: CodegenInput(path: "bad.graphqls", text: "type Query { a: Missing }"),
                operations: [CodegenInput(path: "A.graphql", text: "query A { a }")])
            Issue.record("An invalid schema was accepted")
        } catch {
            #expect(error.diagnostics.first?.file == "bad.graphqls")
            #expect(error.diagnostics.first?.message.contains("Missing") == true)
        }
    }
}

@Suite("SHA-256 of the operation manifest")
struct SHA256Tests {
    @Test("the FIPS 180-4 examples")
    func vectors() {
        #expect(SHA256.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(of: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(of: String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
