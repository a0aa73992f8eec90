/// Builds URL paths from segments that cannot climb or split: OkHttp's `addPathSegment` for
/// ``PrismNetworkEndpoint/path``.
///
/// ```swift
/// var path: String {
///     switch self {
///     case .user(let login): PrismPath.segments("users", login)            // "/users/octocat"
///     case .file(let name): "/files/" + PrismPath.segment(name)            // "a/b" -> "/files/a%2Fb"
///     }
/// }
/// ```
///
/// Interpolating user input into a path as is lets it choose the route: a login of
/// `../admin` climbs to `/admin`, and `a/b?x=1` adds a segment and a query. A segment made with
/// ``segment(_:)`` is percent-encoded whole (`/`, `?`, `#` and `%` included), so it stays one
/// segment; a segment that is `.` or `..` is encoded too, and ``PrismNetworkEndpoint/makeURL()``
/// refuses every path with a `.` or `..` segment, encoded or not, with `invalidURL`.
public enum PrismPath {
    /// `value` as one path segment, every character but the unreserved ones (letters, digits,
    /// `-`, `.`, `_`, `~`) percent-encoded as UTF-8.
    public static func segment(_ value: String) -> String {
        // "." and ".." are dot-segments however they are written: spell them encoded, so that
        // makeURL() refuses them rather than a server resolving them.
        if value == "." || value == ".." { return String(repeating: "%2E", count: value.count) }
        if value.utf8.allSatisfy(isUnreserved) { return value }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// `/` followed by every value as a ``segment(_:)``, joined with `/`.
    public static func segments(_ values: String...) -> String {
        segments(values)
    }

    /// `/` followed by every value as a ``segment(_:)``, joined with `/`.
    public static func segments(_ values: [String]) -> String {
        "/" + values.map(segment).joined(separator: "/")
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func percentEncoded(_ byte: UInt8) -> String {
        String(decoding: [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
