import Foundation

/// A response type the client decodes for you, from JSON whose keys may be snake_case.
///
/// ```swift
/// struct GitHubUser: PrismEntity {
///     var login: String
///     var name: String?
///     var publicRepos: Int     // from "public_repos"
///     var htmlURL: String      // from "html_url"
/// }
/// ```
///
/// The default decoding maps `snake_case` keys to `camelCase` properties and spells common
/// acronyms the Swift way (`html_url` → `htmlURL`, `user_id` → `userID`); a type whose
/// properties spell them otherwise (`htmlUrl`) decodes too. Dates are ISO 8601. Override
/// ``decoder`` to change any of it.
public protocol PrismEntity: Codable, Sendable {
    /// The decoder the client uses for this type.
    static var decoder: JSONDecoder { get }
}

extension PrismEntity {
    /// Snake-case keys with Swift-style acronyms, ISO 8601 dates (one shared decoder).
    public static var decoder: JSONDecoder { PrismJSON.sharedDecoder }
}

/// Prism's JSON conventions: what ``PrismEntity`` decodes with, and how endpoints encode bodies.
public enum PrismJSON {
    /// The acronyms spelled in capitals when snake_case keys become camelCase.
    public static let acronyms: Set<String> = [
        "api", "css", "dns", "gif", "html", "http", "https", "id", "ids", "ip", "jpeg", "jpg", "json", "jwt",
        "pdf", "png", "sha", "sql", "ssh", "svg", "tcp", "tls", "ttl", "ui", "uri", "url", "urls", "utc", "uuid",
        "xml",
    ]

    /// The decoder ``PrismEntity`` types use unless they override it: ``makeDecoder()``'s,
    /// made once.
    public static let sharedDecoder: JSONDecoder = makeDecoder()

    private static let sharedLowercaseAcronymDecoder: JSONDecoder = makeLowercaseAcronymDecoder()

    /// A decoder for snake_case JSON with Swift-style acronyms and ISO 8601 dates.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in SnakeCaseKey(camelCasing: path.last!, acronyms: true) }
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// A decoder like ``makeDecoder()`` whose camelCase keeps acronyms in lowercase after their
    /// first letter (`html_url` → `htmlUrl`): the fallback for types spelled that way.
    static func makeLowercaseAcronymDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// The encoder endpoints use for `Encodable` bodies: keys as the type spells them (APIs
    /// differ: override ``PrismNetworkEndpoint/bodyEncoder`` to send snake_case), ISO 8601 dates,
    /// sorted keys.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// ``sharedDecoder`` without the key conversion: what it amounts to for a body with no key
    /// to convert.
    fileprivate static let sharedPlainDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// Decodes `type` from `data` with `decoder`, falling back to lowercase acronyms when the
    /// first attempt misses a key (a type spelled `htmlUrl` rather than `htmlURL`).
    ///
    /// Only a key with an underscore changes when converted from snake_case, so a body with no
    /// underscore anywhere (not even an escaped one) is decoded by ``sharedDecoder``'s twin
    /// without the conversion, which would call a closure for every key of every object: a type
    /// whose JSON needs no conversion costs what `JSONDecoder` costs.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, with decoder: JSONDecoder) throws -> T {
        do {
            return try self.decoder(decoder, for: data).decode(type, from: data)
        } catch DecodingError.keyNotFound(let key, let context) {
            do {
                return try sharedLowercaseAcronymDecoder.decode(type, from: data)
            } catch {
                throw DecodingError.keyNotFound(key, context)
            }
        }
    }
}

extension PrismJSON {
    /// The decoder that decodes `data` as `decoder` would: ``sharedDecoder``'s twin without the
    /// key conversion when `decoder` is ``sharedDecoder`` and `data` has no underscore (no key to
    /// convert), else `decoder`.
    @_spi(PrismInternals) public static func decoder(_ decoder: JSONDecoder, for data: Data) -> JSONDecoder {
        decoder === sharedDecoder && !mayHaveUnderscore(data) ? sharedPlainDecoder : decoder
    }

    /// Whether `data` holds an underscore, as a byte or as a JSON escape (`\u005f`).
    static func mayHaveUnderscore(_ data: Data) -> Bool {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
            if memchr(base, Int32(UInt8(ascii: "_")), bytes.count) != nil { return true }
            // An escape: a backslash, then `u005f` in either case.
            var offset = 0
            while offset < bytes.count,
                let found = memchr(base + offset, Int32(UInt8(ascii: "\\")), bytes.count - offset)
            {
                let index = base.distance(to: UnsafeRawPointer(found))
                if index + 5 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"),
                    bytes[index + 2] == UInt8(ascii: "0"),
                    bytes[index + 3] == UInt8(ascii: "0"), bytes[index + 4] == UInt8(ascii: "5"),
                    bytes[index + 5] | 0x20 == UInt8(ascii: "f")
                {
                    return true
                }
                // Past the escaped character too, so that `\\` is one escape, not two.
                offset = index + 2
            }
            return false
        }
    }
}

/// A coding key converted from snake_case.
struct SnakeCaseKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    init(camelCasing key: any CodingKey, acronyms: Bool) {
        if let intValue = key.intValue {
            self.init(intValue: intValue)
            return
        }
        self.init(stringValue: Self.camelCase(key.stringValue, acronyms: acronyms))
    }

    private static let pluralAcronyms = ["ids": "IDs", "urls": "URLs"]

    static func camelCase(_ key: String, acronyms: Bool) -> String {
        // The UTF-8 view: `contains("_")` would be Foundation's substring search, through NSString
        // on Linux, for every key of every object.
        guard key.utf8.contains(UInt8(ascii: "_")) else { return key }
        // Keep leading and trailing underscores, as JSONDecoder's own strategy does.
        let leading = key.prefix { $0 == "_" }
        let trailing = key.reversed().prefix { $0 == "_" }
        let core = key.dropFirst(leading.count).dropLast(trailing.count)
        let words = core.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = words.first else { return key }
        var result = String(first)
        for word in words.dropFirst() {
            let lower = word.lowercased()
            if acronyms && PrismJSON.acronyms.contains(lower) {
                result += pluralAcronyms[lower] ?? lower.uppercased()
            } else {
                result += word.prefix(1).uppercased() + word.dropFirst()
            }
        }
        return String(leading) + result + String(trailing)
    }
}

/// An array of entities is an entity: a request whose response is a JSON array
/// (`typealias Response = [Repository]`) needs no wrapper type. It decodes with its element's
/// decoder.
extension Array: PrismEntity where Element: PrismEntity {
    /// The element type's decoder.
    public static var decoder: JSONDecoder { Element.decoder }
}

/// A dictionary of entities by string key is an entity (a JSON object whose keys are data, not
/// field names). It decodes with its value's decoder; the keys are kept as they are.
extension Dictionary: PrismEntity where Key == String, Value: PrismEntity {
    /// The value type's decoder.
    public static var decoder: JSONDecoder { Value.decoder }
}
