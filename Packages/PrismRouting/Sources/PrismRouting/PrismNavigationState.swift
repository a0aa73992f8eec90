/// Where the app is: a push stack, a sheet and a full-screen cover, as a plain value.
///
/// ``PrismRouter`` keeps one of these and observes it for you. Hold one in a feature's state
/// instead when navigation should go through your reducer, so that tests, time travel and
/// session recordings see it like any other state:
///
/// ```swift
/// struct AppState: Equatable, Sendable {
///     var navigation = PrismNavigationState<AppRoute>()
///     var lastNavigationError: String?
/// }
///
/// enum AppAction: Sendable {
///     case navigation(PrismNavigationAction<AppRoute>)
///     case userTapped(id: String)
/// }
///
/// struct AppReducer: PrismReducer {
///     func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
///         switch action {
///         case .navigation(let action):
///             do {
///                 try state.navigation.apply(action)
///             } catch {
///                 state.lastNavigationError = error.description
///             }
///             return .none
///         case .userTapped(let id):
///             state.navigation.push(.detail(id: id))
///             return .none
///         }
///     }
/// }
/// ```
///
/// Every operation is a `mutating` method, and each has a ``PrismNavigationAction`` that
/// ``apply(_:)`` performs with the same code. An operation that cannot be performed throws and
/// leaves the value unchanged.
///
/// The layers, bottom to top: the ``stack`` (the root screen is not in it; an empty stack shows
/// the root), then the ``sheet``, then the ``fullScreenCover``. ``dismiss()`` removes the
/// topmost layer that is showing.
public struct PrismNavigationState<Route: PrismRoutable>: Hashable, Sendable {
    /// The screens pushed on top of the root screen, first pushed first; the last is on top.
    ///
    /// Bind it to SwiftUI's `NavigationStack(path:)`.
    public var stack: [Route]
    /// The route presented as a sheet, or `nil` when no sheet is up.
    public var sheet: Route?
    /// The route presented as a full-screen cover, or `nil` when no cover is up.
    ///
    /// SwiftUI has full-screen covers on iOS, tvOS, watchOS and visionOS; on macOS,
    /// `PrismNavigationStack` shows the cover as a sheet.
    public var fullScreenCover: Route?

    /// Creates the state of the root screen: nothing pushed, nothing presented.
    public init() {
        self.init(stack: [])
    }

    /// Creates a navigation state; the default is the root screen with nothing presented.
    ///
    /// ```swift
    /// let state = PrismNavigationState<AppRoute>(stack: [.detail(id: "42")], sheet: .settings)
    /// ```
    public init(stack: [Route] = [], sheet: Route? = nil, fullScreenCover: Route? = nil) {
        self.stack = stack
        self.sheet = sheet
        self.fullScreenCover = fullScreenCover
    }

    /// The route on top, checking the stack first, then the full-screen cover, then the sheet.
    ///
    /// This is the order the Prism documentation gives: the top of a non-empty stack wins even
    /// when a sheet or cover is presented over it, and `nil` means the root with nothing
    /// presented. For the route that is in front of the user (cover, then sheet, then stack:
    /// the one ``dismiss()`` removes), use ``frontmostRoute``.
    public var topRoute: Route? {
        stack.last ?? fullScreenCover ?? sheet
    }

    /// The route in front of the user: the full-screen cover, else the sheet, else the top of the
    /// stack; `nil` at the root with nothing presented.
    ///
    /// This is the route ``dismiss()`` removes.
    public var frontmostRoute: Route? {
        fullScreenCover ?? sheet ?? stack.last
    }

    /// Whether the root screen is showing: nothing pushed and nothing presented.
    public var isAtRoot: Bool {
        stack.isEmpty && sheet == nil && fullScreenCover == nil
    }
}

extension PrismNavigationState: ExpressibleByArrayLiteral {
    /// Creates a state whose stack is the routes listed, with nothing presented.
    ///
    /// Handy where a whole state is expected, such as a deep link's handler:
    ///
    /// ```swift
    /// let state: PrismNavigationState<AppRoute> = [.home, .detail(id: "42")]
    /// ```
    public init(arrayLiteral routes: Route...) {
        self.init(stack: routes)
    }
}

// MARK: - Operations

extension PrismNavigationState {
    /// Pushes `route` on top of the stack.
    ///
    /// The stack is the root stack: pushing while a sheet or cover is presented changes what
    /// is under it, not what is inside it.
    public mutating func push(_ route: Route) {
        stack.append(route)
    }

    /// Presents `route` as a sheet, replacing the sheet that was up, if any.
    ///
    /// A full-screen cover that is up stays up, in front of the sheet.
    public mutating func present(_ route: Route) {
        sheet = route
    }

    /// Presents `route` as a full-screen cover, replacing the cover that was up, if any.
    public mutating func fullScreen(_ route: Route) {
        fullScreenCover = route
    }

    /// Removes the topmost layer: the full-screen cover if one is up, else the sheet if one is up,
    /// else the top screen of the stack. At the root with nothing presented, does nothing.
    public mutating func dismiss() {
        if fullScreenCover != nil {
            fullScreenCover = nil
        } else if sheet != nil {
            sheet = nil
        } else if !stack.isEmpty {
            stack.removeLast()
        }
    }

    /// Returns to the root screen: empties the stack and dismisses the sheet and the cover.
    public mutating func root() {
        self = PrismNavigationState()
    }

    /// Pops the top screen of the stack and returns it, or returns `nil` when the stack is empty.
    ///
    /// Only the stack changes: a sheet or cover that is up stays up.
    @discardableResult
    public mutating func pop() -> Route? {
        stack.popLast()
    }

    /// Pops up to `count` screens from the top of the stack and returns them, topmost first.
    ///
    /// Popping more screens than the stack holds stops at the root; the result says how many
    /// were popped. Only the stack changes.
    ///
    /// - Precondition: `count` is not negative.
    @discardableResult
    public mutating func pop(count: Int) -> [Route] {
        precondition(count >= 0, "pop(count:) needs a count of 0 or more, not \(count)")
        let removed = min(count, stack.count)
        let popped = stack.suffix(removed)
        stack.removeLast(removed)
        return popped.reversed()
    }

    /// Pops the screens above the topmost occurrence of `route`, leaving `route` on top of the
    /// stack.
    ///
    /// Only the stack changes. When `route` is already on top, nothing changes.
    ///
    /// - Throws: ``PrismRoutingError`` with code ``PrismRoutingError/Code/routeNotInStack`` when
    ///   `route` is not in the stack; the state is then unchanged.
    public mutating func pop(to route: Route) throws(PrismRoutingError) {
        guard let index = stack.lastIndex(of: route) else {
            throw PrismRoutingError(
                .routeNotInStack,
                "cannot pop to \(route): it is not in the stack (\(stack.count) screens)",
                value: String(describing: route)
            )
        }
        stack.removeSubrange((index + 1)...)
    }

    /// Replaces the whole stack with `routes` in one change, leaving the sheet and cover as they
    /// are.
    ///
    /// ```swift
    /// state.setPath([.home, .detail(id: "42"), .settings])
    /// ```
    public mutating func setPath(_ routes: [Route]) {
        stack = routes
    }

    /// Performs `action`: the same change as the method of the same name.
    ///
    /// - Throws: ``PrismRoutingError`` when the action cannot be performed (``PrismNavigationAction/popTo(_:)``
    ///   with a route that is not in the stack); the state is then unchanged.
    public mutating func apply(_ action: PrismNavigationAction<Route>) throws(PrismRoutingError) {
        switch action {
        case .push(let route): push(route)
        case .present(let route): present(route)
        case .fullScreen(let route): fullScreen(route)
        case .dismiss: dismiss()
        case .root: root()
        case .pop(let count): pop(count: count)
        case .popTo(let route): try pop(to: route)
        case .setPath(let routes): setPath(routes)
        case .setState(let state): self = state
        }
    }
}
