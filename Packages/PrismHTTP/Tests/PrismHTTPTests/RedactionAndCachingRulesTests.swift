import Foundation
import PrismHTTP
import Testing

@Suite("Redaction")
struct RedactionTests {
    @Test("credentials in headers are redacted, other headers kept")
    func headers() {
        let headers: PrismHTTPHeaders = [
            "Authorization": "Bearer abc", "Cookie": "s=1", "X-API-Key": "k", "X-Refresh-Token": "t",
            "Accept": "application/json",
        ]
        let redacted = PrismHTTPRedaction.redact(headers)
        #expect(redacted["Authorization"] == "<redacted>")
        #expect(redacted["cookie"] == "<redacted>")
        #expect(redacted["X-API-Key"] == "<redacted>")
        #expect(redacted["X-Refresh-Token"] == "<redacted>")
        #expect(redacted["Accept"] == "application/json")
        #expect(!redacted.description.contains("abc"))
    }

    @Test("credentials in query strings and URLs are redacted")
    func urls() throws {
        let url = try #require(URL(string: "https://user:pw@example.com/p?access_token=abc&page=2&api_key=k"))
        let text = PrismHTTPRedaction.redact(url)
        #expect(!text.contains("abc"))
        #expect(!text.contains("pw"))
        #expect(!text.contains("=k"))
        #expect(text.contains("page=2"))
    }
}

@Suite("Headers")
struct HeadersTests {
    @Test("names compare without regard to case; setting replaces; values keep order")
    func caseInsensitive() {
        var headers: PrismHTTPHeaders = ["Accept": "a"]
        headers.add(name: "accept", value: "b")
        #expect(headers.values(for: "ACCEPT") == ["a", "b"])
        #expect(headers.dictionary["Accept"] == "a, b")
        headers["Accept"] = "c"
        #expect(headers.count == 1)
        headers["accept"] = nil
        #expect(!headers.contains("Accept"))
    }
}
