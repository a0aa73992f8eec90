import Foundation

/// The URLs your app opens, each mapped by a pattern to the navigation state it shows.
///
/// Register patterns with ``register(_:_:)``, then turn a URL into a whole
/// ``PrismNavigationState``, or open it on a router in one change:
///
/// ```swift
/// var links = PrismDeepLinks<AppRoute>(schemes: ["myapp"], hosts: ["example.com"])
/// links.register("/settings") { _ in [.settings] }
/// links.register("/users/:id") { parameters in
///     [.user(id: try parameters.value("id"))]
/// }
/// links.register("/users/:id/repos?page=") { parameters in
///     let id: Int = try parameters.value("id")
///     let page = try parameters.optionalValue("page", as: Int.self) ?? 1
///     return [.user(id: id), .repositories(userID: id, page: page)]
/// }
///
/// try router.open(URL(string: "myapp://users/42/repos?page=2")!, with: links)
/// // router.stack == [.user(id: 42), .repositories(userID: 42, page: 2)]
/// ```
///
/// ## Patterns
/// A pattern is a path whose segments are literals (`users`) or parameters (`:id`), optionally
/// followed by the query parameters it reads (`?page=&sort=`). Parameters are read in the
/// handler with ``PrismDeepLinkParameters/value(_:as:)`` (required) or
/// ``PrismDeepLinkParameters/optionalValue(_:as:)`` (optional), as any ``PrismDeepLinkValue``.
///
/// When several patterns match a URL, the one with a literal where the others have a parameter
/// wins, comparing segments from the left: `/users/new` beats `/users/:id` for `/users/new`,
/// whatever the order of registration.
///
/// ## URLs
/// - Path segments and query items are percent-decoded; `%2F` stays inside its segment. Empty
///   segments are ignored, so `/users/42/` and `/users//42` are `/users/42`. Literals are compared
///   exactly, case included, with the decoded text: write `/café` in a pattern, not `/caf%C3%A9`.
///   A `+` in a query stays a `+`, as in `URLComponents`. The fragment is ignored.
/// - A custom scheme listed in `schemes` (compared without case) reads its host as the first
///   segment: `myapp://users/42` is `/users/42`; `myapp:///users/42` is too. A listed host after
///   a custom scheme is skipped: `myapp://example.com/users/42` is `/users/42`.
/// - `http` and `https` URLs need a host listed in `hosts` (compared without case):
///   `https://example.com/users/42` is `/users/42`.
/// - A URL with no scheme and no host (`/users/42`) is a path and is always accepted.
///
/// A URL that is not accepted, matches no pattern, or lacks or garbles a parameter is a
/// ``PrismRoutingError``, and nothing changes.
public struct PrismDeepLinks<Route: PrismRoutable>: Sendable {
    /// The function that turns a matched URL's parameters into the navigation state to show.
    ///
    /// Return an array literal for a stack (`[.user(id: id)]`), or a full
    /// ``PrismNavigationState`` to present a sheet or cover too. An error thrown by the handler
    /// fails the link: a ``PrismRoutingError`` as it is, any other as
    /// ``PrismRoutingError/Code/handlerFailed``.
    public typealias Handler = @Sendable (PrismDeepLinkParameters) throws -> PrismNavigationState<Route>

    private struct Entry: Sendable {
        let pattern: DeepLinkPattern
        let handler: Handler
    }

    /// The custom URL schemes accepted, lowercased, such as `myapp`.
    public let schemes: Set<String>
    /// The hosts accepted for `http` and `https` URLs, lowercased, such as `example.com`.
    public let hosts: Set<String>
    private var entries: [Entry] = []

    /// Creates an empty set of deep links that accepts URLs with one of `schemes` (custom
    /// schemes such as `"myapp"`), `http` and `https` URLs on one of `hosts`, and bare paths.
    ///
    /// - Precondition: `schemes` does not list `http` or `https`: list web hosts in `hosts`.
    public init(schemes: Set<String> = [], hosts: Set<String> = []) {
        let schemes = Set(schemes.map { $0.lowercased() })
        precondition(
            schemes.isDisjoint(with: DeepLinkRequest.webSchemes),
            "PrismDeepLinks(schemes:) lists custom schemes only: pass web hosts such as \"example.com\" in hosts:."
        )
        self.schemes = schemes
        self.hosts = Set(hosts.map { $0.lowercased() })
    }

    /// The registered patterns, in the order they were registered.
    public var patterns: [String] { entries.map(\.pattern.text) }

    /// Registers `pattern`, whose matching URLs show the state `handler` returns.
    ///
    /// ```swift
    /// links.register("/users/:id/repos?page=") { parameters in
    ///     let id: Int = try parameters.value("id")
    ///     return [.user(id: id), .repositories(userID: id, page: try parameters.optionalValue("page") ?? 1)]
    /// }
    /// ```
    ///
    /// - Precondition: `pattern` is a path (no scheme or fragment) whose parameters have distinct
    ///   names made of letters, digits, `_` and `-`, whose query parameters have no value
    ///   (`page=`), and that matches different URLs than every pattern registered before
    ///   (`/users/:id` and `/users/:name` would match the same ones).
    public mutating func register(_ pattern: String, _ handler: @escaping Handler) {
        let parsed = DeepLinkPattern(pattern)
        if let twin = entries.first(where: { $0.pattern.shape == parsed.shape }) {
            preconditionFailure(
                """
                Deep-link pattern "\(pattern)" matches the same URLs as "\(twin.pattern.text)", registered \
                before: keep one of them, or make their literal segments differ.
                """
            )
        }
        entries.append(Entry(pattern: parsed, handler: handler))
    }

    /// The navigation state that `url` shows.
    ///
    /// - Throws: ``PrismRoutingError``: ``PrismRoutingError/Code/unsupportedURL`` for a scheme or
    ///   host not accepted, ``PrismRoutingError/Code/invalidURL`` for a broken escape,
    ///   ``PrismRoutingError/Code/unknownURL`` when no pattern matches, and the errors of the
    ///   handler (``PrismRoutingError/Code/missingParameter``,
    ///   ``PrismRoutingError/Code/malformedParameter``, ...).
    public func navigationState(for url: URL) throws(PrismRoutingError) -> PrismNavigationState<Route> {
        let request = try DeepLinkRequest(url, schemes: schemes, hosts: hosts)
        var best: (entry: Entry, values: [String: String])?
        for entry in entries {
            guard let values = entry.pattern.match(request.path) else { continue }
            if let current = best, !entry.pattern.isMoreSpecific(than: current.entry.pattern) { continue }
            best = (entry, values)
        }
        guard let (entry, values) = best else {
            throw PrismRoutingError(
                .unknownURL,
                "no deep-link pattern matches the path /\(request.path.joined(separator: "/"))",
                url: url
            )
        }
        let parameters = PrismDeepLinkParameters(
            url: url,
            pattern: entry.pattern,
            pathValues: values,
            query: request.query
        )
        do {
            return try entry.handler(parameters)
        } catch let error as PrismRoutingError {
            throw error.with(url: url)
        } catch {
            throw PrismRoutingError(
                .handlerFailed,
                "the handler of \"\(entry.pattern.text)\" threw an error",
                url: url,
                underlying: error
            )
        }
    }
}

extension PrismDeepLinks {
    /// The stack of screens `url` shows, bottom first, each made from its route by `screen`: what
    /// a store's navigation stack of features is replaced with, so that one link opens a whole
    /// stack in one change.
    ///
    /// ```swift
    /// case .openURL(let url):
    ///     do {
    ///         state.path.replace(with: try AppLinks.all.stack(for: url) { route in Screen.State(route) })
    ///     } catch {
    ///         state.alert = PrismAlertState(title: "Cannot open \(url)", message: error.message)
    ///     }
    /// ```
    ///
    /// `PrismStackState.replace(with:)` gives every screen a new id, so what the replaced
    /// screens' effects still send reaches none of the new ones.
    ///
    /// - Throws: the errors of ``navigationState(for:)``; ``PrismRoutingError/Code/modalInStack``
    ///   when the link shows a sheet or a cover; ``PrismRoutingError/Code/handlerFailed`` when
    ///   `screen` throws (its error in ``PrismRoutingError/underlying``). Nothing is made then.
    public func stack<Screen>(for url: URL, _ screen: (Route) throws -> Screen) throws(PrismRoutingError)
        -> [Screen]
    {
        let state = try navigationState(for: url)
        if let modal = state.sheet ?? state.fullScreenCover {
            throw PrismRoutingError(
                .modalInStack,
                "the deep link shows \(modal) in a \(state.sheet != nil ? "sheet" : "full-screen cover"), which a stack of screens cannot hold",
                url: url, value: String(describing: modal))
        }
        do {
            return try state.stack.map(screen)
        } catch {
            throw PrismRoutingError(
                .handlerFailed, "making a screen of the deep link's stack threw an error", url: url, underlying: error)
        }
    }
}
