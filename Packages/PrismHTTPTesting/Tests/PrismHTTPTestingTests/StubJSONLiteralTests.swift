import Foundation
import PrismHTTP
import PrismHTTPTesting
import Testing

/// A server's answer written in a test as it reads on the wire: a dictionary or array literal of
/// mixed values, or the JSON text itself. (A mixed literal used to make the compiler fail with
/// "failed to produce diagnostic"; there was no way to give the text.)
@Suite("Stubbed JSON written as literals and as text")
struct StubJSONLiteralTests {
    struct User: Decodable, Equatable {
        var id: Int
        var name: String
        var admin: Bool
        var score: Double
        var nickname: String?
        var tags: [String]
        var address: Address
    }

    struct Address: Decodable, Equatable {
        var city: String
        var zip: Int
    }

    /// What the client gets for GET /me from `response`.
    static func fetch(_ response: PrismStubResponse) async throws -> PrismHTTPResponse {
        let stub = PrismStubTransport()
        stub.on(.get, "/me", respond: response)
        let client = PrismNetworkAdapter(transport: stub, cache: nil)
        return try await client.send(PrismHTTPRequest(url: URL(string: "https://api.example.com/me")!))
    }

    static let expectedUser = User(
        id: 7, name: "Ada", admin: true, score: 2.5, nickname: nil, tags: ["math", "engines"],
        address: Address(city: "London", zip: 1815))

    @Test("a literal of mixed values, nested and with nil for null, decodes as the server's JSON would")
    func mixedDictionary() async throws {
        let response = try await Self.fetch(
            .json([
                "id": 7, "name": "Ada", "admin": true, "score": 2.5, "nickname": nil,
                "tags": ["math", "engines"], "address": ["city": "London", "zip": 1815],
            ]))
        #expect(response.statusCode == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(try JSONDecoder().decode(User.self, from: response.body) == Self.expectedUser)
    }

    @Test("an array literal of mixed values is a JSON array")
    func mixedArray() async throws {
        let response = try await Self.fetch(.json([1, "two", false, nil, [3.5, ["deep": true]]]))
        #expect(String(decoding: response.body, as: UTF8.self) == #"[1,"two",false,null,[3.5,{"deep":true}]]"#)
    }

    @Test("strings are escaped as JSON requires: quotes, backslashes, control characters; the rest as written")
    func escaping() async throws {
        let tricky = "quote \" backslash \\ newline \n tab \t bell \u{07} é 🚀"
        let response = try await Self.fetch(.json(["text": .string(tricky), tricky: 1]))
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(object["text"] as? String == tricky)
        #expect(object[tricky] as? Int == 1)
    }

    @Test("a literal of one Encodable type and an Encodable value still go through the JSONEncoder")
    func homogeneousLiteralsStayEncodable() async throws {
        struct Point: Encodable, Sendable { var x: Int }
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        let numbers = try await Self.fetch(.json(["b": 2, "a": 1], encoder: sorted))
        #expect(String(decoding: numbers.body, as: UTF8.self) == #"{"a":1,"b":2}"#)
        let point = try await Self.fetch(.json(Point(x: 3)))
        #expect(String(decoding: point.body, as: UTF8.self) == #"{"x":3}"#)
    }

    @Test("a number JSON has no form for fails the request with encodingFailed, naming where it is")
    func notJSON() async throws {
        let error = await #expect(throws: PrismHTTPError.self) {
            try await Self.fetch(.json(["user": ["scores": [1.0, .double(.infinity)]]]))
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.message.contains("'user.scores[1]' is inf") == true)
    }

    @Test("JSON text is sent as written, with the JSON content type unless the test gives another")
    func text() async throws {
        let text =
            #"{"id": 7, "name": "Ada", "admin": true, "score": 2.5, "nickname": null,"#
            + #" "tags": ["math", "engines"], "address": {"city": "London", "zip": 1815}}"#
        let response = try await Self.fetch(.json(text: text, statusCode: 201))
        #expect(response.statusCode == 201)
        #expect(response.body == Data(text.utf8))
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(try JSONDecoder().decode(User.self, from: response.body) == Self.expectedUser)

        let problem = try await Self.fetch(
            .json(text: #"{"type": "about:blank"}"#, headers: ["Content-Type": "application/problem+json"]))
        #expect(problem.headers["Content-Type"] == "application/problem+json")
    }

    @Test("text that is not JSON fails the request with encodingFailed instead of reaching the decoder")
    func textNotJSON() async throws {
        for text in [#"{"id": 7"#, #"{'id': 7}"#, #"{"id": 7} trailing"#, ""] {
            let error = await #expect(throws: PrismHTTPError.self, "\(text)") {
                try await Self.fetch(.json(text: text))
            }
            #expect(error?.code == .encodingFailed)
            #expect(error?.message.contains("not JSON") == true)
        }
    }
}
