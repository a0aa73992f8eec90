import IssueReporting

/// Runs a child feature on a part of the state, for the actions that belong to it.
///
/// For each action that `toChildAction` extracts a child action from, the child reducer runs on
/// the child state, in place; its effects come back embedded with `action`. Other actions pass
/// by. List it beside the parent's own reducer in a ``PrismReducerBuilder`` block:
///
/// ```swift
/// enum AppAction {
///     case settings(SettingsAction)
///     case logOut
///
///     /// The settings action in this action, if it is one.
///     var settings: SettingsAction? {
///         if case .settings(let action) = self { action } else { nil }
///     }
/// }
///
/// var body: some PrismReducer<AppState, AppAction> {
///     PrismScope(state: \.settings, action: AppAction.settings, toChildAction: \.settings) {
///         SettingsFeature()
///     }
///     AppCoreReducer()
/// }
/// ```
///
/// `action` embeds a child action in the parent's (usually the enum case, `AppAction.settings`);
/// `toChildAction` gets it back out (a key path to an optional computed property, as above, or a
/// closure). For a child state that is one case of an enum state, see
/// ``init(state:embed:action:toChildAction:child:fileID:filePath:line:column:)``.
public struct PrismScope<ParentState: Sendable, ParentAction: Sendable, Child: PrismReducer>: PrismReducer {
    /// The state it runs on.
    public typealias State = ParentState
    /// The actions it handles.
    public typealias Action = ParentAction

    @usableFromInline
    enum ChildStatePath: Sendable {
        case keyPath(WritableKeyPath<ParentState, Child.State> & Sendable)
        case enumCase(
            extract: @Sendable (ParentState) -> Child.State?,
            embed: @Sendable (Child.State) -> ParentState,
            location: PrismSourceLocation
        )
    }

    @usableFromInline
    let toChildState: ChildStatePath
    @usableFromInline
    let fromChildAction: @Sendable (Child.Action) -> ParentAction
    @usableFromInline
    let toChildAction: @Sendable (ParentAction) -> Child.Action?
    @usableFromInline
    let child: Child

    /// Runs `child` on `state[keyPath: toChildState]` for the actions `toChildAction` extracts.
    ///
    /// - Parameters:
    ///   - toChildState: Where the child's state is in the parent's.
    ///   - fromChildAction: Embeds a child action in a parent action (the enum case).
    ///   - toChildAction: Extracts the child action from a parent action, or nil.
    ///   - child: The child feature.
    @inlinable
    public init<ChildState, ChildAction>(
        state toChildState: WritableKeyPath<ParentState, ChildState> & Sendable,
        action fromChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
        toChildAction: @escaping @Sendable (ParentAction) -> ChildAction?,
        @PrismReducerBuilder<ChildState, ChildAction> child: () -> Child
    ) where ChildState == Child.State, ChildAction == Child.Action {
        self.toChildState = .keyPath(toChildState)
        self.fromChildAction = fromChildAction
        self.toChildAction = toChildAction
        self.child = child()
    }

    /// Runs `child` on one case of an enum state, for the actions `toChildAction` extracts,
    /// while the state is in that case.
    ///
    /// ```swift
    /// enum Screen: Equatable, Sendable {
    ///     case detail(DetailState)
    ///     case settings(SettingsState)
    ///
    ///     var detail: DetailState? { if case .detail(let state) = self { state } else { nil } }
    /// }
    ///
    /// PrismScope(state: \.detail, embed: Screen.detail, action: ScreenAction.detail, toChildAction: \.detail) {
    ///     DetailFeature()
    /// }
    /// ```
    ///
    /// An action for the case while the state is in another case is a runtime warning
    /// (reported through IssueReporting, which fails a test) and is dropped.
    @inlinable
    public init<ChildState, ChildAction>(
        state extractChildState: @escaping @Sendable (ParentState) -> ChildState?,
        embed embedChildState: @escaping @Sendable (ChildState) -> ParentState,
        action fromChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
        toChildAction: @escaping @Sendable (ParentAction) -> ChildAction?,
        @PrismReducerBuilder<ChildState, ChildAction> child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where ChildState == Child.State, ChildAction == Child.Action {
        self.toChildState = .enumCase(
            extract: extractChildState,
            embed: embedChildState,
            location: PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        self.fromChildAction = fromChildAction
        self.toChildAction = toChildAction
        self.child = child()
    }

    /// Runs the reducers for `action`, as described above.
    @inlinable
    public func reduce(into state: inout ParentState, action: ParentAction) -> PrismEffect<ParentAction> {
        guard let childAction = toChildAction(action) else { return .none }
        if ReduceMarker.shared.link != nil { return reduceShowingStore(into: &state, childAction: childAction) }
        return reduceChild(into: &state, childAction: childAction)
    }

    /// `reduce` while the store is published to reducers that ask for it (`PrismStoreContext`):
    /// the child's reducers see the store with the child's part of the state.
    @usableFromInline
    func reduceShowingStore(into state: inout ParentState, childAction: Child.Action) -> PrismEffect<ParentAction> {
        let project: (ParentState) -> Child.State?
        switch toChildState {
        case .keyPath(let keyPath): project = { $0[keyPath: keyPath] }
        case .enumCase(let extract, _, _): project = extract
        }
        return withProjectedLink(ParentState.self, project) { reduceChild(into: &state, childAction: childAction) }
    }

    @inlinable
    func reduceChild(into state: inout ParentState, childAction: Child.Action) -> PrismEffect<ParentAction> {
        switch toChildState {
        case .keyPath(let keyPath):
            return child.reduce(into: &state[keyPath: keyPath], action: childAction).map(fromChildAction)
        case .enumCase(let extract, let embed, let location):
            guard var childState = extract(state) else {
                location.report(
                    """
                    A PrismScope received \(childAction) while the state was in another case: \(state). \
                    The action was dropped. Send an enum case's actions only while the state is in that case.
                    """
                )
                return .none
            }
            let effect = child.reduce(into: &childState, action: childAction)
            state = embed(childState)
            return effect.map(fromChildAction)
        }
    }
}

/// Where a combinator was written, for the runtime warnings it reports.
@usableFromInline
struct PrismSourceLocation: Sendable {
    @usableFromInline let fileID: StaticString
    @usableFromInline let filePath: StaticString
    @usableFromInline let line: UInt
    @usableFromInline let column: UInt

    @usableFromInline
    init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// Reports `message` as a runtime warning at this location (a failed test in tests).
    @usableFromInline
    func report(_ message: String) {
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
