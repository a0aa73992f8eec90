import Foundation
import PrismHTTP

extension PrismGraphQLValue {
    /// Parses JSON text: an integer without a fraction or an exponent that fits in `Int` is
    /// `.int`, any other number `.double`.
    ///
    /// ```swift
    /// let answer = try PrismGraphQLValue(json: Data(#"{"item": {"id": 1}}"#.utf8))
    /// ```
    ///
    /// - Throws: ``PrismGraphQLError`` with code `invalidResponse` saying where the text is not
    ///   JSON (nesting deeper than 512 is refused).
    public init(json: Data) throws(PrismGraphQLError) {
        var reader = JSONValueReader(bytes: Array(json))
        self = try reader.document()
    }

    /// The value as JSON text (object members in no set order).
    var jsonBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        JSONValueWriter.write(self, into: &bytes)
        return bytes
    }

    /// The value decoded as `T`, as the decoder of a response of `T` decodes it: straight from the
    /// value (``ValueDecoder``), or through its JSON text for a `PrismEntity`, whose own decoder
    /// may have strategies of its own.
    func decoded<T: Decodable>(as _: T.Type) throws -> T {
        if T.self is any PrismEntity.Type {
            return try GraphQLResponseDecoding.decoder(for: T.self).decode(T.self, from: Data(jsonBytes))
        }
        return try ValueDecoder.decode(T.self, from: self)
    }

    /// `value` encoded as JSON, read back as a value.
    static func encoding(_ value: some Encodable) throws -> PrismGraphQLValue {
        try PrismGraphQLValue(json: JSONEncoder().encode(value))
    }
}

/// Writes a value as JSON bytes.
enum JSONValueWriter {
    /// Writes `value`; with `sortingKeys`, each object's members in the order of their names (the
    /// same text for the same value: the normalized cache's keys).
    static func write(_ value: PrismGraphQLValue, into bytes: inout [UInt8], sortingKeys: Bool = false) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): bytes.append(contentsOf: String(number).utf8)
        case .double(let number):
            if number.isFinite {
                bytes.append(contentsOf: String(number).utf8)
            } else {
                bytes.append(contentsOf: "null".utf8)
            }
        case .string(let text): FastJSON.writeString(text, into: &bytes)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item, into: &bytes, sortingKeys: sortingKeys)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            func member(_ name: String, _ value: PrismGraphQLValue) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                FastJSON.writeString(name, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(value, into: &bytes, sortingKeys: sortingKeys)
            }
            if sortingKeys {
                for name in members.keys.sorted() { member(name, members[name]!) }
            } else {
                for (name, value) in members { member(name, value) }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}

/// Reads JSON text (RFC 8259) into a value: a recursive descent over the bytes, nesting bounded.
struct JSONValueReader {
    let bytes: [UInt8]
    var position = 0
    var depth = 0

    static let maximumDepth = 512

    mutating func document() throws(PrismGraphQLError) -> PrismGraphQLValue {
        skipSpace()
        let value = try self.value()
        skipSpace()
        guard position == bytes.count else { throw failure("Unexpected text after the JSON value") }
        return value
    }

    private mutating func value() throws(PrismGraphQLError) -> PrismGraphQLValue {
        guard position < bytes.count else { throw failure("Unexpected end of JSON") }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            try enter()
            defer { depth -= 1 }
            var members: [String: PrismGraphQLValue] = [:]
            skipSpace()
            if take(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                    throw failure("Expected a member name")
                }
                let name = try string()
                skipSpace()
                guard take(UInt8(ascii: ":")) else { throw failure("Expected \":\"") }
                skipSpace()
                members[name] = try value()
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { throw failure("Expected \"}\"") }
            return .object(members)
        case UInt8(ascii: "["):
            position += 1
            try enter()
            defer { depth -= 1 }
            var items: [PrismGraphQLValue] = []
            skipSpace()
            if take(UInt8(ascii: "]")) { return .array(items) }
            repeat {
                skipSpace()
                items.append(try value())
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { throw failure("Expected \"]\"") }
            return .array(items)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return try number()
        }
    }

    private mutating func number() throws(PrismGraphQLError) -> PrismGraphQLValue {
        let start = position
        if take(UInt8(ascii: "-")) {}
        var integer = true
        var digits = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && !integer)
            {
                integer = false
            } else {
                break
            }
            position += 1
        }
        guard digits > 0 else { throw failure("Expected a value") }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if integer, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw failure("\"\(text)\" is not a number") }
        return .double(value)
    }

    private mutating func string() throws(PrismGraphQLError) -> String {
        position += 1
        let start = position
        // The common case: no escape, read in one piece.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw failure("Unterminated string") }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code), position + 1 < bytes.count,
                        bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    {
                        position += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("Invalid surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw failure("Invalid escape in a string")
                }
            case 0..<0x20:
                throw failure("A control character in a string")
            default:
                scalars.append(byte)
            }
        }
        throw failure("Unterminated string")
    }

    private mutating func hex4() throws(PrismGraphQLError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("Invalid unicode escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("Invalid unicode escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func literal(_ word: StaticString) throws(PrismGraphQLError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw failure("Unexpected end of JSON") }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw failure("Expected a value") }
        position += count
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func enter() throws(PrismGraphQLError) {
        depth += 1
        if depth > Self.maximumDepth { throw failure("JSON nests deeper than \(Self.maximumDepth) levels") }
    }

    private func failure(_ message: String) -> PrismGraphQLError {
        PrismGraphQLError(code: .invalidResponse, message: "\(message) at byte \(position).")
    }
}
