import Foundation

/// A form value as `PrismFormEncoder` builds it: text, a list, named members, or nothing (`nil`,
/// left out).
enum FormNode {
    case value(String)
    case array([FormNode])
    case object([(String, FormNode)])
    case null

    /// A node being built: the container that fills it and its parent share it.
    final class Box {
        enum Content {
            case empty
            case value(String)
            case array([Box])
            case object([(String, Box)])
            case null
        }

        var content = Content.empty

        /// The node built; a value nothing was encoded into (an empty struct) has no members.
        var node: FormNode {
            switch content {
            case .empty: .object([])
            case .value(let text): .value(text)
            case .array(let boxes): .array(boxes.map(\.node))
            case .object(let members): .object(members.map { ($0.0, $0.1.node) })
            case .null: .null
            }
        }

        /// A new member box under `name` (this box becomes an object if it was not one).
        func member(_ name: String) -> Box {
            let box = Box()
            if case .object(var members) = content {
                content = .empty  // one reference to the array while it grows
                members.append((name, box))
                content = .object(members)
            } else {
                content = .object([(name, box)])
            }
            return box
        }

        /// A new element box (this box becomes an array if it was not one).
        func element() -> Box {
            let box = Box()
            if case .array(var elements) = content {
                content = .empty
                elements.append(box)
                content = .array(elements)
            } else {
                content = .array([box])
            }
            return box
        }
    }
}

/// The `Encoder` behind `PrismFormEncoder`: every value is written into a `FormNode.Box`.
struct FormValueEncoder: Encoder {
    let options: PrismFormEncoder
    let box: FormNode.Box
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(options: PrismFormEncoder, box: FormNode.Box, codingPath: [any CodingKey]) {
        self.options = options
        self.box = box
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = box.content {} else { box.content = .object([]) }
        return KeyedEncodingContainer(FormKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = box.content {} else { box.content = .array([]) }
        return FormUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(encoder: self)
    }

    /// Encodes `value` into this encoder's box: the types a form writes its own way first.
    func encodeValue<Value: Encodable>(_ value: Value) throws {
        switch value {
        case let date as Date: box.content = .value(text(of: date))
        case let data as Data: box.content = .value(data.base64EncodedString())
        case let url as URL: box.content = .value(url.absoluteString)
        case let decimal as Decimal: box.content = .value(decimal.description)
        default: try value.encode(to: self)
        }
    }

    /// The encoder of a member or an element: its box and its coding path.
    func child(_ box: FormNode.Box, key: any CodingKey) -> FormValueEncoder {
        FormValueEncoder(options: options, box: box, codingPath: codingPath + [key])
    }

    func text(of bool: Bool) -> String {
        switch options.boolEncoding {
        case .literal: bool ? "true" : "false"
        case .numeric: bool ? "1" : "0"
        }
    }

    func text(of number: some BinaryFloatingPoint & LosslessStringConvertible & Encodable) throws -> String {
        guard number.isFinite else {
            throw EncodingError.invalidValue(
                number,
                EncodingError.Context(
                    codingPath: codingPath, debugDescription: "A form cannot hold \(number): only finite numbers."))
        }
        return number.description
    }

    func text(of date: Date) -> String {
        switch options.dateEncoding {
        case .iso8601:
            return date.formatted(.iso8601)
        case .secondsSince1970:
            return date.timeIntervalSince1970.description
        case .millisecondsSince1970:
            return Int64((date.timeIntervalSince1970 * 1_000).rounded()).description
        }
    }

    /// `key` as the form names it.
    func name(of key: any CodingKey) -> String {
        switch options.keyEncoding {
        case .useDefaultKeys: key.stringValue
        case .convertToSnakeCase: Self.snakeCased(key.stringValue)
        }
    }

    /// `redirectURI` as `redirect_uri`: a word starts at a capital after a small letter or a
    /// digit, and at the last capital of a run followed by a small letter (`URLForm`: `url_form`);
    /// each word lowercased, joined by `_`.
    static func snakeCased(_ key: String) -> String {
        let characters = Array(key)
        guard characters.count > 1 else { return key.lowercased() }
        var words: [String] = []
        var word = String(characters[0])
        for index in 1..<characters.count {
            let (previous, current) = (characters[index - 1], characters[index])
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord =
                current.isUppercase
                && (previous.isLowercase || previous.isNumber
                    || (previous.isUppercase && next?.isLowercase == true))
            if startsWord {
                words.append(word)
                word = ""
            }
            word.append(current)
        }
        words.append(word)
        return words.map { $0.lowercased() }.joined(separator: "_")
    }
}

private struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FormValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func member(_ key: Key) -> FormValueEncoder {
        encoder.child(encoder.box.member(encoder.name(of: key)), key: key)
    }

    mutating func encodeNil(forKey key: Key) throws { member(key).box.content = .null }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try member(key).encodeValue(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try member(key).encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        member(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        member(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.child(encoder.box.member("super"), key: FormIndexKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { member(key) }
}

private struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FormValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private(set) var count = 0

    init(encoder: FormValueEncoder) {
        self.encoder = encoder
    }

    private mutating func element() -> FormValueEncoder {
        defer { count += 1 }
        return encoder.child(encoder.box.element(), key: FormIndexKey(intValue: count))
    }

    mutating func encodeNil() throws { element().box.content = .null }
    mutating func encode(_ value: Bool) throws { try element().encodeValue(value) }
    mutating func encode(_ value: String) throws { try element().encodeValue(value) }
    mutating func encode(_ value: Double) throws { try element().encodeValue(value) }
    mutating func encode(_ value: Float) throws { try element().encodeValue(value) }
    mutating func encode(_ value: Int) throws { try element().encodeValue(value) }
    mutating func encode(_ value: Int8) throws { try element().encodeValue(value) }
    mutating func encode(_ value: Int16) throws { try element().encodeValue(value) }
    mutating func encode(_ value: Int32) throws { try element().encodeValue(value) }
    mutating func encode(_ value: Int64) throws { try element().encodeValue(value) }
    mutating func encode(_ value: UInt) throws { try element().encodeValue(value) }
    mutating func encode(_ value: UInt8) throws { try element().encodeValue(value) }
    mutating func encode(_ value: UInt16) throws { try element().encodeValue(value) }
    mutating func encode(_ value: UInt32) throws { try element().encodeValue(value) }
    mutating func encode(_ value: UInt64) throws { try element().encodeValue(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try element().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        element().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { element().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { element() }
}

private struct FormSingleValueContainer: SingleValueEncodingContainer {
    let encoder: FormValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func write(_ text: String) { encoder.box.content = .value(text) }

    mutating func encodeNil() throws { encoder.box.content = .null }
    mutating func encode(_ value: Bool) throws { write(encoder.text(of: value)) }
    mutating func encode(_ value: String) throws { write(value) }
    mutating func encode(_ value: Double) throws { write(try encoder.text(of: value)) }
    mutating func encode(_ value: Float) throws { write(try encoder.text(of: value)) }
    mutating func encode(_ value: Int) throws { write(value.description) }
    mutating func encode(_ value: Int8) throws { write(value.description) }
    mutating func encode(_ value: Int16) throws { write(value.description) }
    mutating func encode(_ value: Int32) throws { write(value.description) }
    mutating func encode(_ value: Int64) throws { write(value.description) }
    mutating func encode(_ value: UInt) throws { write(value.description) }
    mutating func encode(_ value: UInt8) throws { write(value.description) }
    mutating func encode(_ value: UInt16) throws { write(value.description) }
    mutating func encode(_ value: UInt32) throws { write(value.description) }
    mutating func encode(_ value: UInt64) throws { write(value.description) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

/// The coding key of an array element (and of `super`).
private struct FormIndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}
