/// HTTP header fields: ordered, with names compared without regard to case.
///
/// ```swift
/// var headers: PrismHTTPHeaders = ["Accept": "application/json"]
/// headers["accept"]                       // "application/json"
/// headers["Authorization"] = "Bearer abc"
/// ```
public struct PrismHTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name, as it was given.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates headers from fields, in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from a dictionary (in the dictionary's order).
    public init(_ dictionary: [String: String]) {
        self.fields = dictionary.map { Field(name: $0.key, value: $0.value) }
    }

    /// Creates headers from name/value pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the field called `name` (any case); setting replaces every field of
    /// that name, and `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveEquals(name) }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Every value of the field called `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Adds a field, keeping any of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Whether a field called `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// The fields as a dictionary (later fields of a repeated name are joined with ", ").
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        for field in fields {
            if let key = result.keys.first(where: { $0.caseInsensitiveEquals(field.name) }) {
                result[key] = result[key]! + ", " + field.value
            } else {
                result[field.name] = field.value
            }
        }
        return result
    }

    /// `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension String {
    /// Whether the strings are equal with ASCII letters compared without regard to case (field
    /// names are ASCII tokens), byte by byte, without lowercasing either.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        for (left, right) in zip(utf8, other.utf8) where left != right {
            let lower = left | 0x20
            guard lower == right | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        }
        return true
    }
}
