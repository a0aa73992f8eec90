import Foundation
import PrismHTTP
import Testing

@Suite("Methods: the standard ones and any other token")
struct MethodTests {
    @Test("a token makes a method, as written; anything else does not")
    func tokens() {
        for name in ["M-SEARCH", "PROPFIND", "REPORT", "purge", "X_Y.Z~1!#$%&'*+^`|"] {
            #expect(PrismNetworkMethod(name)?.rawValue == name)
        }
        for name in ["", "GET ", " GET", "G ET", "GET\r\n", "GÉT", "(GET)", "GET/1", "a:b", "\"GET\"", "a,b"] {
            #expect(PrismNetworkMethod(rawValue: name) == nil, "\(name.debugDescription)")
        }
        // Case-sensitive (RFC 9110 §9.1).
        #expect(PrismNetworkMethod("get") != .get)
        #expect(PrismNetworkMethod("GET") == .get)
        #expect(
            PrismNetworkMethod.allCases.map(\.rawValue) == [
                "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE",
            ])
    }

    @Test("safe and idempotent as RFC 9110 §9.2 defines them; an unknown method is neither")
    func properties() throws {
        #expect(PrismNetworkMethod.allCases.filter(\.isSafe) == [.get, .head, .options, .trace])
        #expect(PrismNetworkMethod.allCases.filter(\.isIdempotent) == [.get, .put, .delete, .head, .options, .trace])
        let search = try #require(PrismNetworkMethod("M-SEARCH"))
        #expect(!search.isSafe && !search.isIdempotent)
    }

    @Test("encodes as its name; decoding refuses a name that is not a token")
    func codable() throws {
        let methods = [PrismNetworkMethod.get, try #require(PrismNetworkMethod("PROPFIND"))]
        let data = try JSONEncoder().encode(methods)
        #expect(String(decoding: data, as: UTF8.self) == #"["GET","PROPFIND"]"#)
        #expect(try JSONDecoder().decode([PrismNetworkMethod].self, from: data) == methods)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([PrismNetworkMethod].self, from: Data(#"["BAD NAME"]"#.utf8))
        }
    }
}
