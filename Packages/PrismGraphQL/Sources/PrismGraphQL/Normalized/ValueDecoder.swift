import Foundation

/// Decodes a `Decodable` straight from a ``PrismGraphQLValue``, as `JSONDecoder` with ISO 8601
/// dates (the decoder of GraphQL responses) decodes it from the value's JSON text, without
/// writing the text and reading it again: what the normalized cache's reads and watches cost.
///
/// Numbers: an integer type takes `.int`, or a `.double` with no fraction in its range;
/// `Double` and `Float` take either. `Date` is an ISO 8601 string, `URL` a string, `Data` base64,
/// `Decimal` a number, as `JSONDecoder` reads them.
struct ValueDecoder: Decoder {
    let value: PrismGraphQLValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: PrismGraphQLValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    static func decode<T: Decodable>(_ type: T.Type, from value: PrismGraphQLValue) throws -> T {
        try ValueDecoder(value).decodeValue(type)
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: PrismGraphQLValue].self) }
        return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([PrismGraphQLValue].self) }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// `T` from this value, with the types `JSONDecoder` reads its own way.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return try decode(String.self) as! T
        case is Int.Type: return try integer(Int.self) as! T
        case is Double.Type: return try decode(Double.self) as! T
        case is Bool.Type: return try decode(Bool.self) as! T
        case is Date.Type:
            let text = try decode(String.self)
            guard let date = ValueDecoder.iso8601(text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date as! T
        case is URL.Type:
            let text = try decode(String.self)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "Invalid URL string."))
            }
            return url as! T
        case is Data.Type:
            let text = try decode(String.self)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "Encountered Data is not valid Base64."))
            }
            return data as! T
        case is Decimal.Type:
            switch value {
            case .int(let number): return Decimal(number) as! T
            case .double(let number): return Decimal(string: String(number)) as! T
            default: throw mismatch(Decimal.self)
            }
        default:
            return try T(from: self)
        }
    }

    private static func iso8601(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle().parse(text)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        let found: String =
            switch value {
            case .null: "null"
            case .bool: "a boolean"
            case .int, .double: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        return DecodingError.typeMismatch(
            type,
            .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(found) instead."))
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .int(let number):
            if let exact = T(exactly: number) { return exact }
        case .double(let number):
            if let exact = T(exactly: number) { return exact }
        default:
            throw mismatch(type)
        }
        throw DecodingError.dataCorrupted(
            .init(codingPath: codingPath, debugDescription: "Number does not fit in \(type)."))
    }

    // MARK: Keyed

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: PrismGraphQLValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func member(_ key: Key) throws -> ValueDecoder {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(
                        codingPath: codingPath,
                        debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
            }
            return ValueDecoder(value, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            try member(key).value == .null
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let member = try member(key)
            if member.value == .null, !(T.self is any ExpressibleByNilLiteral.Type) {
                throw DecodingError.valueNotFound(
                    type,
                    .init(
                        codingPath: member.codingPath,
                        debugDescription: "Expected \(type) value but found null instead."))
            }
            return try member.decodeValue(type)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let value = members[key.stringValue], value != .null else { return nil }
            return try ValueDecoder(value, codingPath: codingPath + [key]).decodeValue(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try member(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try member(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            ValueDecoder(members["super"] ?? .null, codingPath: codingPath)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            ValueDecoder(members[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    // MARK: Unkeyed

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [PrismGraphQLValue]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(items: [PrismGraphQLValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        private struct Index: CodingKey {
            let intValue: Int?
            var stringValue: String { "Index \(intValue ?? 0)" }
            init(_ index: Int) { intValue = index }
            init?(stringValue: String) { nil }
            init?(intValue: Int) { self.intValue = intValue }
        }

        private mutating func next<T>(_ type: T.Type) throws -> ValueDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type, .init(codingPath: codingPath, debugDescription: "Unkeyed container is at end."))
            }
            defer { currentIndex += 1 }
            return ValueDecoder(items[currentIndex], codingPath: codingPath + [Index(currentIndex)])
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let item = try next(type)
            if item.value == .null, !(T.self is any ExpressibleByNilLiteral.Type) {
                throw DecodingError.valueNotFound(
                    type,
                    .init(codingPath: item.codingPath, debugDescription: "Expected \(type) but found null instead."))
            }
            return try item.decodeValue(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next([String: PrismGraphQLValue].self).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next([PrismGraphQLValue].self).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            try next(PrismGraphQLValue.self)
        }
    }
}

// MARK: Single value

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .double(let number): return number
        case .int(let number): return Double(number)
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}
