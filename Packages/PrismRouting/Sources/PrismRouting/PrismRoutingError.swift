import Foundation

/// The error every throwing API of PrismRouting reports: a ``code`` to switch on and the
/// context that explains it.
///
/// A navigation request that fails changes nothing: the router or state keeps the value it had
/// before the call, and observers are not notified.
///
/// ```swift
/// do {
///     try router.open(url, with: deepLinks)
/// } catch {
///     switch error.code {
///     case .unknownURL: log("No screen for \(error.url!)")
///     case .missingParameter, .malformedParameter: log("Bad \(error.parameter!) in \(error.url!)")
///     default: log(error.description)
///     }
/// }
/// ```
///
/// New codes may be added in later versions; keep a `default` branch when you switch on them.
public struct PrismRoutingError: Error, CustomStringConvertible {
    /// What kind of failure an error reports.
    ///
    /// A struct with a constant per kind rather than an enum, so that kinds can be added without
    /// breaking code that switches on them.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The name of the code, as written in Swift (`"unknownURL"`).
        public let description: String

        private init(_ description: String) {
            self.description = description
        }

        /// ``PrismRouter/pop(to:)`` or ``PrismNavigationAction/popTo(_:)`` asked for a route that
        /// is not in the stack. ``PrismRoutingError/value`` describes the route.
        public static let routeNotInStack = Code("routeNotInStack")

        /// The URL has a scheme or host that the ``PrismDeepLinks`` do not accept.
        public static let unsupportedURL = Code("unsupportedURL")
        /// The URL cannot be read: a path or query with a broken percent escape.
        public static let invalidURL = Code("invalidURL")
        /// No registered pattern matches the URL's path.
        public static let unknownURL = Code("unknownURL")
        /// The handler asked for a parameter that the URL does not carry (or carries empty).
        /// ``PrismRoutingError/parameter`` names it.
        public static let missingParameter = Code("missingParameter")
        /// A parameter's value cannot be read as the type the handler asked for, such as `abc`
        /// for an `Int`. ``PrismRoutingError/parameter`` and ``PrismRoutingError/value`` say which.
        public static let malformedParameter = Code("malformedParameter")
        /// The handler asked for a parameter that its pattern does not declare: add `:name` to
        /// the path or `name=` to the query of the pattern.
        public static let undeclaredParameter = Code("undeclaredParameter")
        /// The deep link's handler threw an error of its own, found in
        /// ``PrismRoutingError/underlying``.
        public static let handlerFailed = Code("handlerFailed")

        /// A deep link asked for as a stack of screens (``PrismDeepLinks/stack(for:_:)``) shows
        /// a sheet or a full-screen cover, which a stack cannot hold; open it with
        /// ``PrismDeepLinks/navigationState(for:)``. ``PrismRoutingError/value`` describes the
        /// modal route.
        public static let modalInStack = Code("modalInStack")
        /// Saved navigation state is not a navigation envelope: not JSON, or missing its
        /// `version` or `stack`.
        public static let corruptData = Code("corruptData")
        /// Saved navigation state was written by a newer version of the envelope format than this
        /// build reads. ``PrismRoutingError/value`` is the version found.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// Saved navigation state holds a route that no longer decodes, typically one saved by an
        /// older version of the app. ``PrismRoutingError/value`` says where it was (`stack[1]`).
        public static let undecodableRoute = Code("undecodableRoute")
        /// The navigation state could not be encoded, because a route's `encode(to:)` threw.
        public static let encodingFailed = Code("encodingFailed")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A sentence that says what went wrong, without the code.
    public let message: String
    /// The deep link being handled, if the error is about one.
    public let url: URL?
    /// The name of the deep-link parameter at fault, if any.
    public let parameter: String?
    /// The offending value: a parameter's raw text, the route that was not found, the version
    /// or location of saved state that failed to decode.
    public let value: String?
    /// The error that caused this one: a handler's error, a `DecodingError`, an `EncodingError`.
    public let underlying: (any Error)?

    /// The error that caused this one: the former name of ``underlying``, which every Prism
    /// error now uses.
    @available(*, deprecated, renamed: "underlying")
    public var underlyingError: (any Error)? { underlying }

    init(
        _ code: Code,
        _ message: String,
        url: URL? = nil,
        parameter: String? = nil,
        value: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.parameter = parameter
        self.value = value
        self.underlying = underlying
    }

    /// The code, the message and the context, in one line.
    ///
    /// For example: `PrismRoutingError.malformedParameter: parameter "id" is "abc", which is not
    /// an Int (url: myapp://users/abc)`.
    public var description: String {
        var text = "PrismRoutingError.\(code): \(message)"
        var context: [String] = []
        if let url { context.append("url: \(url.absoluteString)") }
        if let underlying { context.append("underlying error: \(underlying)") }
        if !context.isEmpty { text += " (\(context.joined(separator: "; ")))" }
        return text
    }

    func with(url: URL) -> PrismRoutingError {
        PrismRoutingError(
            code,
            message,
            url: self.url ?? url,
            parameter: parameter,
            value: value,
            underlying: underlying
        )
    }
}
