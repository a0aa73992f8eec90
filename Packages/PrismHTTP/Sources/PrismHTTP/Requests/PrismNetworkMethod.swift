/// An HTTP request method: one of the standard ones (`.get`, `.post`, ...) or any other method
/// token (`PROPFIND`, `REPORT`, `M-SEARCH`, ...).
///
/// ```swift
/// let search = PrismNetworkMethod("M-SEARCH")!
/// let request = PrismHTTPRequest(url: url, method: search)
/// ```
///
/// A method is case-sensitive (RFC 9110 §9.1): `get` is not `GET`. Only a token (RFC 9110 §5.6.2:
/// letters, digits, a backtick and `!#$%&'*+-.^_|~`) makes a method, so no value of this type can put a space
/// or a line break into a request line. Only `GET` and `HEAD` responses are served from the
/// cache; any method that is not known to be safe invalidates what is stored for its URL when it
/// succeeds (RFC 9111 §4.4).
public struct PrismNetworkMethod: RawRepresentable, Sendable, Hashable, CaseIterable, Codable,
    CustomStringConvertible
{
    /// `GET`
    public static let get = PrismNetworkMethod(token: "GET")
    /// `POST`
    public static let post = PrismNetworkMethod(token: "POST")
    /// `PUT`
    public static let put = PrismNetworkMethod(token: "PUT")
    /// `PATCH`
    public static let patch = PrismNetworkMethod(token: "PATCH")
    /// `DELETE`
    public static let delete = PrismNetworkMethod(token: "DELETE")
    /// `HEAD`
    public static let head = PrismNetworkMethod(token: "HEAD")
    /// `OPTIONS`
    public static let options = PrismNetworkMethod(token: "OPTIONS")
    /// `TRACE`
    public static let trace = PrismNetworkMethod(token: "TRACE")

    /// The methods with a name here: `GET`, `POST`, `PUT`, `PATCH`, `DELETE`, `HEAD`, `OPTIONS`
    /// and `TRACE`.
    public static let allCases: [PrismNetworkMethod] = [.get, .post, .put, .patch, .delete, .head, .options, .trace]

    /// The method's name, as sent.
    public let rawValue: String

    private init(token: String) {
        rawValue = token
    }

    /// The method called `rawValue`; nil when it is not a token (empty, or with a space, a
    /// control character, a separator or a non-ASCII character).
    public init?(rawValue: String) {
        guard Self.isToken(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// The method called `name`, as ``init(rawValue:)``.
    public init?(_ name: String) {
        self.init(rawValue: name)
    }

    /// Reads a method name, refusing one that is not a token.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard Self.isToken(name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(name)\" is not an HTTP method token")
        }
        rawValue = name
    }

    /// Writes the method's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The method's name.
    public var description: String { rawValue }

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2):
    /// GET, HEAD, PUT, DELETE, OPTIONS and TRACE; any other method is not known to be.
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }

    /// Whether the method is defined as read-only (RFC 9110 §9.2.1): GET, HEAD, OPTIONS and
    /// TRACE; any other method is not known to be.
    public var isSafe: Bool {
        switch rawValue {
        case "GET", "HEAD", "OPTIONS", "TRACE": true
        default: false
        }
    }

    /// Whether `name` is a token (RFC 9110 §5.6.2): the rule header names are checked by.
    static func isToken(_ name: String) -> Bool {
        RequestValidation.isToken(name)
    }
}
