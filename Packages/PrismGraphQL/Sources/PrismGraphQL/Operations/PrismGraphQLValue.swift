import Foundation
import PrismHTTP

/// A JSON value: a GraphQL variable (nested input objects and explicit `null` included), or an
/// error's `extensions`.
///
/// Literals of every JSON kind make one, so variables can be written inline:
///
/// ```swift
/// let query = PrismGraphQLQuery(
///     query: "mutation Create($input: IssueInput!) { createIssue(input: $input) { number } }",
///     variables: [
///         "input": [
///             "title": "Crash on launch",
///             "body": nil,                             // sent as null
///             "labels": ["bug", "p1"],
///             "meta": ["priority": 1],
///         ]
///     ]
/// )
/// ```
///
/// ``init(encoding:)`` makes one from any `Encodable` value.
public enum PrismGraphQLValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction.
    case int(Int)
    /// A number with a fraction (or too large for `Int`).
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([PrismGraphQLValue])
    /// An object.
    case object([String: PrismGraphQLValue])

    /// The JSON that `value` encodes to (with `PrismJSON.makeEncoder()`'s encoder: keys as the
    /// type spells them, ISO 8601 dates).
    ///
    /// ```swift
    /// struct IssueInput: Encodable { var title: String; var labels: [String] }
    /// let input = try PrismGraphQLValue(encoding: IssueInput(title: "Crash", labels: ["bug"]))
    /// ```
    ///
    /// - Throws: ``PrismGraphQLError`` with code `encodingFailed` when `value` does not encode.
    public init(encoding value: some Encodable) throws(PrismGraphQLError) {
        do {
            let data = try PrismJSON.makeEncoder().encode(value)
            self = try JSONDecoder().decode(PrismGraphQLValue.self, from: data)
        } catch {
            throw PrismGraphQLError(
                code: .encodingFailed,
                message: "Could not encode \(type(of: value)) as JSON: \(error)",
                underlying: error
            )
        }
    }

    /// Whether the value is `null`.
    public var isNull: Bool { self == .null }

    /// The string, if the value is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if the value is a number without a fraction.
    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The number, if the value is one.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The Boolean, if the value is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if the value is an array.
    public var arrayValue: [PrismGraphQLValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if the value is an object.
    public var objectValue: [String: PrismGraphQLValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member called `key`, if the value is an object that has one.
    public subscript(key: String) -> PrismGraphQLValue? {
        objectValue?[key]
    }

    /// The element at `index`, if the value is an array that long.
    public subscript(index: Int) -> PrismGraphQLValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

extension PrismGraphQLValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([PrismGraphQLValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: PrismGraphQLValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a JSON value.")
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension PrismGraphQLValue: ExpressibleByNilLiteral {
    /// `null`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension PrismGraphQLValue: ExpressibleByBooleanLiteral {
    /// A Boolean.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension PrismGraphQLValue: ExpressibleByIntegerLiteral {
    /// An integer.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension PrismGraphQLValue: ExpressibleByFloatLiteral {
    /// A number with a fraction.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension PrismGraphQLValue: ExpressibleByStringLiteral {
    /// A string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension PrismGraphQLValue: ExpressibleByArrayLiteral {
    /// An array.
    public init(arrayLiteral elements: PrismGraphQLValue...) {
        self = .array(elements)
    }
}

extension PrismGraphQLValue: ExpressibleByDictionaryLiteral {
    /// An object; a key given twice keeps its last value.
    public init(dictionaryLiteral elements: (String, PrismGraphQLValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension PrismGraphQLValue: CustomStringConvertible {
    /// The value as compact JSON, keys sorted (a number JSON cannot say, such as NaN, as a string: `"NaN"`).
    public var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
