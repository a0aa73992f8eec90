/// What a parent hears of the features of its ``PrismStackState``: an action of one element, a
/// push (SwiftUI's `NavigationLink(value:)`), or a pop (the back button, a swipe, or an
/// element's own `dismiss()`).
public enum PrismStackAction<State: Sendable, Action: Sendable>: Sendable {
    /// An action of the element under `id`.
    case element(id: PrismStackElementID, action: Action)
    /// `state` pushed on top under `id`.
    case push(id: PrismStackElementID, state: State)
    /// The element under `id` popped, with everything above it.
    case popFrom(id: PrismStackElementID)

    /// The element's id and action, if this is an element's action.
    public var element: (id: PrismStackElementID, action: Action)? {
        if case .element(let id, let action) = self { return (id, action) }
        return nil
    }
}

extension PrismStackAction: Equatable where State: Equatable, Action: Equatable {}
extension PrismStackAction: Hashable where State: Hashable, Action: Hashable {}
