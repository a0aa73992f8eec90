import CasePathsCore
import IssueReporting
import PrismEffects

extension PrismReducer {
    /// Runs a feature for each element of a navigation stack (``PrismStackState``): an element's
    /// actions reach it only while it is in the stack, it can pop itself (`@Dependency(\.dismiss)`),
    /// and its effects end when it is popped.
    ///
    /// ```swift
    /// AppCore()
    ///     .forEach(\.path, action: AppAction.path, toStackAction: { $0.path }) {
    ///         ScreenFeature()
    ///     }
    /// ```
    ///
    /// | Action | What happens |
    /// |---|---|
    /// | `.element(id:action:)` for an element in the stack | the element reduces it, then the parent sees it |
    /// | `.element(id:action:)` for one popped (an effect that finished as it was popped), or never pushed | dropped, with a runtime warning that names the action, the id and this line; the parent still sees it. Ids are never reused, so it can never reach another screen |
    /// | `.push(id:state:)` | the parent sees it, then the state is pushed under `id` (unless the parent pushed something itself) |
    /// | `.popFrom(id:)` (the back button, a swipe, an element's `dismiss()`) | the parent sees it with the element still there, then it is popped with everything above it |
    /// | the parent pops, replaces the stack (a deep link) or pops to the root | the effects of every element that went are cancelled |
    public func forEach<ElementState, ElementAction, Element: PrismReducer>(
        _ toStack: WritableKeyPath<State, PrismStackState<ElementState>> & Sendable,
        action fromStackAction: @escaping @Sendable (PrismStackAction<ElementState, ElementAction>) -> Action,
        toStackAction: @escaping @Sendable (Action) -> PrismStackAction<ElementState, ElementAction>?,
        @PrismReducerBuilder<ElementState, ElementAction> element: () -> Element,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismStackForEach<Self, Element> where ElementState == Element.State, ElementAction == Element.Action {
        PrismStackForEach(
            parent: self, element: element(), toStack: toStack, fromStackAction: fromStackAction,
            toStackAction: toStackAction,
            location: PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

extension PrismReducer where Action: CasePathable {
    /// ``forEach(_:action:toStackAction:element:fileID:filePath:line:column:)`` with a case key
    /// path of the action enum.
    ///
    /// ```swift
    /// AppCore()
    ///     .forEach(\.path, action: \.path) { ScreenFeature() }
    /// ```
    public func forEach<ElementState, ElementAction, Element: PrismReducer>(
        _ toStack: WritableKeyPath<State, PrismStackState<ElementState>> & Sendable,
        action: CaseKeyPath<Action, PrismStackAction<ElementState, ElementAction>>,
        @PrismReducerBuilder<ElementState, ElementAction> element: () -> Element,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismStackForEach<Self, Element> where ElementState == Element.State, ElementAction == Element.Action {
        let path = PrismCaseKeyPath(action)
        return forEach(
            toStack, action: path.embed, toStackAction: path.extract, element: element, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }
}

/// A parent feature with a navigation stack of features: see
/// ``PrismReducer/forEach(_:action:toStackAction:element:fileID:filePath:line:column:)``.
public struct PrismStackForEach<Parent: PrismReducer, Element: PrismReducer>: PrismReducer {
    /// The state it runs on.
    public typealias State = Parent.State
    /// The actions it handles.
    public typealias Action = Parent.Action

    let parent: Parent
    let element: Element
    let toStack: WritableKeyPath<State, PrismStackState<Element.State>> & Sendable
    let fromStackAction: @Sendable (PrismStackAction<Element.State, Element.Action>) -> Action
    let toStackAction: @Sendable (Action) -> PrismStackAction<Element.State, Element.Action>?
    let location: PrismSourceLocation

    /// Runs the element and the parent for `action`, as described above.
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        let stackAction = toStackAction(action)
        let before = state[keyPath: toStack].ids
        var elementEffect = PrismEffect<Action>.none
        if case .element(let id, let elementAction)? = stackAction {
            if state[keyPath: toStack][id: id] != nil {
                elementEffect = reduceElement(id, into: &state, action: elementAction)
            } else {
                location.report(
                    """
                    A stack (\(toStack)) received \(elementAction) for the element \(id), which is not in it \
                    (popped, or never pushed). The action was dropped. This happens when an effect of a \
                    screen sends an action as it is popped: its effects are cancelled then, but one that \
                    already finished may still send.
                    """
                )
            }
        }
        let parentEffect = parent.reduce(into: &state, action: action)
        switch stackAction {
        case .push(let id, let pushed)? where state[keyPath: toStack].ids == before:
            state[keyPath: toStack].push(pushed, id: id)
        case .popFrom(let id)?:
            state[keyPath: toStack].pop(from: id)
        default:
            break
        }
        let after = Set(state[keyPath: toStack].ids)
        let gone = before.filter { !after.contains($0) }
        if gone.isEmpty { return elementEffect.merge(with: parentEffect) }
        // Popped elements: end what they started.
        return .merge([elementEffect, parentEffect] + gone.map { .cancel(id: place($0)) })
    }

    private func place(_ id: PrismStackElementID) -> PrismChildPlace {
        PrismChildPlace(path: toStack, id: AnyHashable(id))
    }

    private func reduceElement(_ id: PrismStackElementID, into state: inout State, action: Element.Action)
        -> PrismEffect<Action>
    {
        // swift-format-ignore: NeverForceUnwrap
        let effect = element.reduce(into: &state[keyPath: toStack][id: id]!, action: action)
        return effect.presented(
            at: place(id), embed: { [fromStackAction] in fromStackAction(.element(id: id, action: $0)) },
            dismissal: fromStackAction(.popFrom(id: id)))
    }
}
