/// A header value with parameters: `form-data; name="field"; filename="a.txt"` or
/// `multipart/form-data; boundary=xyz`.
struct HeaderParameters: Equatable {
    /// The value before the first `;`, lowercased (`form-data`, `multipart/form-data`).
    var value: String
    /// The parameters, names lowercased, values unquoted and decoded.
    var parameters: [String: String]

    /// Parses `header`.
    ///
    /// Values may be tokens or quoted strings. Inside a quoted string a backslash escapes the
    /// next character (RFC 9110 quoted-pair), and `%22`, `%0D`, `%0A` stand for `"`, CR and LF, the
    /// way browsers escape names (WHATWG HTML, "multipart/form-data encoding algorithm"); other
    /// `%` sequences are kept as they are. An extended parameter such as `filename*=UTF-8''%E2%82%AC.txt`
    /// (RFC 8187) is decoded and stored under its name without `*`, where it wins over the plain
    /// parameter.
    init(_ header: String) {
        let scalars = Array(header.unicodeScalars)
        var index = 0

        func skipWhitespace() {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        }
        func read(until stops: Set<Unicode.Scalar>) -> String {
            var text = String.UnicodeScalarView()
            while index < scalars.count, !stops.contains(scalars[index]) {
                text.append(scalars[index])
                index += 1
            }
            return String(text).trimmingWhitespace()
        }

        self.value = read(until: [";"]).lowercased()
        var plain: [String: String] = [:]
        var extended: [String: String] = [:]
        while index < scalars.count {
            index += 1  // the ";"
            skipWhitespace()
            let name = read(until: ["=", ";"]).lowercased()
            var value = ""
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                skipWhitespace()
                if index < scalars.count, scalars[index] == "\"" {
                    index += 1
                    var text = String.UnicodeScalarView()
                    while index < scalars.count, scalars[index] != "\"" {
                        if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                        text.append(scalars[index])
                        index += 1
                    }
                    index += 1  // the closing quote
                    value = Self.decodeBrowserEscapes(String(text))
                    _ = read(until: [";"])  // anything after the closing quote is ignored
                } else {
                    value = read(until: [";"])
                }
            }
            guard !name.isEmpty else { continue }
            if name.hasSuffix("*") {
                if let decoded = Self.decodeExtendedValue(value) {
                    extended[String(name.dropLast())] = decoded
                }
            } else {
                plain[name] = value
            }
        }
        self.parameters = plain.merging(extended) { _, extended in extended }
    }

    /// `%22`, `%0D`, `%0A` (any case) decoded to `"`, CR, LF.
    static func decodeBrowserEscapes(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var result = ""
        var rest = Substring(text)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let code = rest[percent...].prefix(3).uppercased()
            switch code {
            case "%22": result += "\""
            case "%0D": result += "\r"
            case "%0A": result += "\n"
            default: result += "%"
            }
            rest =
                code.count == 3 && ["%22", "%0D", "%0A"].contains(code)
                ? rest[percent...].dropFirst(3) : rest[percent...].dropFirst()
        }
        return result + rest
    }

    /// An RFC 8187 ext-value `charset'language'percent-encoded`; UTF-8 and ISO-8859-1 are understood.
    static func decodeExtendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        let charset = pieces[0].lowercased()
        let decoded = RequestTarget.percentDecodedBytes(pieces[2])
        switch charset {
        case "utf-8": return String(validatingUTF8Bytes: decoded)
        case "iso-8859-1": return String(String.UnicodeScalarView(decoded.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }
}
