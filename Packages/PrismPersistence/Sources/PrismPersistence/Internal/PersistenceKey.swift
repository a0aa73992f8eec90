/// The rule every strategy of this module applies to keys: a key is a plain file name.
///
/// `PrismDiskPersistence` makes `<key>.json` of it, so a key can never name another folder.
/// The other strategies apply the same rule, so that a key means the same thing everywhere.
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
