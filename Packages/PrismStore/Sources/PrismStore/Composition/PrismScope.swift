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

    // A feature's `body` is built anew for every action, and with it each `PrismScope` in it:
    // building and running one must cost no more than the same code written by hand. So its
    // fields are few and simple (a scope whose fields are large or varied is copied through
    // its type's value witnesses, the slowest way), and the key path is kept as the closure
    // that makes it: once `reduce` is inlined where the body is built, the key path is a
    // literal again and reaching the child state is a field access, with no key path made.

    /// Where the child's state is.
    @usableFromInline
    enum ChildStatePath: Sendable {
        /// At a key path, made when needed.
        case keyPath(@Sendable () -> WritableKeyPath<ParentState, Child.State> & Sendable)
        /// In one case of an enum state.
        case enumCase(EnumCasePath)
    }

    /// How to reach a child state that is one case of an enum state. A class, so that a
    /// `ChildStatePath` is one reference either way.
    @usableFromInline
    final class EnumCasePath: Sendable {
        @usableFromInline let extract: @Sendable (ParentState) -> Child.State?
        @usableFromInline let embed: @Sendable (Child.State) -> ParentState
        @usableFromInline let location: PrismSourceLocation

        @usableFromInline
        init(
            extract: @escaping @Sendable (ParentState) -> Child.State?,
            embed: @escaping @Sendable (Child.State) -> ParentState,
            location: PrismSourceLocation
        ) {
            self.extract = extract
            self.embed = embed
            self.location = location
        }
    }

    @usableFromInline
    let toChildState: ChildStatePath
    @usableFromInline
    let fromChildAction: @Sendable (Child.Action) -> ParentAction
    /// Extracts the child action; nil: the action is in the case `fromChildAction` makes
    /// (`PrismEnumCase`).
    @usableFromInline
    let toChildAction: (@Sendable (ParentAction) -> Child.Action?)?
    @usableFromInline
    let child: Child

    /// What every initializer ends in.
    @inlinable
    init(
        toChildState: ChildStatePath,
        fromChildAction: @escaping @Sendable (Child.Action) -> ParentAction,
        toChildAction: (@Sendable (ParentAction) -> Child.Action?)?,
        child: Child
    ) {
        self.toChildState = toChildState
        self.fromChildAction = fromChildAction
        self.toChildAction = toChildAction
        self.child = child
    }

    /// Runs `child` on `state[keyPath: toChildState]` for the actions `toChildAction` extracts.
    ///
    /// - Parameters:
    ///   - toChildState: Where the child's state is in the parent's: a key path, usually a
    ///     literal (`\.settings`). It is evaluated when the scope needs it, which may be once per
    ///     action or not at all.
    ///   - fromChildAction: Embeds a child action in a parent action (the enum case).
    ///   - toChildAction: Extracts the child action from a parent action, or nil.
    ///   - child: The child feature.
    @inlinable
    public init<ChildState, ChildAction>(
        state toChildState: @autoclosure @escaping @Sendable () -> WritableKeyPath<ParentState, ChildState> & Sendable,
        action fromChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
        toChildAction: @escaping @Sendable (ParentAction) -> ChildAction?,
        @PrismReducerBuilder<ChildState, ChildAction> child: () -> Child
    ) where ChildState == Child.State, ChildAction == Child.Action {
        self.init(
            toChildState: .keyPath(toChildState), fromChildAction: fromChildAction, toChildAction: toChildAction,
            child: child())
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
        let path = EnumCasePath(
            extract: extractChildState,
            embed: embedChildState,
            location: PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        self.init(
            toChildState: .enumCase(path), fromChildAction: fromChildAction, toChildAction: toChildAction,
            child: child())
    }

    /// Runs the reducers for `action`, as described above.
    @inlinable
    @inline(__always)
    public func reduce(into state: inout ParentState, action: ParentAction) -> PrismEffect<ParentAction> {
        guard let childAction = PrismEnumCase.extract(from: action, with: toChildAction, orCaseOf: fromChildAction)
        else { return .none }
        if reduceLinkIsPublished { return reduceShowingStore(into: &state, childAction: childAction) }
        return reduceChild(into: &state, childAction: childAction)
    }

    /// `reduce` while the store is published to reducers that ask for it (`PrismStoreContext`):
    /// the child's reducers see the store with the child's part of the state.
    @usableFromInline
    func reduceShowingStore(into state: inout ParentState, childAction: Child.Action) -> PrismEffect<ParentAction> {
        let project: (ParentState) -> Child.State?
        switch toChildState {
        case .keyPath(let keyPath):
            let path = keyPath()
            project = { $0[keyPath: path] }
        case .enumCase(let path): project = path.extract
        }
        return withProjectedLink(ParentState.self, project) { reduceChild(into: &state, childAction: childAction) }
    }

    @inlinable
    @inline(__always)
    func reduceChild(into state: inout ParentState, childAction: Child.Action) -> PrismEffect<ParentAction> {
        switch toChildState {
        case .keyPath(let keyPath):
            return child.reduce(into: &state[keyPath: keyPath()], action: childAction).map(fromChildAction)
        case .enumCase(let path):
            guard var childState = path.extract(state) else {
                path.location.report(
                    """
                    A PrismScope received \(childAction) while the state was in another case: \(state). \
                    The action was dropped. Send an enum case's actions only while the state is in that case.
                    """
                )
                return .none
            }
            let effect = child.reduce(into: &childState, action: childAction)
            state = path.embed(childState)
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
