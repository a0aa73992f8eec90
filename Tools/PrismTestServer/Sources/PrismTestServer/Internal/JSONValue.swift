import NIOCore

/// A JSON document whose objects keep their keys in the order they were written.
///
/// The routes build their answers with it so that every body has a fixed, documented shape:
/// keys in a stable order, `null` written out (not omitted), slashes and non-ASCII left as they are.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One key and its value in a JSON object.
    struct Member: Sendable, Equatable {
        var key: String
        var value: JSONValue
    }

    /// `.string(value)`, or `.null` when `value` is nil.
    static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    /// The serialized document.
    var byteBuffer: ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(256)
        self.write(into: &buffer)
        return buffer
    }

    /// Appends the serialized document to `buffer`.
    func write(into buffer: inout ByteBuffer) {
        switch self {
        case .null:
            buffer.writeStaticString("null")
        case .bool(let value):
            buffer.writeStaticString(value ? "true" : "false")
        case .int(let value):
            buffer.writeString(String(value))
        case .string(let value):
            Self.writeString(value, into: &buffer)
        case .array(let values):
            buffer.writeInteger(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                value.write(into: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "]"))
        case .object(let members):
            buffer.writeInteger(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &buffer)
                buffer.writeInteger(UInt8(ascii: ":"))
                member.value.write(into: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "}"))
        }
    }

    /// Writes `string` as a JSON string literal (RFC 8259 escapes: quote, backslash, control characters).
    ///
    /// Runs of bytes that need no escape are copied at once, so a large string costs one scan.
    static func writeString(_ string: String, into buffer: inout ByteBuffer) {
        var string = string
        buffer.writeInteger(UInt8(ascii: "\""))
        string.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart..<index])))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
                case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                case 0x08: buffer.writeStaticString("\\b")
                case 0x0C: buffer.writeStaticString("\\f")
                default:
                    let hex: StaticString = "0123456789abcdef"
                    buffer.writeStaticString("\\u00")
                    buffer.writeInteger(hex.utf8Start[Int(byte >> 4)])
                    buffer.writeInteger(hex.utf8Start[Int(byte & 0x0F)])
                }
            }
            buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count])))
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member(key: $0.0, value: $0.1) })
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue {
    /// An object from `[String: String]`, keys sorted so that the output is stable.
    static func object(sorted dictionary: [String: String]) -> JSONValue {
        .object(dictionary.keys.sorted().map { Member(key: $0, value: .string(dictionary[$0]!)) })
    }
}
