import Foundation

/// The variables of most operations written as JSON without JSONEncoder, whose fixed cost per
/// call was a large part of a query's client-side time: strings, integers, booleans and
/// ``PrismGraphQLValue``s (without fractions), in objects whose keys are lowercase ASCII letters.
///
/// The bytes are the sorted-keys encoder's, byte for byte (a test compares them); anything else
/// (a fraction, a date, a key with capitals or digits, whose order the encoder decides with a
/// numeric, locale-aware comparison) returns nil, and the caller uses the encoder.
enum FastJSON {
    /// `members` as a JSON object, or nil when there are none or a member needs the encoder.
    static func object(_ members: [String: any Encodable & Sendable]) -> Data? {
        var bytes: [UInt8] = []
        return append(members, to: &bytes) ? Data(bytes) : nil
    }

    /// `value` as a JSON object when it is a dictionary of plain members (`["login": login]`,
    /// which Swift passes to the generic `variables:` initializer as one `Encodable` value); nil
    /// for any other value, or a member that needs the encoder.
    static func object(of value: any Encodable & Sendable) -> Data? {
        var bytes: [UInt8] = []
        return append(objectOf: value, to: &bytes) ? Data(bytes) : nil
    }

    /// Appends ``object(_:)``'s bytes to `bytes`, where the body is assembled (no `Data` of
    /// their own, copied again); false, with `bytes` as they were, when it would be nil.
    static func append(_ members: [String: any Encodable & Sendable], to bytes: inout [UInt8]) -> Bool {
        guard !members.isEmpty else { return false }
        let start = bytes.count
        guard writeObject(members.map { ($0.key, $0.value as Any) }, into: &bytes) else {
            bytes.removeSubrange(start...)
            return false
        }
        return true
    }

    /// Appends ``object(of:)``'s bytes to `bytes`; false, with `bytes` as they were, when it
    /// would be nil.
    static func append(objectOf value: any Encodable & Sendable, to bytes: inout [UInt8]) -> Bool {
        // The usual dictionaries by their own type: a cast to `[String: any Encodable & Sendable]`
        // builds a new dictionary, which costs more than writing the JSON.
        if let strings = value as? [String: String] {
            return appendPlainObject(strings, to: &bytes) { text, bytes in writeString(text, into: &bytes) }
        }
        if let numbers = value as? [String: Int] {
            return appendPlainObject(numbers, to: &bytes) { number, bytes in
                bytes.append(contentsOf: String(number).utf8)
            }
        }
        guard let members = value as? [String: any Encodable & Sendable] else { return false }
        return append(members, to: &bytes)
    }

    /// Appends `members` as a JSON object to `bytes`, each value written by `write`; false, with
    /// nothing appended, when there are none or a key is not plain.
    private static func appendPlainObject<Value>(
        _ members: [String: Value], to bytes: inout [UInt8], write: (Value, inout [UInt8]) -> Void
    ) -> Bool {
        guard !members.isEmpty, members.keys.allSatisfy(isPlainKey) else { return false }
        bytes.append(UInt8(ascii: "{"))
        func append(_ member: (key: String, value: Value)) {
            writeString(member.key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            write(member.value, &bytes)
        }
        // One member, the usual case, needs no sorted copy.
        if members.count == 1, let member = members.first {
            append(member)
        } else {
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(member)
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    private static func writeObject(_ members: [(String, Any)], into bytes: inout [UInt8]) -> Bool {
        guard members.allSatisfy({ isPlainKey($0.0) }) else { return false }
        bytes.append(UInt8(ascii: "{"))
        for (index, (key, value)) in members.sorted(by: { $0.0 < $1.0 }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            guard write(value, into: &bytes) else { return false }
        }
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    private static func write(_ value: Any, into bytes: inout [UInt8]) -> Bool {
        switch value {
        case let text as String:
            writeString(text, into: &bytes)
        case let number as Int:
            bytes.append(contentsOf: String(number).utf8)
        case let flag as Bool:
            bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case let value as PrismGraphQLValue:
            switch value {
            case .null: bytes.append(contentsOf: "null".utf8)
            case .bool(let flag): return write(flag, into: &bytes)
            case .int(let number): return write(number, into: &bytes)
            case .double: return false
            case .string(let text): writeString(text, into: &bytes)
            case .array(let elements):
                bytes.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    guard write(element, into: &bytes) else { return false }
                }
                bytes.append(UInt8(ascii: "]"))
            case .object(let members):
                return writeObject(members.map { ($0.key, $0.value as Any) }, into: &bytes)
            }
        default:
            return false
        }
        return true
    }

    /// Keys whose byte order is the encoder's order.
    private static func isPlainKey(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string, escaped as JSONEncoder escapes it (`/` included). The runs of
    /// bytes between escapes are appended whole.
    static func writeString(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var run = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard needsEscape(byte) else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                run = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether JSONEncoder writes `byte` escaped: a control character, a quote, a backslash or
    /// a slash.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
    }
}
