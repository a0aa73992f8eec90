import Foundation
import PrismTestServer
import PrismTestSupport
import Testing

@testable import PrismHTTP

/// `application/x-www-form-urlencoded` bodies: the encoder's written rules, a parser that is not
/// Prism's reading what it wrote (Python's `urllib.parse`, in a child process), and the body as
/// the test server receives it.
@Suite("Form bodies: application/x-www-form-urlencoded from an Encodable")
struct FormBodyTests {
    struct Address: Encodable {
        var city: String
        var zip: String?
    }

    struct Order: Encodable {
        var name: String
        var quantity: Int
        var price: Double
        var gift: Bool
        var note: String?
        var tags: [String]
        var address: Address
    }

    static let order = Order(
        name: "Ada L.", quantity: 2, price: 9.5, gift: true, note: nil, tags: ["a b", "c&d"],
        address: Address(city: "Zürich", zip: nil))

    @Test("names sorted, nil left out, nesting in brackets, arrays with [], spaces as +, the rest %XX")
    func defaultRules() throws {
        let text = try PrismFormEncoder().encodedString(Self.order)
        #expect(
            text
                == "address%5Bcity%5D=Z%C3%BCrich&gift=true&name=Ada+L.&price=9.5&quantity=2"
                + "&tags%5B%5D=a+b&tags%5B%5D=c%26d")
    }

    @Test("the array, bool, date, key and order options")
    func options() throws {
        struct Values: Encodable {
            var list = [1, 2]
            var flag = false
            var when = Date(timeIntervalSince1970: 1_796_054_400.25)
            var redirectURI = URL(string: "app://done?x=1")!
            var clientID = "c"
        }
        var encoder = PrismFormEncoder()
        encoder.arrayEncoding = .repeatedName
        encoder.boolEncoding = .numeric
        encoder.dateEncoding = .millisecondsSince1970
        encoder.keyEncoding = .convertToSnakeCase
        #expect(
            try encoder.encodedString(Values())
                == "client_id=c&flag=0&list=1&list=2&redirect_uri=app%3A%2F%2Fdone%3Fx%3D1&when=1796054400250")
        encoder.arrayEncoding = .indexInBrackets
        encoder.keyOrder = .asEncoded
        encoder.keyEncoding = .useDefaultKeys
        encoder.dateEncoding = .iso8601
        #expect(
            try encoder.encodedString(Values())
                == "list%5B0%5D=1&list%5B1%5D=2&flag=0&when=2026-11-30T16%3A00%3A00Z"
                + "&redirectURI=app%3A%2F%2Fdone%3Fx%3D1&clientID=c")
    }

    @Test("snake_case as JSONEncoder converts: acronyms and digits")
    func snakeCase() {
        for (key, expected) in [
            ("redirectURI", "redirect_uri"), ("URLForm", "url_form"), ("myURLProperty", "my_url_property"),
            ("grantType", "grant_type"), ("version2Beta", "version2_beta"), ("id", "id"), ("A", "a"),
        ] {
            #expect(FormValueEncoder.snakeCased(key) == expected, "\(key)")
        }
    }

    @Test("a dictionary encodes the same way every time, and an empty array or struct adds nothing")
    func dictionaries() throws {
        let values = Dictionary(uniqueKeysWithValues: (0..<50).map { ("k\($0)", "\($0)") })
        let first = try PrismFormEncoder().encodedString(values)
        for _ in 0..<5 {
            #expect(try PrismFormEncoder().encodedString(Dictionary(uniqueKeysWithValues: values.map { $0 })) == first)
        }
        struct Empty: Encodable {
            var list: [Int] = []
            var inner = Address(city: "x", zip: nil)
        }
        #expect(try PrismFormEncoder().encodedString(Empty()) == "inner%5Bcity%5D=x")
        #expect(try PrismFormEncoder().encodedString([String: Int]()) == "")
    }

    @Test("what a form cannot hold throws EncodingError, naming it: a lone value, an array, NaN")
    func badValues() {
        #expect(throws: EncodingError.self) { try PrismFormEncoder().encode("text") }
        #expect(throws: EncodingError.self) { try PrismFormEncoder().encode([1, 2]) }
        struct Measure: Encodable { var value = Double.nan }
        do {
            _ = try PrismFormEncoder().encode(Measure())
            Issue.record("NaN encoded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.debugDescription.contains("nan"))
            #expect(context.codingPath.map(\.stringValue) == ["value"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("Python's urllib.parse reads back every byte of the text, names and values alike")
    func anOutsideParserAgrees() async throws {
        // Every printable ASCII character, controls, and text beyond ASCII.
        let tricky = String((32..<127).map { Character(UnicodeScalar(UInt8($0))) }) + "\t\n\r é中🙂"
        let values: [String: String] = ["plain": "x", "tricky": tricky, tricky: "name", "empty": ""]
        let body = try PrismFormEncoder().encode(values)
        let printed = try await python(
            "import sys, json, urllib.parse; "
                + "print(json.dumps(urllib.parse.parse_qsl(sys.stdin.buffer.read().decode('ascii'), "
                + "keep_blank_values=True, strict_parsing=True, errors='strict')))",
            input: body)
        let pairs = try #require(try JSONSerialization.jsonObject(with: printed) as? [[String]])
        #expect(Dictionary(uniqueKeysWithValues: pairs.map { ($0[0], $0[1]) }) == values)
        #expect(body.allSatisfy { $0 < 0x80 })
    }

    @Test("an endpoint's PrismFormBody reaches the server as a form, with its content type")
    func throughTheClient() async throws {
        try await withServer { server in
            let client = PrismNetworkAdapter(cache: nil)
            let endpoint = ServerEndpoint(
                server, "/echo/form", method: .post, payload: PrismFormBody(["grant_type": "code", "code": "a b"]))
            let echo = try await client.request(on: ServerRequest<Echo>(endpoint: endpoint))
            #expect(echo.body == "code=a+b&grant_type=code")
            #expect(echo.headers["content-type"] == "application/x-www-form-urlencoded")

            let own = ServerEndpoint(
                server, "/echo/form", method: .post,
                headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
                payload: PrismFormBody(["a": "é"]))
            let echoed = try await client.request(on: ServerRequest<Echo>(endpoint: own))
            #expect(echoed.body == "a=%C3%A9")
            #expect(echoed.headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8")
        }
    }

    @Test("a form body that does not encode is encodingFailed, naming the form, and nothing is sent")
    func failingBody() async throws {
        try await withServer { server in
            let endpoint = ServerEndpoint(
                server, "/echo/form", method: .post, payload: PrismFormBody(["n": Double.nan]))
            do {
                _ = try await PrismNetworkAdapter(cache: nil).request(on: ServerRequest<Echo>(endpoint: endpoint))
                Issue.record("sent")
            } catch let error as PrismHTTPError {
                #expect(error.code == .encodingFailed)
                #expect(error.message.contains("application/x-www-form-urlencoded"))
            }
            #expect(server.requests.isEmpty)
        }
    }
}
