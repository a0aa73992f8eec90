import Foundation
import PrismHTTP
import Testing

/// The event stream interpretation of the WHATWG HTML specification (§9.2.6), case by case:
/// what a `text/event-stream` body dispatches, fed whole and fed one byte at a time.
@Suite("Server-Sent Events: the specification's parsing rules")
struct ServerSentEventParserTests {
    /// The events of `stream`, fed whole, and checked to be the same fed a byte at a time (so
    /// that a line break or a byte order mark split between chunks is handled too).
    func events(_ stream: String, _ parser: PrismServerSentEventParser = .init()) throws -> [PrismServerSentEvent] {
        var whole = parser
        let all = try whole.parse(Array(stream.utf8))
        var byByte = parser
        var one: [PrismServerSentEvent] = []
        for byte in stream.utf8 { one += try byByte.parse([byte]) }
        #expect(one == all, "fed a byte at a time, the stream dispatched other events")
        #expect(byByte.lastEventID == whole.lastEventID)
        #expect(byByte.retry == whole.retry)
        return all
    }

    @Test("a data line and an empty line make a message event")
    func message() throws {
        #expect(try events("data: hello\n\n") == [PrismServerSentEvent(type: "message", data: "hello")])
    }

    @Test("data lines are joined with line feeds, and the last line feed is dropped")
    func multiLineData() throws {
        #expect(try events("data: first\ndata: second\ndata\n\n").map(\.data) == ["first\nsecond\n"])
        #expect(try events("data:\ndata:\n\n").map(\.data) == ["\n"])
    }

    @Test("CRLF, LF and CR all end lines, a CRLF split between chunks ends one")
    func lineEnds() throws {
        let expected = [
            PrismServerSentEvent(data: "a"), PrismServerSentEvent(data: "b"), PrismServerSentEvent(data: "c"),
        ]
        #expect(try events("data: a\r\n\r\ndata: b\n\ndata: c\r\r") == expected)
        // Mixed in one event: each break ends exactly one line.
        #expect(try events("data: 1\rdata: 2\ndata: 3\r\n\r\n").map(\.data) == ["1\n2\n3"])
    }

    @Test("one space after the colon is dropped, and only one")
    func spaceAfterColon() throws {
        #expect(try events("data:no space\n\n").map(\.data) == ["no space"])
        #expect(try events("data:  two spaces\n\n").map(\.data) == [" two spaces"])
        #expect(try events("data: a: b\n\n").map(\.data) == ["a: b"])
    }

    @Test("a line that starts with a colon is a comment")
    func comments() throws {
        #expect(try events(": keep-alive\n\n:\ndata: x\n: more\n\n").map(\.data) == ["x"])
    }

    @Test("the event field names the type; an empty one means message")
    func eventType() throws {
        let dispatched = try events("event: add\ndata: 1\n\nevent\ndata: 2\n\ndata: 3\n\n")
        #expect(dispatched.map(\.type) == ["add", "message", "message"])
    }

    @Test("an event without data is not dispatched, and its type does not leak into the next")
    func noData() throws {
        #expect(try events("event: ping\n\ndata: x\n\n") == [PrismServerSentEvent(type: "message", data: "x")])
        #expect(try events("\n\n\n").isEmpty)
    }

    @Test("the id field sets the last event ID for this event and the ones after it")
    func lastEventID() throws {
        let stream = "id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: x\u{0}y\ndata: d\n\n"
        let parser = PrismServerSentEventParser()
        let dispatched = try events(stream, parser)
        // An empty id resets it; an id holding a NUL is ignored.
        #expect(dispatched.map(\.lastEventID) == ["1", "1", "", ""])
    }

    @Test("an id becomes the last event ID when its event is dispatched, not when it is read")
    func lastEventIDOnDispatch() throws {
        var parser = PrismServerSentEventParser()
        _ = try parser.parse(Array("id: 1\ndata: one\n\nid: 2\ndata: tw".utf8))
        #expect(parser.lastEventID == "1")
        // The stream is cut: event 2 was never dispatched, so a reconnection asks for what
        // follows event 1, and an event after it without an id of its own is not "2" either.
        parser.finish()
        #expect(parser.lastEventID == "1")
        #expect(try parser.parse(Array("data: again\n\n".utf8)).map(\.lastEventID) == ["1"])
        // An id in an event without data is dispatched by its empty line all the same.
        _ = try parser.parse(Array("id: 3\n\n".utf8))
        #expect(parser.lastEventID == "3")
    }

    @Test("retry takes ASCII digits only, in milliseconds")
    func retry() throws {
        var parser = PrismServerSentEventParser()
        _ = try parser.parse(Array("retry: 2500\n".utf8))
        #expect(parser.retry == .milliseconds(2500))
        for ignored in ["retry: 1.5\n", "retry: -1\n", "retry: 10s\n", "retry:\n", "retry: ٣\n"] {
            _ = try parser.parse(Array(ignored.utf8))
            #expect(parser.retry == .milliseconds(2500), "\(ignored) changed the delay")
        }
    }

    @Test("a field without a colon has an empty value, and unknown fields are ignored")
    func fieldsWithoutColon() throws {
        #expect(try events("data\n\n").map(\.data) == [""])
        #expect(try events("foo: bar\ndata: kept\nDATA: not data\n\n").map(\.data) == ["kept"])
    }

    @Test("a byte order mark at the start is skipped once; one later is data")
    func byteOrderMark() throws {
        #expect(try events("\u{FEFF}data: a\n\n").map(\.data) == ["a"])
        #expect(try events("\u{FEFF}\u{FEFF}data: a\n\n").isEmpty)  // the second makes the field "\u{FEFF}data"
        #expect(try events("data: \u{FEFF}a\n\n").map(\.data) == ["\u{FEFF}a"])
    }

    @Test("bytes that are not UTF-8 read as U+FFFD")
    func invalidUTF8() throws {
        var parser = PrismServerSentEventParser()
        let dispatched = try parser.parse(Array("data: a".utf8) + [0xFF] + Array("b\n\n".utf8))
        #expect(dispatched.map(\.data) == ["a\u{FFFD}b"])
    }

    @Test("an event cut off by the end of the stream is not dispatched")
    func incompleteEvent() throws {
        var parser = PrismServerSentEventParser()
        #expect(try parser.parse(Array("data: whole\n\ndata: cut".utf8)).map(\.data) == ["whole"])
        parser.finish()
        // The next connection's stream starts afresh, and a byte order mark may start it again.
        #expect(try parser.parse(Array("\u{FEFF}data: next\n\n".utf8)).map(\.data) == ["next"])
    }

    @Test("a line or an event's data longer than the bound is refused, not held")
    func bounds() throws {
        var parser = PrismServerSentEventParser(maximumEventBytes: 16)
        let long = Array(("data: " + String(repeating: "x", count: 64)).utf8)
        #expect(throws: PrismHTTPError.self) { _ = try parser.parse(long) }
        var lines = PrismServerSentEventParser(maximumEventBytes: 16)
        expectHTTPError(.responseTooLarge) {
            _ = try lines.parse(Array(String(repeating: "data: 123456789\n", count: 4).utf8))
        }
    }

    @Test("an event's data decodes as a type, and a bad one says so")
    func decoding() throws {
        struct Message: Decodable, Equatable {
            var userName: String
            var text: String
        }
        let event = PrismServerSentEvent(data: #"{"user_name": "ada", "text": "hi"}"#)
        #expect(try event.decode(Message.self) == Message(userName: "ada", text: "hi"))
        let error = expectHTTPError(.decodingFailed) {
            _ = try PrismServerSentEvent(type: "chat", data: "not json").decode(Message.self)
        }
        #expect(error?.message.contains("\"chat\"") == true)
    }
}
