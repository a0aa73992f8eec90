import Foundation

/// The rule every strategy of this module applies to keys: a key is a plain file name, in
/// Unicode normalisation form C.
///
/// `PrismDiskPersistence` makes `<key>.json` of it, so a key can never name another folder.
/// The other strategies apply the same rule, so that a key means the same thing everywhere.
///
/// "café" can be spelled with one scalar for "é" (NFC) or with "e" and a combining accent
/// (NFD). Some file systems keep the bytes they are given (ext4), others normalise names
/// (HFS+) or compare them normalised (APFS): without a rule, one key could be one file on one
/// machine and two on another. Every key is stored in NFC, so both spellings are one key.
enum PersistenceKey {
    /// The longest key, in bytes of UTF-8: leaves room for `.json` and the suffix of a file
    /// moved aside within the usual 255-byte limit of a file name.
    static let maximumLength = 200

    /// Throws ``PrismPersistenceError/Code-swift.struct/invalidKey`` unless `key` is a plain
    /// file name.
    static func validate(_ key: String) throws {
        if let problem = problem(with: key) {
            throw PrismPersistenceError(
                code: .invalidKey,
                key: key,
                message: "The key \(problem); a key must be a plain file name. Nothing was read or written."
            )
        }
    }

    /// `key` in NFC, once it is known to be a plain file name; throws
    /// ``PrismPersistenceError/Code-swift.struct/invalidKey`` otherwise.
    static func normalized(_ key: String) throws -> String {
        try validate(key)
        let normalized = nfc(key)
        if !sameBytes(normalized, key) { try validate(normalized) }
        return normalized
    }

    /// Whether two keys are the same bytes: `==` on strings compares them normalised, and so
    /// cannot tell the spellings of one key apart.
    static func sameBytes(_ first: String, _ second: String) -> Bool {
        first.utf8.elementsEqual(second.utf8)
    }

    /// `key` in Unicode normalisation form C (canonical composition).
    static func nfc(_ key: String) -> String {
        // ASCII is in every normalisation form already: the common case costs no conversion.
        if key.utf8.allSatisfy({ $0 < 0x80 }) { return key }
        return key.precomposedStringWithCanonicalMapping
    }

    static func problem(with key: String) -> String? {
        if key.isEmpty { return "is empty" }
        if key == "." || key == ".." { return "is \"\(key)\", which names a folder" }
        if key.utf8.count > maximumLength {
            return "is \(key.utf8.count) bytes of UTF-8 long, more than the \(maximumLength) allowed"
        }
        for scalar in key.unicodeScalars {
            switch scalar {
            case "/": return "contains \"/\", a path separator"
            case "\\": return "contains \"\\\", a path separator"
            case "\0": return "contains a NUL character"
            default:
                if scalar.properties.generalCategory == .control {
                    return "contains the control character U+\(String(scalar.value, radix: 16, uppercase: true))"
                }
            }
        }
        return nil
    }
}
