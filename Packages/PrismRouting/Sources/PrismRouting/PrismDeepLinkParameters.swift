import Foundation

/// The parameters of a URL that matched a deep-link pattern, read with the type the handler
/// needs.
///
/// A handler reads the path parameters (`:id`) and query parameters (`page=`) that its pattern
/// declares. Values are percent-decoded. ``value(_:as:)`` requires a parameter;
/// ``optionalValue(_:as:)`` accepts its absence. A query parameter given empty (`?page=`) counts
/// as absent.
///
/// ```swift
/// links.register("/users/:id/repos?page=") { parameters in
///     let id: Int = try parameters.value("id")
///     let page = try parameters.optionalValue("page", as: Int.self) ?? 1
///     return [.user(id: id), .repositories(userID: id, page: page)]
/// }
/// ```
///
/// Every failure is a ``PrismRoutingError`` that names the parameter; the handler can let it
/// propagate, and the URL then changes nothing.
public struct PrismDeepLinkParameters: Sendable {
    /// The URL being handled.
    public let url: URL
    /// The pattern that matched, as registered.
    public let pattern: String
    /// Every query item of the URL, percent-decoded, including the ones the pattern does not
    /// declare (such as tracking parameters). When a name repeats, the first value is kept.
    public let query: [String: String]

    private let pathValues: [String: String]
    private let declaredQueryNames: Set<String>

    init(url: URL, pattern: DeepLinkPattern, pathValues: [String: String], query: [String: String]) {
        self.url = url
        self.pattern = pattern.text
        self.query = query
        self.pathValues = pathValues
        self.declaredQueryNames = Set(pattern.queryNames)
    }

    /// The parameter called `name`, converted to `Value`.
    ///
    /// ```swift
    /// let id: Int = try parameters.value("id")
    /// let id = try parameters.value("id", as: Int.self)
    /// ```
    ///
    /// - Throws: ``PrismRoutingError`` with code ``PrismRoutingError/Code/missingParameter`` when
    ///   the URL does not carry it, ``PrismRoutingError/Code/malformedParameter`` when its text is
    ///   not a `Value`, ``PrismRoutingError/Code/undeclaredParameter`` when the pattern does not
    ///   declare it.
    public func value<Value: PrismDeepLinkValue>(
        _ name: String,
        as type: Value.Type = Value.self
    ) throws(PrismRoutingError) -> Value {
        guard let value = try optionalValue(name, as: type) else {
            throw PrismRoutingError(
                .missingParameter,
                "the required parameter \"\(name)\" of \"\(pattern)\" is missing",
                url: url,
                parameter: name
            )
        }
        return value
    }

    /// The parameter called `name`, converted to `Value`, or `nil` when the URL does not carry
    /// it or carries it empty.
    ///
    /// ```swift
    /// let page = try parameters.optionalValue("page", as: Int.self) ?? 1
    /// ```
    ///
    /// - Throws: ``PrismRoutingError`` with code ``PrismRoutingError/Code/malformedParameter`` when
    ///   the parameter is present but its text is not a `Value`, and
    ///   ``PrismRoutingError/Code/undeclaredParameter`` when the pattern does not declare it.
    public func optionalValue<Value: PrismDeepLinkValue>(
        _ name: String,
        as type: Value.Type = Value.self
    ) throws(PrismRoutingError) -> Value? {
        let text: String?
        if let pathValue = pathValues[name] {
            text = pathValue
        } else if declaredQueryNames.contains(name) {
            text = query[name]
        } else {
            throw PrismRoutingError(
                .undeclaredParameter,
                """
                the handler of "\(pattern)" reads "\(name)", which the pattern does not declare: \
                add ":\(name)" to its path or "\(name)=" to its query
                """,
                url: url,
                parameter: name
            )
        }
        guard let text, !text.isEmpty else { return nil }
        guard let value = Value(deepLinkText: text) else {
            throw PrismRoutingError(
                .malformedParameter,
                "the parameter \"\(name)\" is \"\(text)\", which is not a valid \(Value.self)",
                url: url,
                parameter: name,
                value: text
            )
        }
        return value
    }
}
