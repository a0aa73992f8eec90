/// The path and query of a request target (`/path?query`), and the query's items.
struct RequestTarget: Sendable, Equatable {
    /// The path as sent, still percent-encoded, without the query.
    var path: String
    /// The raw query after `?`, or nil when the target has none.
    var query: String?

    init(_ target: String) {
        if let mark = target.firstIndex(of: "?") {
            self.path = String(target[..<mark])
            self.query = String(target[target.index(after: mark)...])
        } else {
            self.path = target
            self.query = nil
        }
    }

    /// The query's items in order, names and values percent-decoded (`+` stays a plus sign).
    ///
    /// An item without `=` has the empty string as its value.
    static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            if let equals = item.firstIndex(of: "=") {
                return (
                    percentDecoded(item[..<equals]),
                    percentDecoded(item[item.index(after: equals)...])
                )
            }
            return (percentDecoded(item), "")
        }
    }

    /// The query's items as a dictionary; when a name repeats, the last value wins.
    static func queryDictionary(_ query: String?) -> [String: String] {
        var dictionary: [String: String] = [:]
        for item in queryItems(query) {
            dictionary[item.name] = item.value
        }
        return dictionary
    }

    /// `text` with `%XX` escapes decoded as UTF-8; invalid escapes are kept as they are.
    static func percentDecoded(_ text: some StringProtocol) -> String {
        guard text.contains("%") else { return String(text) }
        return String(decoding: percentDecodedBytes(text), as: UTF8.self)
    }

    /// The bytes of `text` with `%XX` escapes decoded; invalid escapes are kept as they are.
    static func percentDecodedBytes(_ text: some StringProtocol) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
