import CasePathsCore

// Combinators that take a case key path (`action: \.detail`) of an action enum that is
// `CasePathable`: annotated with swift-case-paths' `@CasePathable` macro (add the `CasePaths`
// product and `import CasePaths`), or conforming by hand. The key path both embeds the child's
// action and extracts it.

extension PrismScope where ParentAction: CasePathable {
    /// Runs `child` on `state[keyPath: toChildState]` for the actions in the case `action`.
    ///
    /// ```swift
    /// @CasePathable
    /// enum AppAction {
    ///     case settings(SettingsAction)
    ///     case logOut
    /// }
    ///
    /// PrismScope(state: \.settings, action: \.settings) {
    ///     SettingsFeature()
    /// }
    /// ```
    @inlinable
    public init<ChildState, ChildAction>(
        state toChildState: @autoclosure @escaping @Sendable () -> WritableKeyPath<ParentState, ChildState> & Sendable,
        action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
        @PrismReducerBuilder<ChildState, ChildAction> child: () -> Child
    ) where ChildState == Child.State, ChildAction == Child.Action {
        let path = PrismCaseKeyPath(toChildAction)
        self.init(
            toChildState: .keyPath(toChildState), fromChildAction: path.embed, toChildAction: path.extract,
            child: child())
    }
}

extension PrismReducer where Action: CasePathable {
    /// ``ifLet(_:action:toChildAction:then:fileID:filePath:line:column:)->PrismIfLet<Self,Child,PrismNoChildID>``
    /// with a case key path of the action enum.
    ///
    /// ```swift
    /// AppCoreReducer()
    ///     .ifLet(\.detail, action: \.detail) {
    ///         DetailFeature()
    ///     }
    /// ```
    @inlinable
    public func ifLet<ChildState, ChildAction, Child: PrismReducer>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action toChildAction: CaseKeyPath<Action, ChildAction>,
        @PrismReducerBuilder<ChildState, ChildAction> then child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismIfLet<Self, Child, PrismNoChildID> where ChildState == Child.State, ChildAction == Child.Action {
        let path = PrismCaseKeyPath(toChildAction)
        return ifLet(
            toChildState, action: path.embed, toChildAction: path.extract, then: child,
            fileID: fileID, filePath: filePath, line: line, column: column
        )
    }

    /// The same for an `Identifiable` child state: replacing the child with one of another id also
    /// ends the first one's effects.
    @inlinable
    public func ifLet<ChildState: Identifiable, ChildAction, Child: PrismReducer>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action toChildAction: CaseKeyPath<Action, ChildAction>,
        @PrismReducerBuilder<ChildState, ChildAction> then child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismIfLet<Self, Child, ChildState.ID>
    where ChildState == Child.State, ChildAction == Child.Action, ChildState.ID: Sendable {
        let path = PrismCaseKeyPath(toChildAction)
        return ifLet(
            toChildState, action: path.embed, toChildAction: path.extract, then: child,
            fileID: fileID, filePath: filePath, line: line, column: column
        )
    }

    /// ``forEach(_:action:toElementAction:element:fileID:filePath:line:column:)`` with a case key
    /// path of the action enum, to a case whose payload is the id and the element's action.
    ///
    /// ```swift
    /// @CasePathable
    /// enum ListAction {
    ///     case row(id: RowState.ID, action: RowAction)
    ///     case removeRow(id: RowState.ID)
    /// }
    ///
    /// ListCoreReducer()
    ///     .forEach(\.rows, action: \.row) {
    ///         RowFeature()
    ///     }
    /// ```
    @inlinable
    public func forEach<Elements: PrismIdentifiedCollection, ElementState, ElementAction, Child: PrismReducer>(
        _ toElements: WritableKeyPath<State, Elements> & Sendable,
        action toElementAction: CaseKeyPath<Action, (id: Elements.ID, action: ElementAction)>,
        @PrismReducerBuilder<ElementState, ElementAction> element: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismForEach<Self, Elements, Child>
    where
        Elements.Element == ElementState, Elements.ID: Sendable, ElementState == Child.State,
        ElementAction == Child.Action
    {
        let path = PrismCaseKeyPath(toElementAction)
        return forEach(
            toElements, action: { path.embed((id: $0, action: $1)) }, toElementAction: path.extract,
            element: element, fileID: fileID, filePath: filePath, line: line, column: column
        )
    }
}

/// A case key path, shared between tasks: key paths are immutable, but the ones that
/// `@CasePathable`'s dynamic member lookup makes are not typed `Sendable`.
@usableFromInline
struct PrismCaseKeyPath<Root: CasePathable, Value>: @unchecked Sendable {
    @usableFromInline let keyPath: CaseKeyPath<Root, Value>

    @usableFromInline
    init(_ keyPath: CaseKeyPath<Root, Value>) {
        self.keyPath = keyPath
    }

    /// `value` in the case.
    @usableFromInline
    @Sendable func embed(_ value: Value) -> Root {
        keyPath(value)
    }

    /// The case's value in `root`, or nil.
    @usableFromInline
    @Sendable func extract(_ root: Root) -> Value? {
        root[case: keyPath]
    }
}

// MARK: The common mistake: a case key path on an enum that is not `CasePathable`
//
// Without these, `action: \.detail` on an enum without `@CasePathable` falls through to the
// overloads that take a function, and the first error talks of converting a non-Sendable function
// value. With them, it is "subscript 'subscript(dynamicMember:)' requires that 'AppAction' conform
// to 'CasePathable'". They are never called: unavailable, and less specific than the overloads
// above when the enum is `CasePathable`.

private let caseKeyPathMistake =
    "never called: an overload that makes the compiler name the missing CasePathable conformance"

extension PrismScope {
    /// Unavailable: makes the compiler say that the action enum needs `@CasePathable` when a case
    /// key path is given for an enum without it. Pass the case itself (`action: AppAction.detail`)
    /// or annotate the enum.
    @available(
        *, unavailable, message: "a case key path needs @CasePathable on the action enum, or pass the case itself"
    )
    public init<ChildState, ChildAction>(
        state toChildState: @autoclosure @escaping @Sendable () -> WritableKeyPath<ParentState, ChildState> & Sendable,
        action toChildAction: KeyPath<Case<ParentAction>, Case<ChildAction>>,
        @PrismReducerBuilder<ChildState, ChildAction> child: () -> Child
    ) where ChildState == Child.State, ChildAction == Child.Action {
        fatalError(caseKeyPathMistake)
    }
}

extension PrismReducer {
    /// Unavailable: makes the compiler say that the action enum needs `@CasePathable` when a case
    /// key path is given for an enum without it. Pass the case itself (`action: AppAction.detail`)
    /// or annotate the enum.
    @available(
        *, unavailable, message: "a case key path needs @CasePathable on the action enum, or pass the case itself"
    )
    public func ifLet<ChildState, ChildAction, Child: PrismReducer>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action toChildAction: KeyPath<Case<Action>, Case<ChildAction>>,
        @PrismReducerBuilder<ChildState, ChildAction> then child: () -> Child
    ) -> PrismIfLet<Self, Child, PrismNoChildID> where ChildState == Child.State, ChildAction == Child.Action {
        fatalError(caseKeyPathMistake)
    }

    /// Unavailable: makes the compiler say that the action enum needs `@CasePathable` when a case
    /// key path is given for an enum without it. Pass the case itself (`action: AppAction.detail`)
    /// or annotate the enum.
    @available(
        *, unavailable, message: "a case key path needs @CasePathable on the action enum, or pass the case itself"
    )
    public func forEach<Elements: PrismIdentifiedCollection, ElementState, ElementAction, Child: PrismReducer>(
        _ toElements: WritableKeyPath<State, Elements> & Sendable,
        action toElementAction: KeyPath<Case<Action>, Case<(id: Elements.ID, action: ElementAction)>>,
        @PrismReducerBuilder<ElementState, ElementAction> element: () -> Child
    ) -> PrismForEach<Self, Elements, Child>
    where
        Elements.Element == ElementState, Elements.ID: Sendable, ElementState == Child.State,
        ElementAction == Child.Action
    {
        fatalError(caseKeyPathMistake)
    }
}
