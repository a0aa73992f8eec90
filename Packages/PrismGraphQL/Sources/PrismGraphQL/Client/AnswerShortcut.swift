import Foundation

/// Where the `data` of an answer that holds nothing else is, so that the answer's type is decoded
/// from it directly: the common answer (`{"data": {...}}`) then skips `JSONDecoder`'s generic
/// container for the envelope (a generic `Envelope<T>`, its look-ups of `errors` and `extensions`),
/// which cost more than decoding the data itself for a small answer (`make bench ARGS="--filter
/// 'graphql pipeline'"`).
///
/// The shortcut is taken only when it cannot change the outcome. The body must be, byte for
/// byte, UTF-8 JSON of this shape, else the full decode runs as before:
///
/// | What the body is | Shortcut |
/// |---|---|
/// | whitespace, `{`, whitespace, `"data"` (no escape), whitespace, `:`, a value that is not `null`, whitespace, `}`, whitespace | the value's range |
/// | any other member (`errors`, `extensions`, an unknown one, `data` twice) | none |
/// | `"data": null` | none |
/// | a key written with an escape (`"d\u0061ta"`), a byte-order mark, UTF-16 or UTF-32 | none |
/// | anything after the closing `}` but whitespace | none |
/// | a value nested deeper than ``maximumDepth`` | none |
///
/// The value is only delimited here (strings to their closing quote, escapes skipped; brackets
/// counted), not validated: `JSONDecoder` reads it whole and rejects any slice that is not one
/// JSON value, and a value that does not decode (invalid JSON, or not of the type) goes to the
/// full decode too, so its error is the one it always was.
enum AnswerShortcut {
    /// Deeper than this, the full decode decides (JSONDecoder's own limit is 512).
    static let maximumDepth = 512

    /// The offsets (from `body.startIndex`) of the `data` member's value, when `body` is an
    /// answer that holds that member only, and it is not `null`.
    static func dataRange(in body: Data) -> Range<Int>? {
        body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Range<Int>? in
            var scanner = Scanner(bytes: bytes)
            scanner.skipWhitespace()
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            scanner.skipWhitespace()
            guard scanner.take(literal: "\"data\"") else { return nil }
            scanner.skipWhitespace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipWhitespace()
            let start = scanner.offset
            guard !scanner.peek(literal: "null"), scanner.skipValue() else { return nil }
            let end = scanner.offset
            scanner.skipWhitespace()
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            scanner.skipWhitespace()
            guard scanner.isAtEnd else { return nil }
            return start..<end
        }
    }

    /// Reads bytes forward, delimiting JSON values without building them.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0A, 0x0D: offset += 1
                default: return
                }
            }
        }

        /// Takes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            guard offset < bytes.count, bytes[offset] == byte else { return false }
            offset += 1
            return true
        }

        /// Whether `literal` comes next.
        func peek(literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - offset >= count else { return false }
            guard let base = bytes.baseAddress else { return false }
            return memcmp(base + offset, literal.utf8Start, count) == 0
        }

        /// Takes `literal` if it comes next.
        mutating func take(literal: StaticString) -> Bool {
            guard peek(literal: literal) else { return false }
            offset += literal.utf8CodeUnitCount
            return true
        }

        /// Skips one value (an object, an array, a string, or the bytes of a number or a literal).
        mutating func skipValue() -> Bool {
            var depth = 0
            repeat {
                guard offset < bytes.count else { return false }
                switch bytes[offset] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    guard depth <= AnswerShortcut.maximumDepth else { return false }
                    offset += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return false }
                    depth -= 1
                    offset += 1
                case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"):
                    // Between the parts of a container (JSONDecoder checks their order).
                    guard depth > 0 else { return false }
                    offset += 1
                default:
                    // A number or a literal: its bytes up to the next delimiter.
                    let start = offset
                    while offset < bytes.count, !Self.isDelimiter(bytes[offset]) { offset += 1 }
                    guard offset > start else { return false }
                }
            } while depth > 0
            return true
        }

        /// Skips a string, its quotes included; false when it does not end.
        private mutating func skipString() -> Bool {
            offset += 1
            while offset < bytes.count {
                switch bytes[offset] {
                case UInt8(ascii: "\""):
                    offset += 1
                    return true
                case UInt8(ascii: "\\"):
                    offset += 2
                default:
                    offset += 1
                }
            }
            return false
        }

        private static func isDelimiter(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "]"), UInt8(ascii: "}"),
                UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "\""):
                true
            default:
                false
            }
        }
    }
}
