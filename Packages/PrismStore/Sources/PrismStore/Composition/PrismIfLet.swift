extension PrismReducer {
    /// Runs a child feature while its optional state is there (a detail, a sheet), and ends
    /// every effect it started when that state goes away.
    ///
    /// ```swift
    /// AppCoreReducer()
    ///     .ifLet(\.detail, action: AppAction.detail, toChildAction: \.detail) {
    ///         DetailFeature()
    ///     }
    /// ```
    ///
    /// For each action, the child runs first (when `toChildAction` extracts a child action and
    /// the child state is there), then this reducer. When this reducer sets the child state to
    /// nil, or (for an `Identifiable` child state) replaces it with one of another id, every
    /// effect the child started is cancelled. Child effects are also scoped: the child's own
    /// cancellation ids never meet the parent's or another child's.
    ///
    /// A child action that arrives while the state is nil (typically from an effect that
    /// finished just as the child was dismissed) is dropped with a runtime warning, reported
    /// through IssueReporting (a test fails on it): never a crash.
    @inlinable
    public func ifLet<ChildState, ChildAction, Child: PrismReducer>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action fromChildAction: @escaping @Sendable (ChildAction) -> Action,
        toChildAction: @escaping @Sendable (Action) -> ChildAction?,
        @PrismReducerBuilder<ChildState, ChildAction> then child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismIfLet<Self, Child, PrismNoChildID> where ChildState == Child.State, ChildAction == Child.Action {
        PrismIfLet(
            parent: self,
            child: child(),
            toChildState: toChildState,
            identify: { _ in PrismNoChildID() },
            fromChildAction: fromChildAction,
            toChildAction: toChildAction,
            location: PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// ``ifLet(_:action:toChildAction:then:fileID:filePath:line:column:)->PrismIfLet<Self,Child,PrismNoChildID>`` for an `Identifiable`
    /// child state: replacing the child with one of another id also ends the first one's effects.
    @inlinable
    public func ifLet<ChildState: Identifiable, ChildAction, Child: PrismReducer>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action fromChildAction: @escaping @Sendable (ChildAction) -> Action,
        toChildAction: @escaping @Sendable (Action) -> ChildAction?,
        @PrismReducerBuilder<ChildState, ChildAction> then child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismIfLet<Self, Child, ChildState.ID>
    where ChildState == Child.State, ChildAction == Child.Action, ChildState.ID: Sendable {
        PrismIfLet(
            parent: self,
            child: child(),
            toChildState: toChildState,
            identify: { $0.id },
            fromChildAction: fromChildAction,
            toChildAction: toChildAction,
            location: PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
}

/// A parent feature with an optional child: see
/// ``PrismReducer/ifLet(_:action:toChildAction:then:fileID:filePath:line:column:)->PrismIfLet<Self,Child,PrismNoChildID>``.
///
/// `ChildID` tells one child from the next: the child state's id when it is `Identifiable`,
/// else ``PrismNoChildID`` (any child is the same child while it is there).
public struct PrismIfLet<Parent: PrismReducer, Child: PrismReducer, ChildID: Hashable & Sendable>: PrismReducer {
    /// The state it runs on.
    public typealias State = Parent.State
    /// The actions it handles.
    public typealias Action = Parent.Action

    @usableFromInline let parent: Parent
    @usableFromInline let child: Child
    @usableFromInline let toChildState: WritableKeyPath<State, Child.State?> & Sendable
    @usableFromInline let identify: @Sendable (Child.State) -> ChildID
    @usableFromInline let fromChildAction: @Sendable (Child.Action) -> Action
    /// Extracts the child action; nil: the action is in the case `fromChildAction` makes
    /// (`PrismEnumCase`), read without a closure made for each body.
    @usableFromInline let toChildAction: (@Sendable (Action) -> Child.Action?)?
    @usableFromInline let location: PrismSourceLocation

    @inlinable
    init(
        parent: Parent,
        child: Child,
        toChildState: WritableKeyPath<State, Child.State?> & Sendable,
        identify: @escaping @Sendable (Child.State) -> ChildID,
        fromChildAction: @escaping @Sendable (Child.Action) -> Action,
        toChildAction: (@Sendable (Action) -> Child.Action?)?,
        location: PrismSourceLocation
    ) {
        self.parent = parent
        self.child = child
        self.toChildState = toChildState
        self.identify = identify
        self.fromChildAction = fromChildAction
        self.toChildAction = toChildAction
        self.location = location
    }

    /// Runs the reducers for `action`, as described above.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        let childEffect = reduceChild(into: &state, action: action)
        let before = state[keyPath: toChildState].map(identify)
        let parentEffect = parent.reduce(into: &state, action: action)
        guard let before else {
            return childEffect.merge(with: parentEffect)
        }
        let after = state[keyPath: toChildState].map(identify)
        if after != before {
            // The child went away (or another took its place): end what it started.
            let ended = PrismChildPlace(path: toChildState, id: AnyHashable(before))
            return .merge(childEffect, parentEffect, .cancel(id: ended))
        }
        return childEffect.merge(with: parentEffect)
    }

    @inlinable
    func reduceChild(into state: inout State, action: Action) -> PrismEffect<Action> {
        guard let childAction = PrismEnumCase.extract(from: action, with: toChildAction, orCaseOf: fromChildAction)
        else { return .none }
        // The id is taken from a temporary copy of the child state, gone before the child
        // changes it in place (a copy still alive would make the change copy its storage).
        guard let childID = state[keyPath: toChildState].map(identify) else {
            location.report(
                """
                An ifLet received \(childAction) while its child state (\(toChildState)) was nil. \
                The action was dropped. This happens when an effect of the child sends an action after \
                the child was dismissed: cancel it when dismissing, or ignore the warning if that is expected.
                """
            )
            return .none
        }
        let effect = child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
        if effect.isNone { return .none }
        let scope = PrismChildPlace(path: toChildState, id: AnyHashable(childID))
        return
            effect
            .map(fromChildAction, cancellationScope: scope)
            .cancellable(id: scope)
    }
}

/// The id of an optional child state that is not `Identifiable`: every such child is the same.
public struct PrismNoChildID: Hashable, Sendable {
    /// The one id.
    @inlinable
    public init() {}
}
