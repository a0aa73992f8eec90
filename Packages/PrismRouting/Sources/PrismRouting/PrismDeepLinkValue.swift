import Foundation

/// A type that a deep-link parameter can be read as.
///
/// ``PrismDeepLinkParameters/value(_:as:)`` converts the parameter's percent-decoded text with
/// ``init(deepLinkText:)``; `nil` makes the link fail with
/// ``PrismRoutingError/Code/malformedParameter``.
///
/// `String`, `Int`, `Int64`, `UInt`, `Double`, `Bool` and `UUID` conform. A `RawRepresentable`
/// type whose raw value conforms gets the conversion for free, so a string enum needs only the
/// declaration:
///
/// ```swift
/// enum Tab: String, PrismDeepLinkValue { case inbox, archive }
///
/// let tab: Tab = try parameters.value("tab")  // "/tabs/:tab" with "/tabs/inbox"
/// ```
public protocol PrismDeepLinkValue: Sendable {
    /// Creates a value from a parameter's percent-decoded text, or returns `nil` when the text
    /// is not a valid value of this type.
    init?(deepLinkText text: String)
}

extension PrismDeepLinkValue where Self: RawRepresentable, RawValue: PrismDeepLinkValue {
    /// Reads the raw value, then the case that has it.
    public init?(deepLinkText text: String) {
        guard let rawValue = RawValue(deepLinkText: text) else { return nil }
        self.init(rawValue: rawValue)
    }
}

extension String: PrismDeepLinkValue {
    /// The text itself.
    public init?(deepLinkText text: String) {
        self = text
    }
}

extension Int: PrismDeepLinkValue {
    /// A decimal integer such as `42` or `-7`.
    public init?(deepLinkText text: String) {
        self.init(text, radix: 10)
    }
}

extension Int64: PrismDeepLinkValue {
    /// A decimal integer such as `42` or `-7`.
    public init?(deepLinkText text: String) {
        self.init(text, radix: 10)
    }
}

extension UInt: PrismDeepLinkValue {
    /// A decimal integer of 0 or more.
    public init?(deepLinkText text: String) {
        self.init(text, radix: 10)
    }
}

extension Double: PrismDeepLinkValue {
    /// A finite decimal number such as `2.5`; `nan` and `inf` are rejected.
    public init?(deepLinkText text: String) {
        guard let value = Double(text), value.isFinite else { return nil }
        self = value
    }
}

extension Bool: PrismDeepLinkValue {
    /// `true` or `1`, `false` or `0`.
    public init?(deepLinkText text: String) {
        switch text {
        case "true", "1": self = true
        case "false", "0": self = false
        default: return nil
        }
    }
}

extension UUID: PrismDeepLinkValue {
    /// A UUID in its usual form, such as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, in either case.
    public init?(deepLinkText text: String) {
        self.init(uuidString: text)
    }
}
