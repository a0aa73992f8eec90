import Foundation

/// Encodes an `Encodable` value as an `application/x-www-form-urlencoded` body: what an HTML form
/// posts, and what OAuth 2 token endpoints take (RFC 6749 §4.1.3).
///
/// ```swift
/// struct TokenRequest: Encodable {
///     var grantType = "authorization_code"
///     var code: String
///     var redirectURI: URL
/// }
/// var encoder = PrismFormEncoder()
/// encoder.keyEncoding = .convertToSnakeCase
/// let body = try encoder.encode(TokenRequest(code: "a b", redirectURI: URL(string: "app://done")!))
/// // code=a+b&grant_type=authorization_code&redirect_uri=app%3A%2F%2Fdone
/// ```
///
/// The rules, written down:
///
/// | value | becomes |
/// | --- | --- |
/// | the value encoded | a struct or a dictionary (a form is a set of names and values); anything else throws `EncodingError.invalidValue` |
/// | names and values | percent-encoded as the WHATWG URL standard's form serializer does: `A-Z a-z 0-9 * - . _` as they are, a space as `+`, every other byte of the UTF-8 text as `%XX` (upper-case hex; `[` and `]` included) |
/// | order | by name, at every level (``keyOrder``, `.sorted` by default), so that a dictionary encodes the same way every time; or as encoded (`.asEncoded`) |
/// | `nil` (an optional property) | left out |
/// | `true`, `false` | `true`, `false` (``boolEncoding``) |
/// | numbers | as Swift prints them: `42`, `1.5`, `-0.25`; NaN and the infinities throw |
/// | `Date` | ISO 8601 with seconds, in UTC (``dateEncoding``) |
/// | `Data` | Base64 |
/// | `URL` | its absolute string |
/// | a nested struct or dictionary | `parent[child]=value`, at any depth |
/// | an array | `name[]=1&name[]=2` (``arrayEncoding``: or `name=1&name=2`, or `name[0]=1&name[1]=2`); an empty array is left out |
///
/// The encoder is a value: configure a copy, share it across threads.
public struct PrismFormEncoder: Sendable {
    /// How the elements of an array are named.
    public enum ArrayEncoding: Sendable, Equatable {
        /// `name[]=1&name[]=2`: Rails, PHP, Alamofire's default.
        case brackets
        /// `name=1&name=2`: the name repeated, as an HTML form with several fields of one name.
        case repeatedName
        /// `name[0]=1&name[1]=2`.
        case indexInBrackets
    }

    /// How `Bool` values are written.
    public enum BoolEncoding: Sendable, Equatable {
        /// `true` and `false`.
        case literal
        /// `1` and `0`.
        case numeric
    }

    /// How `Date` values are written.
    public enum DateEncoding: Sendable, Equatable {
        /// `2026-11-30T16:00:00Z`.
        case iso8601
        /// Seconds since 1970, as a number (`1796054400`, or with a fraction).
        case secondsSince1970
        /// Milliseconds since 1970, as a whole number.
        case millisecondsSince1970
    }

    /// How the names of properties are written.
    public enum KeyEncoding: Sendable, Equatable {
        /// As the coding keys spell them.
        case useDefaultKeys
        /// `redirectURI` as `redirect_uri`, `grantType` as `grant_type`: as `JSONEncoder`'s
        /// strategy of the same name converts them.
        case convertToSnakeCase
    }

    /// In which order the names of one level are written.
    public enum KeyOrder: Sendable, Equatable {
        /// By name (byte order of the encoded name): the same text every time, also for a
        /// dictionary.
        case sorted
        /// In the order they were encoded (a struct's: its properties' order).
        case asEncoded
    }

    /// How array elements are named; `.brackets` by default.
    public var arrayEncoding = ArrayEncoding.brackets
    /// How booleans are written; `.literal` by default.
    public var boolEncoding = BoolEncoding.literal
    /// How dates are written; `.iso8601` by default.
    public var dateEncoding = DateEncoding.iso8601
    /// How property names are written; `.useDefaultKeys` by default.
    public var keyEncoding = KeyEncoding.useDefaultKeys
    /// The order of the names of each level; `.sorted` by default.
    public var keyOrder = KeyOrder.sorted

    /// An encoder with the default rules.
    public init() {}

    /// The form body of `value`, as UTF-8 bytes.
    ///
    /// - Throws: `EncodingError.invalidValue` when `value` is not a struct or a dictionary, holds
    ///   a number that is not finite, or its own `encode(to:)` throws.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        Data(try encodedString(value).utf8)
    }

    /// The form body of `value`, as text: `name=value&other=value`.
    ///
    /// - Throws: as ``encode(_:)``.
    public func encodedString<Value: Encodable>(_ value: Value) throws -> String {
        let root = FormNode.Box()
        try FormValueEncoder(options: self, box: root, codingPath: []).encodeValue(value)
        guard case .object(let members) = root.node else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [],
                    debugDescription:
                        "A form is a set of names and values: encode a struct or a dictionary, not \(Value.self)."))
        }
        var pairs: [(String, String)] = []
        for (name, node) in ordered(members) {
            flatten(node, name: Self.escaped(name), into: &pairs)
        }
        return pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    private func ordered(_ members: [(String, FormNode)]) -> [(String, FormNode)] {
        switch keyOrder {
        case .asEncoded:
            return members
        case .sorted:
            return members.enumerated().sorted { first, second in
                let (left, right) = (first.element.0, second.element.0)
                if left != right { return left.utf8.lexicographicallyPrecedes(right.utf8) }
                return first.offset < second.offset
            }.map(\.element)
        }
    }

    /// Appends the pairs of `node` under `name` (already escaped) to `pairs`.
    private func flatten(_ node: FormNode, name: String, into pairs: inout [(String, String)]) {
        switch node {
        case .null:
            break
        case .value(let text):
            pairs.append((name, Self.escaped(text)))
        case .object(let members):
            for (key, child) in ordered(members) {
                flatten(child, name: name + "%5B" + Self.escaped(key) + "%5D", into: &pairs)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                switch arrayEncoding {
                case .brackets: flatten(element, name: name + "%5B%5D", into: &pairs)
                case .repeatedName: flatten(element, name: name, into: &pairs)
                case .indexInBrackets: flatten(element, name: name + "%5B\(index)%5D", into: &pairs)
                }
            }
        }
    }

    /// `text` percent-encoded as the WHATWG form serializer does: `A-Z a-z 0-9 * - . _` kept, a
    /// space as `+`, every other UTF-8 byte as `%XX`.
    static func escaped(_ text: String) -> String {
        var result = [UInt8]()
        result.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                result.append(byte)
            case UInt8(ascii: " "):
                result.append(UInt8(ascii: "+"))
            default:
                result += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// A body that an endpoint sends as an HTML form does (`application/x-www-form-urlencoded`), from
/// an `Encodable` value and the rules of a ``PrismFormEncoder``.
///
/// ```swift
/// struct TokenEndpoint: PrismNetworkEndpoint {
///     var code: String
///     var host: String { "auth.example.com" }
///     var path: String { "/oauth/token" }
///     var method: PrismNetworkMethod { .post }
///     var body: (any Encodable)? {
///         PrismFormBody(["grant_type": "authorization_code", "code": code])
///     }
/// }
/// ```
///
/// ``PrismNetworkEndpoint/makeHTTPRequest()`` sends ``encoded()`` with
/// `Content-Type: application/x-www-form-urlencoded` unless the endpoint's headers name another.
/// Encoded with a `JSONEncoder` (by code that is not an endpoint's), it is its value's JSON.
public struct PrismFormBody<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The value sent.
    public var value: Value
    /// The rules it is encoded with.
    public var encoder: PrismFormEncoder

    /// A form body of `value`, encoded with `encoder`'s rules.
    public init(_ value: Value, encoder: PrismFormEncoder = PrismFormEncoder()) {
        self.value = value
        self.encoder = encoder
    }

    /// The body's bytes.
    ///
    /// - Throws: as ``PrismFormEncoder/encode(_:)``.
    public func encoded() throws -> Data {
        try encoder.encode(value)
    }

    /// Encodes the value itself (for an encoder that is not the form's).
    public func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

/// A body that encodes itself, with its content type: what ``PrismNetworkEndpoint`` asks of a body
/// before it falls back to JSON.
protocol SelfEncodingBody {
    var contentType: String { get }
    func encoded() throws -> Data
}

extension PrismFormBody: SelfEncodingBody {
    var contentType: String { "application/x-www-form-urlencoded" }
}
