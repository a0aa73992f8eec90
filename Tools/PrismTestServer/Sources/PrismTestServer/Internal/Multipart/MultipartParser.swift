import PrismSupport

/// Receives what ``MultipartParser`` finds, part by part.
protocol MultipartParserDelegate {
    /// A part begins; `headers` are its header lines, names as sent.
    mutating func beginPart(headers: [(name: String, value: String)]) throws
    /// The next bytes of the current part's body (in order; possibly empty).
    mutating func partBody(_ bytes: UnsafeRawBufferPointer) throws
    /// The current part ends.
    mutating func endPart() throws
}

/// A streaming `multipart/form-data` parser (RFC 7578, RFC 2046 §5.1.1).
///
/// Feed it the body chunk by chunk as it arrives: it holds back only what could be the start of
/// a delimiter (at most `boundary.count + 3` bytes) and a part's header block, and hands every
/// other byte to the delegate at once, so a body of any size is parsed in constant memory.
///
/// Details handled: a preamble before the first boundary and an epilogue after the last; the
/// first boundary without a leading CRLF; transport padding (spaces, tabs) after a boundary; a
/// part without headers; obsolete folded header lines.
struct MultipartParser {
    /// A malformed body.
    struct Error: Swift.Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The longest header block of a part.
    static let maximumHeaderBytes = 16 * 1024

    private enum State {
        case preamble
        case afterDelimiter
        case headers
        case body
        case epilogue
    }

    /// `CRLF--boundary`.
    private let delimiter: [UInt8]
    private var buffer: [UInt8]
    private var start = 0
    private var state = State.preamble

    /// Whether the closing delimiter (`--boundary--`) has been read.
    var isFinished: Bool {
        if case .epilogue = self.state { return true }
        return false
    }

    init(boundary: String) {
        self.delimiter = Array("\r\n--\(boundary)".utf8)
        // A virtual CRLF so that a boundary on the very first line matches the delimiter too.
        self.buffer = [13, 10]
    }

    /// Parses the next chunk of the body.
    mutating func feed(_ chunk: some Collection<UInt8>, delegate: inout some MultipartParserDelegate) throws {
        if self.isFinished { return }
        if self.start > 0 {
            self.buffer.removeFirst(self.start)
            self.start = 0
        }
        self.buffer.append(contentsOf: chunk)
        try self.process(delegate: &delegate)
    }

    /// Ends the body: throws when the closing delimiter never came.
    func finish() throws {
        guard self.isFinished else {
            throw Error(description: "the body ended before the closing boundary")
        }
    }

    private mutating func process(delegate: inout some MultipartParserDelegate) throws {
        while true {
            switch self.state {
            case .preamble:
                if let index = self.find(self.delimiter, from: self.start) {
                    self.start = index + self.delimiter.count
                    self.state = .afterDelimiter
                } else {
                    self.start = max(self.start, self.buffer.count - (self.delimiter.count - 1))
                    return
                }

            case .afterDelimiter:
                guard self.buffer.count - self.start >= 2 else { return }
                if self.buffer[self.start] == UInt8(ascii: "-") && self.buffer[self.start + 1] == UInt8(ascii: "-") {
                    self.state = .epilogue
                    self.start = self.buffer.count
                    return
                }
                var index = self.start
                while index < self.buffer.count, self.buffer[index] == UInt8(ascii: " ") || self.buffer[index] == 9 {
                    index += 1
                }
                guard index + 1 < self.buffer.count else {
                    if index - self.start > 256 { throw Error(description: "too much padding after a boundary") }
                    return
                }
                guard self.buffer[index] == 13, self.buffer[index + 1] == 10 else {
                    throw Error(description: "a boundary must be followed by CRLF or --")
                }
                self.start = index + 2
                self.state = .headers

            case .headers:
                let headerBytes: ArraySlice<UInt8>
                if self.buffer.count - self.start >= 2, self.buffer[self.start] == 13, self.buffer[self.start + 1] == 10
                {
                    // No headers at all: the blank line follows the boundary line at once.
                    headerBytes = []
                    self.start += 2
                } else if let end = self.find([13, 10, 13, 10], from: self.start) {
                    headerBytes = self.buffer[self.start..<end]
                    self.start = end + 4
                } else {
                    if self.buffer.count - self.start > Self.maximumHeaderBytes {
                        throw Error(description: "a part's headers are longer than \(Self.maximumHeaderBytes) bytes")
                    }
                    return
                }
                try delegate.beginPart(headers: Self.parseHeaders(headerBytes))
                self.state = .body

            case .body:
                if let index = self.find(self.delimiter, from: self.start) {
                    try self.emit(self.start..<index, to: &delegate)
                    try delegate.endPart()
                    self.start = index + self.delimiter.count
                    self.state = .afterDelimiter
                } else {
                    let safeEnd = self.buffer.count - (self.delimiter.count - 1)
                    if safeEnd > self.start {
                        try self.emit(self.start..<safeEnd, to: &delegate)
                        self.start = safeEnd
                    }
                    return
                }

            case .epilogue:
                self.start = self.buffer.count
                return
            }
        }
    }

    private func emit(_ range: Range<Int>, to delegate: inout some MultipartParserDelegate) throws {
        guard !range.isEmpty else { return }
        try self.buffer.withUnsafeBytes { bytes in
            try delegate.partBody(UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
    }

    /// The index of the first occurrence of `pattern` at or after `from` (memchr on its first byte).
    private func find(_ pattern: [UInt8], from: Int) -> Int? {
        let count = self.buffer.count
        guard count - from >= pattern.count else { return nil }
        return self.buffer.withUnsafeBufferPointer { haystack -> Int? in
            pattern.withUnsafeBufferPointer { needle -> Int? in
                let base = haystack.baseAddress!
                var position = from
                let lastStart = count - needle.count
                while position <= lastStart {
                    guard let found = memchr(base + position, Int32(needle[0]), lastStart - position + 1) else {
                        return nil
                    }
                    let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + index, needle.baseAddress!, needle.count) == 0 {
                        return index
                    }
                    position = index + 1
                }
                return nil
            }
        }
    }

    /// Header lines `Name: value` separated by CRLF; bytes are UTF-8 (RFC 7578 §5.1), or
    /// ISO-8859-1 when they are not valid UTF-8.
    static func parseHeaders(_ bytes: ArraySlice<UInt8>) throws -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 13, index + 1 < bytes.endIndex, bytes[index + 1] == 10 {
                lines.append(bytes[lineStart..<index])
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        if lineStart < bytes.endIndex { lines.append(bytes[lineStart...]) }
        for line in lines where !line.isEmpty {
            // Obsolete line folding (RFC 5322): a line starting with white space continues the last one.
            if line.first == 32 || line.first == 9, let last = headers.popLast() {
                headers.append((last.name, last.value + " " + text(line).trimmingWhitespace()))
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw Error(description: "a part header line has no colon")
            }
            headers.append((text(line[..<colon]).trimmingWhitespace(), text(line[(colon + 1)...]).trimmingWhitespace()))
        }
        return headers
    }

    /// `bytes` as UTF-8, or as ISO-8859-1 when not valid UTF-8.
    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        if let utf8 = String(validatingUTF8Bytes: bytes) { return utf8 }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
