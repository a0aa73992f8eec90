import Foundation
import PrismHTTP
import Testing

/// Lines and newline-delimited JSON read from a body that arrives in chunks of any size.
@Suite("Line readers: lines and JSON lines, chunk by chunk, bounded")
struct LineReaderTests {
    /// The lines of `stream`, fed whole, checked to be the same fed a byte at a time.
    func lines(_ stream: String) throws -> (lines: [String], last: String?) {
        var whole = PrismLineReader()
        let all = try whole.read(Array(stream.utf8))
        let last = whole.finish()
        var byByte = PrismLineReader()
        var one: [String] = []
        for byte in stream.utf8 { one += try byByte.read([byte]) }
        #expect(one == all, "fed a byte at a time, the stream made other lines")
        #expect(byByte.finish() == last)
        return (all, last)
    }

    @Test("LF and CRLF end a line, also split between chunks; a lone CR is part of the line")
    func lineEnds() throws {
        let read = try lines("one\ntwo\r\nthree\rstill three\n\nlast")
        #expect(read.lines == ["one", "two", "three\rstill three", ""])
        #expect(read.last == "last")
        #expect(try lines("ends with CR\r").last == "ends with CR\r")
        #expect(try lines("").last == nil)
        #expect(try lines("a\n").last == nil)
    }

    @Test("bytes that are not UTF-8 read as U+FFFD")
    func invalidUTF8() throws {
        var reader = PrismLineReader()
        #expect(try reader.read([0x61, 0xFF, 0x62, 0x0A]) == ["a\u{FFFD}b"])
    }

    @Test("a line longer than the bound is refused, and a line at the bound is read")
    func bound() throws {
        var reader = PrismLineReader(maximumLineBytes: 8)
        #expect(try reader.read(Array("12345678\n".utf8)) == ["12345678"])
        expectHTTPError(.responseTooLarge) { _ = try reader.read(Array("123456789".utf8)) }
        // The CR of a CRLF is not counted against the line.
        var crlf = PrismLineReader(maximumLineBytes: 3)
        #expect(try crlf.read(Array("abc\r\n".utf8)) == ["abc"])
    }

    struct Record: Decodable, Equatable {
        var userName: String
        var count: Int
    }

    @Test("each non-blank line decodes as a value, chunks split anywhere")
    func jsonLines() throws {
        let stream =
            "{\"user_name\": \"ada\", \"count\": 1}\n\n  \r\n{\"user_name\": \"bob\", \"count\": 2}\r\n{\"user_name\": \"cy\", \"count\": 3}"
        var whole = PrismJSONLinesReader(of: Record.self)
        var all = try whole.read(Array(stream.utf8))
        if let last = try whole.finish() { all.append(last) }
        #expect(all.map(\.userName) == ["ada", "bob", "cy"])
        var byByte = PrismJSONLinesReader(of: Record.self)
        var one: [Record] = []
        for byte in stream.utf8 { one += try byByte.read([byte]) }
        if let last = try byByte.finish() { one.append(last) }
        #expect(one == all)
    }

    @Test("a line that does not decode says which line it was")
    func badLine() throws {
        var reader = PrismJSONLinesReader(of: Record.self)
        let error = expectHTTPError(.decodingFailed) {
            _ = try reader.read(Array("{\"user_name\": \"ada\", \"count\": 1}\n{\"user_name\": 2}\n".utf8))
        }
        #expect(error?.message.contains("Line 2") == true)
    }
}
