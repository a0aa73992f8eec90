import Foundation

/// One event of a `text/event-stream` response (Server-Sent Events), as the WHATWG HTML
/// specification's event stream interpretation dispatches it.
///
/// ```swift
/// var parser = PrismServerSentEventParser()
/// for event in try parser.parse(chunk) where event.type == "message" {
///     let message = try event.decode(ChatMessage.self)
/// }
/// ```
public struct PrismServerSentEvent: Sendable, Hashable {
    /// The event's type: its `event` field, or `message` when it had none.
    public var type: String
    /// The event's `data` lines joined with line feeds.
    public var data: String
    /// The last event ID when the event was dispatched: the latest `id` field of the stream, this
    /// event's or an earlier one's (empty when there was none). A client that reconnects sends
    /// it as `Last-Event-ID`.
    public var lastEventID: String

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }

    /// The event's data decoded from JSON as `type` (snake_case keys, as ``PrismEntity``, unless
    /// `decoder` says otherwise).
    ///
    /// - Throws: ``PrismHTTPError`` with the code `decodingFailed`, saying which key and type.
    public func decode<Value: Decodable>(
        _ type: Value.Type, decoder: JSONDecoder = PrismJSON.sharedDecoder
    ) throws(PrismHTTPError) -> Value {
        do {
            return try decoder.decode(Value.self, from: Data(data.utf8))
        } catch {
            throw PrismHTTPError(
                code: .decodingFailed,
                message: "The data of a \"\(self.type)\" event does not decode as \(Value.self): \(error)",
                underlying: error)
        }
    }
}

/// Reads a `text/event-stream` body, chunk by chunk, into ``PrismServerSentEvent``s, by the WHATWG
/// HTML specification's rules ("Interpreting an event stream"):
///
/// | input | what happens |
/// | --- | --- |
/// | a line break | CRLF, LF or CR, also when a CRLF is split between two chunks |
/// | a UTF-8 byte order mark at the very start | skipped (once, also when split between chunks) |
/// | bytes that are not UTF-8 | read as U+FFFD |
/// | an empty line | dispatches the event; none when no `data` field came since the last one |
/// | `:` first | a comment, ignored (servers send them to keep a connection alive) |
/// | `name: value` | the field `name`; one space after the colon is not part of the value |
/// | `name` without a colon | the field `name` with an empty value |
/// | `event` | the type of the event being read (`message` when empty) |
/// | `data` | one more line of the event's data |
/// | `id` | the ID the event being read sets as the last event ID when it is dispatched (and keeps for later events); ignored when it holds a NUL. An event cut off before its empty line sets nothing: a reconnection resumes after the last event received whole |
/// | `retry` | the reconnection delay in milliseconds, when the value is ASCII digits only |
/// | any other field | ignored |
/// | the end of the stream | an event without its final empty line is not dispatched |
///
/// A line or an event's data longer than `maximumEventBytes` throws ``PrismHTTPError`` with the
/// code `responseTooLarge`: a server cannot make the client hold an unbounded event.
public struct PrismServerSentEventParser: Sendable {
    /// The most bytes one line, or the data of one event, may hold.
    public let maximumEventBytes: Int
    /// The last event ID: the latest `id` field of a dispatched event (an empty line ends it,
    /// even one without data), empty when none (or an empty one) came. What a reconnection sends
    /// as `Last-Event-ID`: an `id` read in an event the stream cut off never becomes it, so the
    /// server sends that event again (WHATWG HTML, "last event ID buffer").
    public private(set) var lastEventID = ""
    /// The `id` read for the event being read: it becomes ``lastEventID`` when the event is
    /// dispatched.
    private var idBuffer = ""
    /// The reconnection delay the server asked for with its latest valid `retry` field, if any.
    public private(set) var retry: Duration?

    private var line: [UInt8] = []
    private var data = ""
    private var hasData = false
    private var eventType = ""
    /// Whether the last byte seen was a CR, so that an LF right after it ends no second line.
    private var afterCR = false
    /// How many bytes of the byte order mark matched at the start; nil once the start is past.
    private var byteOrderMarkMatched: Int? = 0
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A parser of a new stream; `maximumEventBytes` bounds a line and an event's data (1 MiB
    /// unless you choose).
    public init(maximumEventBytes: Int = 1 << 20, lastEventID: String = "") {
        precondition(maximumEventBytes > 0, "PrismServerSentEventParser: maximumEventBytes must be at least 1.")
        self.maximumEventBytes = maximumEventBytes
        self.lastEventID = lastEventID
        self.idBuffer = lastEventID
    }

    /// Reads the next bytes of the stream and returns the events they complete, in order.
    ///
    /// - Throws: ``PrismHTTPError`` (`responseTooLarge`) when a line or an event's data passes
    ///   `maximumEventBytes`; the parser should not be used after.
    public mutating func parse(_ bytes: some Sequence<UInt8>) throws(PrismHTTPError) -> [PrismServerSentEvent] {
        // Read through contiguous storage when there is some (an array, `Data`, a buffer), so the
        // loop below runs on a concrete buffer rather than through the generic sequence.
        let read = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(PrismHTTPError) in try parse(buffer: buffer) }
        }
        if let read { return try read.get() }
        let copied = Array(bytes)
        return try copied.withUnsafeBufferPointer { buffer throws(PrismHTTPError) in try parse(buffer: buffer) }
    }

    private mutating func parse(buffer bytes: UnsafeBufferPointer<UInt8>) throws(PrismHTTPError)
        -> [PrismServerSentEvent]
    {
        var events: [PrismServerSentEvent] = []
        for byte in bytes {
            if let matched = byteOrderMarkMatched {
                if byte == Self.byteOrderMark[matched] {
                    byteOrderMarkMatched = matched + 1 == Self.byteOrderMark.count ? nil : matched + 1
                    continue
                }
                byteOrderMarkMatched = nil
                // A partial match was not a byte order mark: those bytes are the line's.
                line.append(contentsOf: Self.byteOrderMark[..<matched])
            }
            switch byte {
            case 0x0A where afterCR:
                afterCR = false
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                if let event = try endLine() { events.append(event) }
            default:
                afterCR = false
                guard line.count < maximumEventBytes else { throw tooLarge("A line") }
                line.append(byte)
            }
        }
        return events
    }

    /// Ends the stream: an event not yet ended by an empty line is dropped, as the specification
    /// says (and an `id` it held is forgotten), and the parser is ready for a new connection's
    /// stream (it keeps ``lastEventID`` and ``retry``).
    public mutating func finish() {
        idBuffer = lastEventID
        line.removeAll(keepingCapacity: true)
        data = ""
        hasData = false
        eventType = ""
        afterCR = false
        byteOrderMarkMatched = 0
    }

    /// Processes the line read so far; the event it dispatches, if any.
    private mutating func endLine() throws(PrismHTTPError) -> PrismServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        // The field's name is compared as bytes: no string is made for it.
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = line[..<(colon ?? line.endIndex)]
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        if name.elementsEqual("data".utf8) {
            if hasData { data.append("\n") }
            data.append(String(decoding: value, as: UTF8.self))
            hasData = true
            guard data.utf8.count <= maximumEventBytes else { throw tooLarge("The data of an event") }
        } else if name.elementsEqual("event".utf8) {
            eventType = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual("id".utf8) {
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual("retry".utf8) {
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                retry = .milliseconds(milliseconds)
            }
        }
        return nil
    }

    /// The event read since the last one, if it had data; starts the next one either way. Its
    /// `id`, if it had one, is now the last event ID, with or without data.
    private mutating func dispatch() -> PrismServerSentEvent? {
        lastEventID = idBuffer
        defer {
            data = ""
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        return PrismServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType, data: data, lastEventID: lastEventID)
    }

    private func tooLarge(_ what: String) -> PrismHTTPError {
        PrismHTTPError(
            code: .responseTooLarge,
            message: "\(what) of the event stream is longer than \(maximumEventBytes) bytes.")
    }
}
