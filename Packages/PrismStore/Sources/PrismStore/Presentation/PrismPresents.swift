import CasePathsCore
import IssueReporting
import PrismEffects

extension PrismReducer {
    /// Presents a child feature while its optional state is there (a sheet, a popover, a
    /// full-screen cover): the child's actions reach it only while it is presented, it can
    /// dismiss itself (`@Dependency(\.dismiss)`), and its effects end when it goes.
    ///
    /// ```swift
    /// AppCore()
    ///     .presents(\.editor, action: AppAction.editor, toPresentationAction: { $0.editor }) {
    ///         EditorFeature()
    ///     }
    /// ```
    ///
    /// | Action | What happens |
    /// |---|---|
    /// | `.presented(action)` while presented | the child reduces it, then the parent sees it |
    /// | `.presented(action)` after the child went (an effect that finished as it was dismissed) | dropped, with a runtime warning that names the action and this line (a test fails on it); the parent still sees it. Never a crash |
    /// | `.dismiss` (the parent, the user swiping a sheet away, or the child's `dismiss()`) | the parent sees it with the child still there, then the child state becomes nil |
    /// | the parent sets the child state to nil | the child's effects are cancelled |
    ///
    /// The child's effects are cancelled whenever it goes, and their cancellation ids are scoped
    /// to it: they never meet the parent's.
    public func presents<ChildState, ChildAction, Child: PrismReducer>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action fromPresentationAction: @escaping @Sendable (PrismPresentationAction<ChildAction>) -> Action,
        toPresentationAction: @escaping @Sendable (Action) -> PrismPresentationAction<ChildAction>?,
        @PrismReducerBuilder<ChildState, ChildAction> then child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismPresents<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
        PrismPresents(
            parent: self, child: child(), toChildState: toChildState, fromPresentationAction: fromPresentationAction,
            toPresentationAction: toPresentationAction, dismissesOnAction: false,
            location: PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Presents an alert or a confirmation dialog (``PrismAlertState``,
    /// ``PrismConfirmationDialogState``): a tapped button sends `.presented(action)`, and the
    /// alert is gone before the parent sees the action (so that the parent can show another);
    /// `.dismiss` (the alert dismissed without a button that sends anything) removes it too.
    ///
    /// ```swift
    /// AppCore()
    ///     .presents(\.alert, action: AppAction.alert, toPresentationAction: { $0.alert })
    /// ```
    public func presents<ChildState, ChildAction>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action fromPresentationAction: @escaping @Sendable (PrismPresentationAction<ChildAction>) -> Action,
        toPresentationAction: @escaping @Sendable (Action) -> PrismPresentationAction<ChildAction>?,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismPresents<Self, PrismEmptyReducer<ChildState, ChildAction>> {
        PrismPresents(
            parent: self, child: PrismEmptyReducer(), toChildState: toChildState,
            fromPresentationAction: fromPresentationAction, toPresentationAction: toPresentationAction,
            dismissesOnAction: true,
            location: PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

extension PrismReducer where Action: CasePathable {
    /// ``presents(_:action:toPresentationAction:then:fileID:filePath:line:column:)`` with a case
    /// key path of the action enum.
    ///
    /// ```swift
    /// AppCore()
    ///     .presents(\.editor, action: \.editor) { EditorFeature() }
    /// ```
    public func presents<ChildState, ChildAction, Child: PrismReducer>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action: CaseKeyPath<Action, PrismPresentationAction<ChildAction>>,
        @PrismReducerBuilder<ChildState, ChildAction> then child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismPresents<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
        let path = PrismCaseKeyPath(action)
        return presents(
            toChildState, action: path.embed, toPresentationAction: path.extract, then: child, fileID: fileID,
            filePath: filePath, line: line, column: column)
    }

    /// ``presents(_:action:toPresentationAction:fileID:filePath:line:column:)`` (an alert or a
    /// dialog) with a case key path of the action enum.
    public func presents<ChildState, ChildAction>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action: CaseKeyPath<Action, PrismPresentationAction<ChildAction>>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismPresents<Self, PrismEmptyReducer<ChildState, ChildAction>> {
        let path = PrismCaseKeyPath(action)
        return presents(
            toChildState, action: path.embed, toPresentationAction: path.extract, fileID: fileID, filePath: filePath,
            line: line, column: column)
    }
}

/// A parent feature that presents a child: see
/// ``PrismReducer/presents(_:action:toPresentationAction:then:fileID:filePath:line:column:)``.
public struct PrismPresents<Parent: PrismReducer, Child: PrismReducer>: PrismReducer {
    /// The state it runs on.
    public typealias State = Parent.State
    /// The actions it handles.
    public typealias Action = Parent.Action

    let parent: Parent
    let child: Child
    let toChildState: WritableKeyPath<State, Child.State?> & Sendable
    let fromPresentationAction: @Sendable (PrismPresentationAction<Child.Action>) -> Action
    let toPresentationAction: @Sendable (Action) -> PrismPresentationAction<Child.Action>?
    /// An alert or a dialog: any action of it dismisses it.
    let dismissesOnAction: Bool
    let location: PrismSourceLocation

    /// Runs the child and the parent for `action`, as described above.
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        let presentation = toPresentationAction(action)
        let wasPresented = state[keyPath: toChildState] != nil
        var childEffect = PrismEffect<Action>.none
        if case .presented(let childAction)? = presentation {
            if wasPresented {
                childEffect = reduceChild(into: &state, action: childAction)
                if dismissesOnAction { state[keyPath: toChildState] = nil }
            } else {
                location.report(
                    """
                    A presented feature (\(toChildState)) received \(childAction) after it was dismissed. The \
                    action was dropped. This happens when an effect of the feature sends an action as it is \
                    dismissed: its effects are cancelled then, but one that already finished may still send.
                    """
                )
            }
        }
        let parentEffect = parent.reduce(into: &state, action: action)
        if case .dismiss? = presentation { state[keyPath: toChildState] = nil }
        if wasPresented, state[keyPath: toChildState] == nil {
            // The child went: end what it started.
            return .merge(childEffect, parentEffect, .cancel(id: place))
        }
        return childEffect.merge(with: parentEffect)
    }

    /// Where the child's effects run: their cancellation scope and id.
    private var place: PrismChildPlace { PrismChildPlace(path: toChildState, id: nil) }

    private func reduceChild(into state: inout State, action: Child.Action) -> PrismEffect<Action> {
        let effect = child.reduce(into: &state[keyPath: toChildState]!, action: action)
        return effect.presented(
            at: place, embed: { [fromPresentationAction] in fromPresentationAction(.presented($0)) },
            dismissal: fromPresentationAction(.dismiss))
    }
}
