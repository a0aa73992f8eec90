import Foundation
import PrismHTTP
import Testing

@testable import PrismGraphQL

/// The POST body is assembled from remembered parts; it must be byte for byte what the
/// sorted-keys encoder writes for the whole body, or cache keys and persisted-query hashes move.
@Suite("A GraphQL POST body assembled from parts is the encoder's, byte for byte")
struct RequestBodyTests {
    struct Input: Encodable, Sendable {
        var title: String
        var tags: [String]
    }

    static let documents = [
        "query GetUser($login: String!) { user(login: $login) { login name } }",
        "{ me }",
        "query Q { a(text: \"quote \\\" backslash \\\\ slash / tab\t newline\n é 🦊 \u{1}\") }",
        "",
    ]

    @Test("every combination of document, name, variables and persisted-query hash", arguments: documents)
    func sameBytes(document: String) throws {
        let url = URL(string: "https://example.com/graphql")!
        let encoder = PrismJSON.makeEncoder()
        let variableSets: [PrismGraphQLQuery.Variables] = [
            .members([:]), .members(["login": "octocat", "count": 3, "flag": true]),
            .value(Input(title: "a \"b\"", tags: ["x", "/y"])),
        ]
        for query in [document, nil] {
            for name in ["GetUser", "na\"me", nil] {
                for variables in variableSets {
                    for hash in ["abc123", nil] {
                        let body = GraphQLRequestBody(
                            query: query, operationName: name, variables: variables, persistedQueryHash: hash)
                        // Twice: once filling the memo, once from it.
                        for _ in 0..<2 {
                            #expect(
                                try body.encoded(url: url) == encoder.encode(body),
                                "\(String(describing: query)) \(String(describing: name))")
                        }
                    }
                }
            }
        }
    }
}
