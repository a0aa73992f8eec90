import Dependencies
import PrismSupport

/// A value that several features hold by a key, read and changed in reducers like any state,
/// observed on its own, and (with a persisted key) saved between launches.
///
/// Settings, the signed-in user, feature flags, a cart: values many features read and write.
/// Each feature's state declares the value with the same key, and all of them hold one value:
///
/// ```swift
/// struct SettingsState: Equatable {
///     @PrismShared(.inMemory("theme")) var theme = Theme.light
/// }
///
/// struct ProfileState: Equatable {
///     @PrismShared(.inMemory("theme")) var theme = Theme.light
/// }
/// ```
///
/// A reducer reads and changes it as it does any property, synchronously:
///
/// ```swift
/// case .darkModeToggled:
///     state.theme = state.theme == .dark ? .light : .dark
///     return .none
/// ```
///
/// and every other holder sees the change at once. A parent can also hand its value to a child
/// it makes, without a key: `ChildState(theme: state.$theme)`.
///
/// ## Keys
/// `.inMemory(name)` keeps the value in memory. PrismPersistence's keys save it:
/// `.file(name)` (a JSON file, through `PrismDiskPersistence`), `.defaults(name)`,
/// `.keychain(name)`, and `.persisted(name, strategy:)` for any `PrismPersistenceStrategy`.
/// A persisted value is loaded once, when its first holder is made, and saved after changes,
/// coalesced and off the main actor, with every guarantee of PrismPersistence. The default
/// (`= Theme.light`) is used when nothing is stored yet.
///
/// ## Observation
/// Reading the value records an Observation access of this value alone: a view that shows the
/// theme is redrawn when the theme changes, not when the rest of the state does, and a change
/// made through any holder (another feature, another store) notifies it.
///
/// ## History
/// A shared value is a reference: the states a store keeps for undo and time travel hold the
/// value, not a copy of it. Undo, a jump in time travel and `replaceState(with:)` restore the
/// rest of the state and leave shared values as they are (another feature may have changed
/// them since).
///
/// ## Threads
/// Change a shared value on the main actor (in a reducer); read it anywhere. A change made on
/// another thread traps with a message that says so.
///
/// ## Equality and tests
/// Two holders are equal when their values are. `PrismTestStore` (PrismTesting) checks
/// changes to shared values like any state: `await store.send(.darkModeToggled) { $0.theme = .dark }`.
/// Each test gets storage of its own (see ``PrismSharedStorage``).
@propertyWrapper
public struct PrismShared<Value: Sendable>: Sendable {
    @usableFromInline
    let box: SharedBox<Value>

    /// The value of `key` in the storage in effect (see ``PrismSharedStorage``); when that
    /// storage has none yet, the value kept for the key (a persisted key's saved value), or
    /// `defaultValue`.
    ///
    /// ```swift
    /// @PrismShared(.inMemory("cart")) var cart: [Item] = []
    /// ```
    public init(wrappedValue defaultValue: @autoclosure () -> Value, _ key: some PrismSharedKey<Value>) {
        @Dependency(\.prismSharedStorage) var storage
        self.box = storage.box(for: key, default: defaultValue)
    }

    /// A value of its own, without a key, that can be handed to other features
    /// (``projectedValue``).
    public init(value: Value) {
        self.box = SharedBox(value: value, id: nil)
    }

    /// The same value as `other`: what a child's state is made with when its parent hands it its
    /// value (`ChildState(theme: state.$theme)`).
    public init(projectedValue other: PrismShared<Value>) {
        self = other
    }

    /// The value.
    ///
    /// Reading it records an Observation access of this value; changing it (on the main actor)
    /// notifies the observers of this value, every other holder sees the change, and a persisted
    /// key schedules a save.
    public var wrappedValue: Value {
        @inlinable
        get { box.read() }
        @inlinable
        nonmutating _modify {
            let toAssertion = box.beginWrite()
            defer { box.endWrite(toAssertion: toAssertion) }
            if toAssertion, let assertion = box.currentAssertion {
                yield &assertion.expected
            } else {
                yield &box.value
            }
        }
    }

    /// This holder, to hand the value to another feature: `ChildState(theme: state.$theme)`.
    public var projectedValue: PrismShared<Value> {
        get { self }
        set { self = newValue }
    }

    /// The id of the value's key (`"file:settings"`), or nil for a value made with
    /// ``init(value:)``.
    public var keyID: String? { box.id }

    /// Whether `self` and `other` hold the same value (not just equal ones).
    public func isSameValue(as other: PrismShared<Value>) -> Bool {
        box === other.box
    }
}

extension PrismShared: Equatable where Value: Equatable {
    /// Whether the two values are equal. (While a test store checks an action that changed the
    /// value, a holder compared with itself compares the value the test expects with the one the
    /// action left.)
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs.box === rhs.box {
            guard let assertion = lhs.box.currentAssertion else { return true }
            return assertion.expected == assertion.actual
        }
        return lhs.wrappedValue == rhs.wrappedValue
    }
}

extension PrismShared: Hashable where Value: Hashable {
    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }
}

extension PrismShared: Encodable where Value: Encodable {
    /// Encodes the value, as if it were a plain property.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension PrismShared: CustomStringConvertible {
    /// The value's description.
    public var description: String {
        "\(wrappedValue)"
    }
}

extension PrismShared: CustomReflectable {
    /// The value's mirror: a state that holds a shared value dumps it as the value.
    public var customMirror: Mirror {
        Mirror(reflecting: wrappedValue)
    }
}

/// A shared value as tools show it (PrismInspector's tree shows its value under the property's
/// name, not the wrapper's storage `_name`).
@_spi(PrismInternals)
public protocol PrismSharedInspectable {
    /// The value itself.
    var sharedValue: Any { get }
}

@_spi(PrismInternals)
extension PrismShared: PrismSharedInspectable {
    /// The value (``wrappedValue``).
    public var sharedValue: Any { wrappedValue }
}
