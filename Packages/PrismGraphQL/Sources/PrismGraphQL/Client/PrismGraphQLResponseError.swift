/// One entry of a response's `errors`: what the server said went wrong with the request or
/// with one field. It is data, not a thrown error; ``PrismGraphQLResponse/requireData()``
/// throws when you would rather treat it as one.
///
/// ```swift
/// for error in response.errors ?? [] {
///     print(error.message, error.path ?? [], error.code ?? "")
///     // "failingField always fails" [failingField] ""
/// }
/// ```
public struct PrismGraphQLResponseError: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A place in the GraphQL document, counted from 1.
    public struct Location: Sendable, Hashable, Codable {
        /// The line, from 1.
        public var line: Int
        /// The column, from 1.
        public var column: Int

        /// Creates a location.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// One step of a path into the response's `data`: a field name or a list index.
    public enum PathElement: Sendable, Hashable, Codable, CustomStringConvertible {
        /// A field, by its name (or alias).
        case key(String)
        /// An element of a list.
        case index(Int)

        /// Decodes a string (a field) or an integer (an index).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let index = try? container.decode(Int.self) {
                self = .index(index)
            } else {
                self = .key(try container.decode(String.self))
            }
        }

        /// Encodes the field name or the index.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .key(let key): try container.encode(key)
            case .index(let index): try container.encode(index)
            }
        }

        /// The name, or the index in brackets.
        public var description: String {
            switch self {
            case .key(let key): return key
            case .index(let index): return "[\(index)]"
            }
        }
    }

    /// What went wrong, for a developer.
    public var message: String
    /// Where in the document the error arose, when the server says.
    public var locations: [Location]?
    /// The path to the field that failed, for a field error.
    public var path: [PathElement]?
    /// Anything else the server added (`code`, say).
    public var extensions: [String: PrismGraphQLValue]?

    /// Creates an error.
    public init(
        message: String,
        locations: [Location]? = nil,
        path: [PathElement]? = nil,
        extensions: [String: PrismGraphQLValue]? = nil
    ) {
        self.message = message
        self.locations = locations
        self.path = path
        self.extensions = extensions
    }

    /// `extensions.code`, the machine-readable kind of error many servers add
    /// (`PERSISTED_QUERY_NOT_FOUND`, `BAD_USER_INPUT`...).
    public var code: String? {
        extensions?["code"]?.stringValue
    }

    /// The message, then the path when there is one: `failingField always fails (at failingField)`.
    public var description: String {
        guard let path, !path.isEmpty else { return message }
        return "\(message) (at \(path.map(\.description).joined(separator: ".")))"
    }
}
