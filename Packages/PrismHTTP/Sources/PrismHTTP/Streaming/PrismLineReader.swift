import Foundation

/// Splits a body that arrives in chunks into lines: a line ends at a line feed, and a carriage
/// return right before it is not part of the line (CRLF), also when the two arrive in different
/// chunks. Bytes that are not UTF-8 read as U+FFFD.
///
/// ```swift
/// var reader = PrismLineReader()
/// for line in try reader.read(chunk) { print(line) }
/// if let last = reader.finish() { print(last) }   // a last line without a line break
/// ```
///
/// A line longer than `maximumLineBytes` throws ``PrismHTTPError`` with the code
/// `responseTooLarge`: a server cannot make the client hold an unbounded line.
public struct PrismLineReader: Sendable {
    /// The most bytes one line may hold (its line break aside).
    public let maximumLineBytes: Int
    private var splitter: LineSplitter

    /// A reader of a new stream; `maximumLineBytes` bounds a line (1 MiB unless you choose).
    public init(maximumLineBytes: Int = 1 << 20) {
        precondition(maximumLineBytes > 0, "PrismLineReader: maximumLineBytes must be at least 1.")
        self.maximumLineBytes = maximumLineBytes
        self.splitter = LineSplitter(maximumLineBytes: maximumLineBytes)
    }

    /// Reads the next bytes of the stream and returns the lines they complete, in order.
    ///
    /// - Throws: ``PrismHTTPError`` (`responseTooLarge`) when a line passes `maximumLineBytes`.
    public mutating func read(_ bytes: some Sequence<UInt8>) throws(PrismHTTPError) -> [String] {
        var lines: [String] = []
        try splitter.split(bytes) { line in lines.append(String(decoding: line, as: UTF8.self)) }
        return lines
    }

    /// Ends the stream: the last line when the stream did not end with a line break, else nil.
    /// The reader is then ready for a new stream.
    public mutating func finish() -> String? {
        splitter.finish().map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Decodes newline-delimited JSON (JSON Lines, NDJSON) that arrives in chunks: each line that is
/// not blank is one JSON value, decoded as `Value` (snake_case keys, as ``PrismEntity``, unless
/// `decoder` says otherwise).
///
/// ```swift
/// var reader = PrismJSONLinesReader(of: LogRecord.self)
/// for record in try reader.read(chunk) { show(record) }
/// ```
///
/// A line that does not decode throws ``PrismHTTPError`` with the code `decodingFailed`, naming
/// the line's number; a line longer than `maximumLineBytes`, `responseTooLarge`.
public struct PrismJSONLinesReader<Value: Decodable>: Sendable {
    /// The most bytes one line may hold.
    public let maximumLineBytes: Int
    private let decoder: JSONDecoder
    private var splitter: LineSplitter
    private var lineNumber = 0

    /// A reader of a new stream of `Value`s.
    public init(
        of type: Value.Type, decoder: JSONDecoder = PrismJSON.sharedDecoder, maximumLineBytes: Int = 1 << 20
    ) {
        precondition(maximumLineBytes > 0, "PrismJSONLinesReader: maximumLineBytes must be at least 1.")
        self.maximumLineBytes = maximumLineBytes
        self.decoder = decoder
        self.splitter = LineSplitter(maximumLineBytes: maximumLineBytes)
    }

    /// Reads the next bytes of the stream and returns the values of the lines they complete.
    public mutating func read(_ bytes: some Sequence<UInt8>) throws(PrismHTTPError) -> [Value] {
        var lines: [[UInt8]] = []
        try splitter.split(bytes) { lines.append(Array($0)) }
        var values: [Value] = []
        for line in lines {
            if let value = try decode(line[...]) { values.append(value) }
        }
        return values
    }

    /// Ends the stream: the value of a last line without a line break, if any.
    public mutating func finish() throws(PrismHTTPError) -> Value? {
        guard let line = splitter.finish() else { return nil }
        return try decode(line)
    }

    private mutating func decode(_ line: ArraySlice<UInt8>) throws(PrismHTTPError) -> Value? {
        lineNumber += 1
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
        do {
            return try decoder.decode(Value.self, from: Data(line))
        } catch {
            throw PrismHTTPError(
                code: .decodingFailed,
                message: "Line \(lineNumber) of the stream does not decode as \(Value.self): \(error)",
                underlying: error)
        }
    }
}

/// Line splitting shared by the readers: a line ends at LF, a CR right before it is dropped.
struct LineSplitter: Sendable {
    let maximumLineBytes: Int
    private var line: [UInt8] = []
    /// A CR that ended the last chunk: part of the line unless the next byte is LF.
    private var pendingCR = false

    init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    mutating func split(
        _ bytes: some Sequence<UInt8>, each: (ArraySlice<UInt8>) -> Void
    ) throws(PrismHTTPError) {
        let done = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(PrismHTTPError) in try split(buffer: buffer, each: each) }
        }
        if let done { return try done.get() }
        let copied = Array(bytes)
        try copied.withUnsafeBufferPointer { buffer throws(PrismHTTPError) in try split(buffer: buffer, each: each) }
    }

    private mutating func split(
        buffer: UnsafeBufferPointer<UInt8>, each: (ArraySlice<UInt8>) -> Void
    ) throws(PrismHTTPError) {
        for byte in buffer {
            if byte == 0x0A {
                pendingCR = false
                each(line[...])
                line.removeAll(keepingCapacity: true)
                continue
            }
            if pendingCR {
                try append(0x0D)
                pendingCR = false
            }
            if byte == 0x0D {
                pendingCR = true
            } else {
                try append(byte)
            }
        }
    }

    private mutating func append(_ byte: UInt8) throws(PrismHTTPError) {
        guard line.count < maximumLineBytes else {
            throw PrismHTTPError(
                code: .responseTooLarge, message: "A line of the stream is longer than \(maximumLineBytes) bytes.")
        }
        line.append(byte)
    }

    /// The last line, if the stream ended without a line break after it; resets for a new stream.
    mutating func finish() -> ArraySlice<UInt8>? {
        if pendingCR { line.append(0x0D) }
        defer {
            line.removeAll(keepingCapacity: true)
            pendingCR = false
        }
        return line.isEmpty ? nil : line[...]
    }
}
