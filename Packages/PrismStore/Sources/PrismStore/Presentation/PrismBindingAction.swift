/// A change of one field of the state, as an action: what a text field, a toggle or a picker
/// sends, so that a field is bound to the store in one line and the change is an action like
/// any other (reduced, recorded, replayed, asserted in a test).
///
/// ```swift
/// enum SettingsAction: PrismBindableAction {
///     case binding(PrismBindingAction<SettingsState>)
///     case save
///
///     var binding: PrismBindingAction<SettingsState>? {
///         if case .binding(let action) = self { action } else { nil }
///     }
/// }
///
/// store.send(.set(\.nickname, "Ada"))  // what a text field's binding sends
/// ```
///
/// ``PrismBindingReducer`` applies it; the feature's own reducer sees it after, and can react to
/// one field (`action.binding?.changes(\.query) == true`).
public struct PrismBindingAction<Root>: Sendable, Equatable, CustomStringConvertible {
    /// The field it changes.
    public let keyPath: PartialKeyPath<Root> & Sendable
    /// The new value.
    public let value: any Sendable
    private let apply: @Sendable (inout Root) -> Void
    private let isEqual: @Sendable (any Sendable) -> Bool

    /// Sets the field at `keyPath` to `value`.
    public static func set<Value: Equatable & Sendable>(
        _ keyPath: WritableKeyPath<Root, Value> & Sendable, _ value: Value
    ) -> Self {
        Self(
            keyPath: keyPath, value: value, apply: { $0[keyPath: keyPath] = value },
            isEqual: { ($0 as? Value) == value })
    }

    private init(
        keyPath: PartialKeyPath<Root> & Sendable, value: any Sendable, apply: @escaping @Sendable (inout Root) -> Void,
        isEqual: @escaping @Sendable (any Sendable) -> Bool
    ) {
        self.keyPath = keyPath
        self.value = value
        self.apply = apply
        self.isEqual = isEqual
    }

    /// Sets the field in `root`.
    public func apply(to root: inout Root) {
        apply(&root)
    }

    /// Whether it changes the field at `keyPath`.
    public func changes<Value>(_ keyPath: WritableKeyPath<Root, Value>) -> Bool {
        let mine: AnyKeyPath = self.keyPath
        return mine == keyPath as AnyKeyPath
    }

    /// Equal when both set the same field to equal values.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.keyPath as AnyKeyPath) == (rhs.keyPath as AnyKeyPath) && lhs.isEqual(rhs.value)
    }

    /// `set(\Settings.nickname, "Ada")`.
    public var description: String {
        "set(\(keyPath), \(String(reflecting: value)))"
    }
}

/// An action enum with a case for ``PrismBindingAction``s: its state's fields can be bound to a
/// store (`store.binding(\.field)` in SwiftUI) and set with `.set(\.field, value)`.
public protocol PrismBindableAction: Sendable {
    /// The state whose fields are bound.
    associatedtype State

    /// The action of `binding`: the case that holds it.
    static func binding(_ binding: PrismBindingAction<State>) -> Self

    /// The binding action this action holds, if it is one.
    var binding: PrismBindingAction<State>? { get }
}

extension PrismBindableAction {
    /// The action that sets the field at `keyPath` to `value`.
    public static func set<Value: Equatable & Sendable>(
        _ keyPath: WritableKeyPath<State, Value> & Sendable, _ value: Value
    ) -> Self {
        binding(.set(keyPath, value))
    }
}

/// Applies the binding actions (``PrismBindingAction``) a feature receives: put it first in the
/// feature's body, so that the feature's own reducer sees the field already changed.
///
/// ```swift
/// var body: some PrismReducer<SettingsState, SettingsAction> {
///     PrismBindingReducer()
///     PrismReduce { state, action in ... }
/// }
/// ```
public struct PrismBindingReducer<State: Sendable, Action: PrismBindableAction>: PrismReducer
where Action.State == State {
    /// The reducer.
    public init() {}

    /// Sets the field a binding action changes.
    public func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        action.binding?.apply(to: &state)
        return .none
    }
}

extension PrismStore where Action: PrismBindableAction, Action.State == State {
    /// Sets the field at `keyPath` to `value` as a bound control does: sends
    /// `.set(keyPath, value)`, unless the field holds `value` already (SwiftUI writes a binding
    /// back with the value it read, which is not a change the user made).
    ///
    /// ```swift
    /// store.set(\.nickname, to: "Ada")   // what TextField(text: $store.nickname) does
    /// ```
    public func set<Value: Equatable & Sendable>(_ keyPath: WritableKeyPath<State, Value> & Sendable, to value: Value) {
        guard core.currentState[keyPath: keyPath] != value else { return }
        send(.set(keyPath, value))
    }
}
