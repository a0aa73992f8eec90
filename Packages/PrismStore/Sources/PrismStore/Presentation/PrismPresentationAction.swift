/// What a parent hears of a feature it presents (a sheet, an alert): an action of the presented
/// feature, or its dismissal.
///
/// ```swift
/// enum AppAction {
///     case editor(PrismPresentationAction<EditorAction>)
///     case alert(PrismPresentationAction<AlertAction>)
/// }
/// ```
public enum PrismPresentationAction<Action: Sendable>: Sendable {
    /// An action of the presented feature (for an alert: the action of the button tapped).
    case presented(Action)
    /// The presented feature is dismissed: by the parent, by the user (a sheet swiped away), or
    /// by the feature itself (`dismiss()`). The parent's reducer sees it before the feature goes.
    case dismiss

    /// The presented feature's action, if this is one.
    public var presented: Action? {
        if case .presented(let action) = self { return action }
        return nil
    }
}

extension PrismPresentationAction: Equatable where Action: Equatable {}
extension PrismPresentationAction: Hashable where Action: Hashable {}
extension PrismPresentationAction: Codable where Action: Codable {}
