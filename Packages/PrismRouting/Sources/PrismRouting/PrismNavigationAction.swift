/// A navigation request as a value, for navigation that goes through a reducer.
///
/// Send these from views like any other action of your feature; the reducer hands them to
/// ``PrismNavigationState/apply(_:)``. Each case does what the ``PrismNavigationState`` method
/// of the same name does.
///
/// ```swift
/// store.send(.navigation(.push(.detail(id: "42"))))
/// store.send(.navigation(.popTo(.home)))
/// ```
///
/// The action is `Codable` when the route is, so that session recordings can hold it.
public enum PrismNavigationAction<Route: PrismRoutable>: Hashable, Sendable {
    /// Pushes the route on top of the stack.
    case push(Route)
    /// Presents the route as a sheet, replacing any sheet that is up.
    case present(Route)
    /// Presents the route as a full-screen cover, replacing any cover that is up.
    case fullScreen(Route)
    /// Removes the topmost layer: the cover, else the sheet, else the top of the stack.
    case dismiss
    /// Returns to the root screen: empty stack, no sheet, no cover.
    case root
    /// Pops up to this many screens from the stack, stopping at the root. The count must not be
    /// negative.
    case pop(count: Int)
    /// Pops the screens above the topmost occurrence of the route; fails with
    /// ``PrismRoutingError/Code/routeNotInStack`` when the route is not in the stack.
    case popTo(Route)
    /// Replaces the whole stack in one change.
    case setPath([Route])
    /// Replaces the whole navigation state in one change, for example with the state a deep link
    /// resolved to (``PrismDeepLinks/navigationState(for:)``).
    case setState(PrismNavigationState<Route>)
}

extension PrismNavigationAction: Codable where Route: Codable {}
