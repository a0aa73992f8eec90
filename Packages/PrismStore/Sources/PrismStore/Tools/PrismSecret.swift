/// A type whose values are secret: tools that show state (PrismInspector, descriptions in
/// logs) show them redacted.
///
/// Conform a type whose every value is secret:
///
/// ```swift
/// struct AccessToken: PrismSecretValue, Codable, Sendable {
///     var rawValue: String
/// }
/// ```
///
/// or mark one property with ``PrismSecret``. Conforming changes nothing else: the value is
/// stored, compared and encoded as before.
public protocol PrismSecretValue {}

/// Marks a property of a state or an action as secret: PrismInspector shows it redacted, and
/// so do `print`, `String(describing:)` and `dump` of the value that holds it.
///
/// ```swift
/// struct SessionState: Sendable, Equatable, Codable {
///     var user = "ada"
///     @PrismSecret var password = ""
/// }
/// ```
///
/// The wrapped value is untouched: it is compared, hashed and encoded (as the bare value, so
/// persisted files and session recordings keep their shape) like the value itself. Redaction
/// is for what is shown, not for what is stored: a ``PrismSessionRecording`` written to a
/// file holds the secret in clear.
@propertyWrapper
public struct PrismSecret<Value>: PrismSecretValue {
    /// The secret value.
    public var wrappedValue: Value

    /// Marks `wrappedValue` as secret.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension PrismSecret: Sendable where Value: Sendable {}
extension PrismSecret: Equatable where Value: Equatable {}
extension PrismSecret: Hashable where Value: Hashable {}

extension PrismSecret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `‹redacted›`, whatever the value.
    public var description: String { "‹redacted›" }

    /// `‹redacted›`, whatever the value.
    public var debugDescription: String { "‹redacted›" }

    /// A mirror with no children, so that `dump` and reflection show nothing of the value.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}

extension PrismSecret: Encodable where Value: Encodable {
    /// Encodes the bare value.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

extension PrismSecret: Decodable where Value: Decodable {
    /// Decodes the bare value.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try Value(from: decoder)
    }
}
