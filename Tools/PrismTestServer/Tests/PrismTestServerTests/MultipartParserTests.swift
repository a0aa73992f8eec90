import Testing

@testable import PrismTestServer

@Suite("Multipart parser")
struct MultipartParserTests {
    /// Collects the parts as (headers, body) pairs.
    private struct Collector: MultipartParserDelegate {
        var parts: [(headers: [String], body: [UInt8])] = []

        mutating func beginPart(headers: [(name: String, value: String)]) throws {
            self.parts.append((headers.map { "\($0.name): \($0.value)" }, []))
        }

        mutating func partBody(_ bytes: UnsafeRawBufferPointer) throws {
            self.parts[self.parts.count - 1].body += bytes
        }

        mutating func endPart() throws {}
    }

    private func parse(_ chunks: [ArraySlice<UInt8>]) throws -> [(headers: [String], body: String)] {
        var parser = MultipartParser(boundary: "XyZ")
        var collector = Collector()
        for chunk in chunks {
            try parser.feed(chunk, delegate: &collector)
        }
        try parser.finish()
        return collector.parts.map { ($0.headers, String(decoding: $0.body, as: UTF8.self)) }
    }

    @Test("A body is split into parts with their headers and exact bodies")
    func wholeBody() throws {
        // Transport padding after a boundary, near-delimiters inside a part, a part without headers.
        let body = Array(
            ("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n"
                + "--XyZ  \t\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.bin\"\r\n"
                + "Content-Type: text/plain\r\n\r\nline\r\n-XyZ \r\n--Xy\r\n\r\n"
                + "--XyZ\r\n\r\nno headers\r\n--XyZ--").utf8
        )
        let parts = try parse([body[...]])
        try #require(parts.count == 3)
        #expect(parts[0].headers == ["Content-Disposition: form-data; name=\"a\""])
        #expect(parts[0].body == "value")
        #expect(
            parts[1].headers == [
                "Content-Disposition: form-data; name=\"f\"; filename=\"f.bin\"", "Content-Type: text/plain",
            ])
        #expect(parts[1].body == "line\r\n-XyZ \r\n--Xy\r\n")
        #expect(parts[2].headers.isEmpty)
        #expect(parts[2].body == "no headers")
    }

    @Test("Splitting the body at any byte gives the same parts")
    func everySplit() throws {
        let body = Array(
            ("preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n\r\n"
                + "--XyZ\r\nContent-Type: x\r\n\r\n\r\n--XyZ--\r\nepilogue").utf8
        )
        let expected = try parse([body[...]])
        #expect(expected.count == 2)
        #expect(expected[0].body == "value\r\n")
        #expect(expected[1].body == "")
        for split in 0...body.count {
            let parts = try parse([body[..<split], body[split...]])
            #expect(parts.map(\.body) == expected.map(\.body), "split at \(split)")
            #expect(parts.map(\.headers) == expected.map(\.headers), "split at \(split)")
        }
        let byteByByte = try parse(body.indices.map { body[$0...$0] })
        #expect(byteByByte.map(\.body) == expected.map(\.body))
    }

    @Test("A body without the closing boundary is an error", arguments: ["--XyZ\r\n\r\nopen", "no boundary", ""])
    func unterminated(text: String) throws {
        #expect(throws: MultipartParser.Error.self) { try parse([Array(text.utf8)[...]]) }
    }

    @Test("A boundary followed by anything but CRLF or -- is an error")
    func badDelimiterLine() throws {
        #expect(throws: MultipartParser.Error.self) { try parse([Array("--XyZgarbage\r\n\r\n--XyZ--".utf8)[...]]) }
    }

    @Test("Header parameters are unquoted and unescaped the RFC way and the browser way")
    func headerParameters() {
        let rfc = HeaderParameters(#"form-data; name="say \"hi\""; filename="a\\b.txt""#)
        #expect(rfc.value == "form-data")
        #expect(rfc.parameters["name"] == #"say "hi""#)
        #expect(rfc.parameters["filename"] == #"a\b.txt"#)

        let browser = HeaderParameters(#"form-data; NAME="say %22hi%22"; filename="line%0D%0Abreak %41.txt""#)
        #expect(browser.parameters["name"] == #"say "hi""#)
        #expect(browser.parameters["filename"] == "line\r\nbreak %41.txt")

        let extended = HeaderParameters("attachment; filename=plain.txt; filename*=UTF-8''%E2%82%AC%20rates.txt")
        #expect(extended.parameters["filename"] == "€ rates.txt")

        let contentType = HeaderParameters("Multipart/Form-Data; boundary=----abc ; charset=utf-8")
        #expect(contentType.value == "multipart/form-data")
        #expect(contentType.parameters["boundary"] == "----abc")
        #expect(contentType.parameters["charset"] == "utf-8")
    }
}
