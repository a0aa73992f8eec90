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
            .members(["b": "x", "a": -7, "c": false, "d": PrismGraphQLValue.null]),
            .members(["text": "quote \" backslash \\ slash / controls \u{0}\u{1}\u{8}\u{c}\u{1f}\t\n\r é 🦊 \u{2028}"]),
            .members([
                "input": PrismGraphQLValue.object([
                    "title": .string("t"), "tags": .array([.string("a"), .int(1), .bool(true), .null]),
                    "nested": .object(["deep": .array([])]),
                ])
            ]),
            // Each needs the encoder: a fraction, capitals, digits, an underscore, a date.
            .members(["ratio": 0.5]), .members(["Zeta": 1, "alpha": 2]), .members(["a10": 1, "a2": 2]),
            .members(["first_name": "x", "firstname": "y"]), .members(["when": Date(timeIntervalSince1970: 0)]),
            .members(["value": PrismGraphQLValue.double(1.25)]),
            .value(Input(title: "a \"b\"", tags: ["x", "/y"])),
            // A dictionary literal of one type goes to the generic initializer as one value.
            .value(["login": "octocat", "about": "a \"b\" /c"]), .value(["count": 3, "limit": 10]),
            .value([String: String]()), .value(["Zeta": "x"]), .value(["maybe": String?.none]),
            .value(["maybe": String?.some("x")]), .value(["text": "a \"b\" \\ /c \u{1}\t\n é 🦊"]),
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

    @Test("plain variables skip the encoder; a fraction, capitals, digits, underscores or a date do not")
    func fastPathIsTaken() {
        #expect(FastJSON.object(["login": "octocat", "count": 3, "flag": true]) != nil)
        #expect(FastJSON.object(["input": PrismGraphQLValue.object(["tags": .array([.string("a"), .null])])]) != nil)
        #expect(FastJSON.object([:]) == nil)
        #expect(FastJSON.object(["ratio": 0.5]) == nil)
        #expect(FastJSON.object(["Zeta": 1]) == nil)
        #expect(FastJSON.object(["a2": 1]) == nil)
        #expect(FastJSON.object(["first_name": "x"]) == nil)
        #expect(FastJSON.object(["when": Date(timeIntervalSince1970: 0)]) == nil)
        #expect(FastJSON.object(of: ["login": "octocat"]) != nil)
        #expect(FastJSON.object(of: ["count": 3]) != nil)
        #expect(FastJSON.object(of: Input(title: "t", tags: [])) == nil)
        #expect(FastJSON.object(of: ["maybe": String?.none]) == nil)
    }
}
