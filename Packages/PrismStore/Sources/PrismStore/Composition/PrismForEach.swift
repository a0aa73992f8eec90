import OrderedCollections

extension PrismReducer {
    /// Runs a child feature for each element of an identified collection in the state (the
    /// rows of a list), addressed by id, and ends an element's effects when it is removed.
    ///
    /// ```swift
    /// struct ListState: Equatable, Sendable {
    ///     var rows: PrismRows<RowState> = []
    /// }
    ///
    /// enum ListAction: Sendable {
    ///     case row(id: RowState.ID, action: RowAction)
    ///     case removeRow(id: RowState.ID)
    ///
    ///     var row: (id: RowState.ID, action: RowAction)? {
    ///         if case .row(let id, let action) = self { (id, action) } else { nil }
    ///     }
    /// }
    ///
    /// ListCoreReducer()
    ///     .forEach(\.rows, action: ListAction.row, toElementAction: \.row) {
    ///         RowFeature()
    ///     }
    /// ```
    ///
    /// For each action, the element's reducer runs first (when `toElementAction` extracts an id
    /// and an element action, on that element, in place: O(1) whatever the size of the
    /// collection), then this reducer. When this reducer removes elements, every effect they
    /// started is cancelled. Each element's effects are scoped by its id: a row's
    /// `.cancel(id: Timer.self)` cancels that row's timer only.
    ///
    /// An element action for an id that is not in the collection (typically from an effect
    /// that finished just as the row was removed) is dropped with a runtime warning, reported
    /// through IssueReporting (a test fails on it): never a crash.
    ///
    /// Give each row view its own store with
    /// ``PrismStore/scope(state:id:action:)``.
    @inlinable
    public func forEach<Elements: PrismIdentifiedCollection, ElementState, ElementAction, Child: PrismReducer>(
        _ toElements: WritableKeyPath<State, Elements> & Sendable,
        action fromElementAction: @escaping @Sendable (Elements.ID, ElementAction) -> Action,
        toElementAction: @escaping @Sendable (Action) -> (id: Elements.ID, action: ElementAction)?,
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
        PrismForEach(
            parent: self,
            element: element(),
            toElements: toElements,
            fromElementAction: fromElementAction,
            toElementAction: toElementAction,
            location: PrismSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
}

/// A parent feature with a child feature per element of a collection: see
/// ``PrismReducer/forEach(_:action:toElementAction:element:fileID:filePath:line:column:)``.
public struct PrismForEach<Parent: PrismReducer, Elements: PrismIdentifiedCollection, Element: PrismReducer>:
    PrismReducer
where Elements.Element == Element.State, Elements.ID: Sendable {
    /// The state it runs on.
    public typealias State = Parent.State
    /// The actions it handles.
    public typealias Action = Parent.Action
    /// What tells the elements apart.
    public typealias ID = Elements.ID

    @usableFromInline let parent: Parent
    @usableFromInline let element: Element
    @usableFromInline let toElements: WritableKeyPath<State, Elements> & Sendable
    @usableFromInline let fromElementAction: @Sendable (ID, Element.Action) -> Action
    /// Extracts the id and the element's action; nil: the action is in the case
    /// `fromElementAction` makes (`PrismEnumCase`), read without a closure made for each body.
    @usableFromInline let toElementAction: (@Sendable (Action) -> (id: ID, action: Element.Action)?)?
    @usableFromInline let location: PrismSourceLocation

    @inlinable
    init(
        parent: Parent,
        element: Element,
        toElements: WritableKeyPath<State, Elements> & Sendable,
        fromElementAction: @escaping @Sendable (ID, Element.Action) -> Action,
        toElementAction: (@Sendable (Action) -> (id: ID, action: Element.Action)?)?,
        location: PrismSourceLocation
    ) {
        self.parent = parent
        self.element = element
        self.toElements = toElements
        self.fromElementAction = fromElementAction
        self.toElementAction = toElementAction
        self.location = location
    }

    /// Runs the reducers for `action`, as described above.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        let elementEffect = reduceElement(into: &state, action: action)
        // The ids only (not the elements): the parent's changes to elements stay in place, and
        // when it changes no id, comparing shares the same storage and costs O(1).
        let idsBefore = state[keyPath: toElements].prismIDs
        let parentEffect = parent.reduce(into: &state, action: action)
        let elements = state[keyPath: toElements]
        guard elements.prismIDs != idsBefore else {
            return elementEffect.merge(with: parentEffect)
        }
        let removed = elements.prismIDs(removedSince: idsBefore)
        guard !removed.isEmpty else {
            return elementEffect.merge(with: parentEffect)
        }
        let cancellations = removed.map { id in
            PrismEffect<Action>.cancel(id: PrismChildPlace(path: toElements, id: AnyHashable(id)))
        }
        return .merge([elementEffect, parentEffect] + cancellations)
    }

    @inlinable
    func reduceElement(into state: inout State, action: Action) -> PrismEffect<Action> {
        let fromElementAction = self.fromElementAction
        let extracted: (id: ID, action: Element.Action)?
        if let toElementAction {
            extracted = toElementAction(action)
        } else {
            extracted = PrismEnumCase<Action, (ID, Element.Action)>.extractOnMainActor(
                from: action, embed: { fromElementAction($0.0, $0.1) }
            ).map { (id: $0.0, action: $0.1) }
        }
        guard let (id, elementAction) = extracted else { return .none }
        let element = self.element
        guard
            let effect = state[keyPath: toElements].prismModify(
                id: id, { element.reduce(into: &$0, action: elementAction) })
        else {
            location.report(
                """
                A forEach received \(elementAction) for the element with id \(id), which is not in \
                \(toElements). The action was dropped. This happens when an effect of an element sends \
                an action after the element was removed: cancel it when removing, or ignore the warning \
                if that is expected.
                """
            )
            return .none
        }
        if effect.isNone { return .none }
        let scope = PrismChildPlace(path: toElements, id: AnyHashable(id))
        return
            effect
            .map({ fromElementAction(id, $0) }, cancellationScope: scope)
            .cancellable(id: scope)
    }

}
