extension PrismScope {
    /// Runs `child` on `state[keyPath: toChildState]` for the actions of one case of the parent's
    /// action enum: the case is all it needs.
    ///
    /// ```swift
    /// enum AppAction {
    ///     case settings(SettingsAction)
    ///     case logOut
    /// }
    ///
    /// var body: some PrismReducer<AppState, AppAction> {
    ///     PrismScope(state: \.settings, action: AppAction.settings) {
    ///         SettingsFeature()
    ///     }
    ///     AppCoreReducer()
    /// }
    /// ```
    ///
    /// The child action is read back out of an `AppAction.settings(...)` value with no
    /// hand-written extractor and no macro: the first settings action teaches the scope which
    /// case `AppAction.settings` makes (by reflection, once); from then on an action of another
    /// case costs a compare of the enum's tag (about a nanosecond) and a settings action a copy of
    /// its payload. An `indirect` case is read by reflection each time (about 2 us).
    ///
    /// `action` must be one case of `ParentAction` (a case constructor). A closure that nests
    /// (`{ .list(.row($0)) }`) is not one case: give ``init(state:action:toChildAction:child:)``
    /// a `toChildAction` for it. A `ParentAction` that is not an enum is a runtime warning when
    /// the scope is made.
    @inlinable
    public init<ChildState, ChildAction>(
        state toChildState: @autoclosure @escaping @Sendable () -> WritableKeyPath<ParentState, ChildState> & Sendable,
        action fromChildAction: @escaping @Sendable (ChildAction) -> ParentAction,
        @PrismReducerBuilder<ChildState, ChildAction> child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where ChildState == Child.State, ChildAction == Child.Action {
        PrismEnumCase<ParentAction, ChildAction>.reportUnlessRootIsEnum(
            location: PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        // No extraction closure: `reduce` reads the case of `fromChildAction` itself, with
        // nothing allocated for the body built for each action.
        self.init(
            toChildState: .keyPath(toChildState), fromChildAction: fromChildAction, toChildAction: nil,
            child: child())
    }
}

extension PrismReducer {
    /// ``ifLet(_:action:toChildAction:then:fileID:filePath:line:column:)->PrismIfLet<Self,Child,PrismNoChildID>``
    /// with the child's case of the action enum as all it needs.
    ///
    /// ```swift
    /// AppCoreReducer()
    ///     .ifLet(\.detail, action: AppAction.detail) {
    ///         DetailFeature()
    ///     }
    /// ```
    ///
    /// The child action is read back out as ``PrismScope/init(state:action:child:fileID:filePath:line:column:)``
    /// describes: `action` must be one case of `Action`.
    @inlinable
    public func ifLet<ChildState, ChildAction, Child: PrismReducer>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action fromChildAction: @escaping @Sendable (ChildAction) -> Action,
        @PrismReducerBuilder<ChildState, ChildAction> then child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismIfLet<Self, Child, PrismNoChildID> where ChildState == Child.State, ChildAction == Child.Action {
        let location = PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        PrismEnumCase<Action, ChildAction>.reportUnlessRootIsEnum(location: location)
        // No extraction closure: `reduce` reads the case of `fromChildAction` itself.
        return PrismIfLet(
            parent: self, child: child(), toChildState: toChildState, identify: { _ in PrismNoChildID() },
            fromChildAction: fromChildAction, toChildAction: nil, location: location
        )
    }

    /// The same for an `Identifiable` child state: replacing the child with one of another id also
    /// ends the first one's effects.
    @inlinable
    public func ifLet<ChildState: Identifiable, ChildAction, Child: PrismReducer>(
        _ toChildState: WritableKeyPath<State, ChildState?> & Sendable,
        action fromChildAction: @escaping @Sendable (ChildAction) -> Action,
        @PrismReducerBuilder<ChildState, ChildAction> then child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismIfLet<Self, Child, ChildState.ID>
    where ChildState == Child.State, ChildAction == Child.Action, ChildState.ID: Sendable {
        let location = PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        PrismEnumCase<Action, ChildAction>.reportUnlessRootIsEnum(location: location)
        // No extraction closure: `reduce` reads the case of `fromChildAction` itself.
        return PrismIfLet(
            parent: self, child: child(), toChildState: toChildState, identify: { $0.id },
            fromChildAction: fromChildAction, toChildAction: nil, location: location
        )
    }

    /// ``forEach(_:action:toElementAction:element:fileID:filePath:line:column:)`` with the rows'
    /// case of the action enum as all it needs.
    ///
    /// ```swift
    /// enum ListAction: Sendable {
    ///     case row(id: RowState.ID, action: RowAction)
    ///     case removeRow(id: RowState.ID)
    /// }
    ///
    /// ListCoreReducer()
    ///     .forEach(\.rows, action: ListAction.row) {
    ///         RowFeature()
    ///     }
    /// ```
    ///
    /// The id and the row's action are read back out as
    /// ``PrismScope/init(state:action:child:fileID:filePath:line:column:)`` describes: `action`
    /// must be one case of `Action` whose payload is the id and the element's action.
    @inlinable
    public func forEach<Elements: PrismIdentifiedCollection, ElementState, ElementAction, Child: PrismReducer>(
        _ toElements: WritableKeyPath<State, Elements> & Sendable,
        action fromElementAction: @escaping @Sendable (Elements.ID, ElementAction) -> Action,
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
        let location = PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        PrismEnumCase<Action, (Elements.ID, ElementAction)>.reportUnlessRootIsEnum(location: location)
        // No extraction closure: `reduce` reads the case of `fromElementAction` itself, with
        // nothing allocated for the body built for each action.
        return PrismForEach(
            parent: self, element: element(), toElements: toElements, fromElementAction: fromElementAction,
            toElementAction: nil, location: location
        )
    }
}
