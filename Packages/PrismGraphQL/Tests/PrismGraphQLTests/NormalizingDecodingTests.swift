import Foundation
import Testing

@testable import PrismGraphQL

/// The normalizing client reads a response body with Prism's own JSON reader, not `JSONDecoder`
/// (28x faster for a 1,000-object answer, `make bench ARGS="--filter normalized"`): what it
/// makes of each body must be what `JSONDecoder` makes of it, errors included.
@Suite("The normalizing client's reading of a response body")
struct NormalizingDecodingTests {
    static let context = GraphQLResponseDecoding.Context(url: URL(string: "https://example.com/graphql")!)

    static let bodies: [String] = [
        #"{"data": {"item": {"__typename": "Item", "id": "1", "tags": ["a"], "price": 1.5, "n": null}}}"#,
        #"{"data": null, "errors": [{"message": "No task 9", "path": ["task"], "locations": [{"line": 1, "column": 3}]}]}"#,
        #"{"data": {"a": "b"}, "errors": null, "extensions": {"cost": {"requested": 3}}}"#,
        #"{"data": {"a": "b"}, "extensions": 5}"#,
        #"{"errors": [{"message": "syntax"}]}"#,
        #"{"extensions": {"cost": 1}}"#,
        #"{"data": {"a": "b"}, "errors": "not a list"}"#,
        #"{"data": {"a": "b"}, "errors": [{"no message": true}]}"#,
        #"[{"data": {}}]"#,
        #"{"data": {"a": "b"}"#,
        "",
        #"{"data": {"a": "\u00e9\ud83d\ude00"}}"#,
    ]

    @Test("the same data, errors, extensions, or the same error, as JSONDecoder", arguments: bodies)
    func sameAsJSONDecoder(body: String) {
        let fast = Result { () throws(PrismGraphQLError) in
            try GraphQLResponseDecoding.decode(NormalizingAnswer.self, from: Data(body.utf8), context: Self.context)
        }
        let reference = Result { () throws(PrismGraphQLError) in
            try GraphQLResponseDecoding.decode(PrismGraphQLValue.self, from: Data(body.utf8), context: Self.context)
        }
        switch (fast, reference) {
        case (.success(let fast), .success(let reference)):
            #expect(fast.data?.value == reference.data)
            #expect(fast.errors == reference.errors)
            #expect(fast.extensions == reference.extensions)
        case (.failure(let fast), .failure(let reference)):
            #expect(fast.code == reference.code)
            #expect(fast.message == reference.message)
        default:
            Issue.record("the reader gives \(fast), JSONDecoder \(reference)")
        }
    }

    @Test("numbers: 1.0 is read as a double (JSONDecoder's path: an int); a generated type decodes either")
    func integralDoubles() throws {
        struct Item: Decodable, Equatable {
            let count: Int
            let price: Double
        }
        let body = Data(#"{"data": {"count": 1.0, "price": 2}}"#.utf8)
        let fast = try GraphQLResponseDecoding.decode(NormalizingAnswer.self, from: body, context: Self.context)
        let reference = try GraphQLResponseDecoding.decode(PrismGraphQLValue.self, from: body, context: Self.context)
        #expect(fast.data?.value == ["count": .double(1), "price": .int(2)])
        #expect(reference.data == ["count": .int(1), "price": .int(2)])
        let decoded = try #require(fast.data?.value).decoded(as: Item.self)
        #expect(decoded == Item(count: 1, price: 2))
        #expect(try #require(reference.data).decoded(as: Item.self) == decoded)
    }

    @Test("a body in UTF-16 (with its byte order mark) is read by JSONDecoder, as before")
    func otherEncodings() throws {
        var body = Data([0xFF, 0xFE])
        for unit in #"{"data": {"a": "b"}}"#.utf16 {
            body.append(UInt8(unit & 0xFF))
            body.append(UInt8(unit >> 8))
        }
        let response = try GraphQLResponseDecoding.decode(NormalizingAnswer.self, from: body, context: Self.context)
        #expect(response.data?.value == ["a": "b"])
    }
}
