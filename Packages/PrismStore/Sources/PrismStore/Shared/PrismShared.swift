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

    /// A holder of `box`'s value.
    init(box: SharedBox<Value>) {
        self.box = box
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
    /// Whether the two values are equal.
    ///
    /// While a test store checks an action that changed the value, a holder compared with
    /// itself compares the value the test expects with the one the action left; and a holder
    /// of another value in its place (the test's expected state holds a state decoded as
    /// written, ``PrismSharedDecoding/asWritten``) gives the value the test expects.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        // In a failure's diff of the states, a value under check is shown apart, by key.
        if SharedTrackingState.isDescribing, lhs.box.currentAssertion != nil || rhs.box.currentAssertion != nil {
            return true
        }
        if lhs.box === rhs.box {
            guard let assertion = lhs.box.currentAssertion else { return true }
            return assertion.expected == assertion.actual
        }
        if let matched = expecting(lhs, of: rhs) ?? expecting(rhs, of: lhs) { return matched }
        return lhs.wrappedValue == rhs.wrappedValue
    }

    /// When `changed` is a value a test store is checking and `expected` holds another value:
    /// that value becomes what the test expects of `changed` (so that the failure message shows
    /// it), and whether the action left it. Nil otherwise.
    private static func expecting(_ expected: Self, of changed: Self) -> Bool? {
        guard let assertion = changed.box.currentAssertion, expected.box.currentAssertion == nil else { return nil }
        assertion.expected = expected.wrappedValue
        return assertion.expected == assertion.actual
    }
}

extension PrismShared: Hashable where Value: Hashable {
    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }
}

extension PrismShared: Encodable where Value: Encodable {
    /// Encodes the value with its key's id, `{"prismSharedKey": "file:settings", "value": …}`,
    /// so that decoding finds the key again (see ``init(from:)``); a value made with
    /// ``init(value:)`` encodes as the value alone, as a plain property would.
    ///
    /// An exported recording or a test PrismInspector writes holds shared values so.
    public func encode(to encoder: any Encoder) throws {
        // A tool writing a recorded state gives the values as they were then (PrismSharedTools.Journal).
        let then = (encoder.userInfo[PrismSharedTools.valuesKey] as? PrismSharedTools.Values)?.value(of: box) as? Value
        let value = then ?? wrappedValue
        guard let id = box.id else {
            var container = encoder.singleValueContainer()
            try container.encode(value)
            return
        }
        var container = encoder.container(keyedBy: SharedCodingKeys.self)
        try container.encode(id, forKey: .prismSharedKey)
        try container.encode(value, forKey: .value)
    }
}

/// The keys of a shared value encoded with its key's id.
private enum SharedCodingKeys: String, CodingKey {
    case prismSharedKey
    case value
}

extension PrismShared: Decodable where Value: Decodable {
    /// Decodes a shared value as ``encode(to:)`` wrote it: a state that holds shared values is
    /// `Codable` with the conformance Swift writes for it.
    ///
    /// A value written with its key's id is that key's value in the storage in effect where it
    /// is decoded (``PrismSharedStorage``), as a holder made with the key would be:
    ///
    /// - When the key has a value there (a store's state holds it), the decoded holder holds
    ///   that value, and what was written is not used: decoding never changes a value other
    ///   holders see, on whatever thread it runs (PrismInspector decodes off the main actor).
    /// - Otherwise the written value becomes the key's value, and the key's first holder made
    ///   later keeps it; a persisted key's saved value, when there is one, replaces it then.
    ///
    /// A property declared with a default (`@PrismShared(.file("settings")) var settings =
    /// Settings()`) makes its holder, and so the key's value, before it is decoded: the written
    /// value is then not used. To start from the written values (a test that replays a recorded
    /// session), decode on the main actor with ``PrismSharedDecoding/restoring``, which sets
    /// each key's value to the one written.
    ///
    /// With ``PrismSharedDecoding/asWritten`` in the decoder's `userInfo`
    /// (`decoder.userInfo[.prismSharedDecoding] = PrismSharedDecoding.asWritten`), the holder
    /// instead has a value of its own, the one written: what a test's expected state needs (a
    /// test PrismInspector writes decodes its expected states so). A value written alone (no
    /// key) is a value of its own either way, like ``init(value:)``.
    ///
    /// Throws `DecodingError.typeMismatch` when the key's value in the storage is of another
    /// type.
    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: SharedCodingKeys.self),
            container.contains(.prismSharedKey)
        else {
            self.init(value: try decoder.singleValueContainer().decode(Value.self))
            return
        }
        let id = try container.decode(String.self, forKey: .prismSharedKey)
        let written = try container.decode(Value.self, forKey: .value)
        let decoding = decoder.userInfo[.prismSharedDecoding] as? PrismSharedDecoding ?? .joiningKey
        if decoding == .asWritten {
            self.init(box: SharedBox(value: written, id: id))
            return
        }
        if decoding == .restoring && !PrismMainExecutor.isCurrent {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "PrismSharedDecoding.restoring sets the shared value '\(id)': decode on the main actor, where shared values change."
                ))
        }
        @Dependency(\.prismSharedStorage) var storage
        guard let box = storage.box(joining: id, written: written) else {
            throw DecodingError.typeMismatch(
                Value.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "The shared value '\(id)' in the storage in effect is not a \(Value.self): give each shared value's key a name of its own."
                ))
        }
        self.init(box: box)
        if decoding == .restoring { wrappedValue = written }
    }
}

/// How decoding a ``PrismShared`` treats the key it was written with: set it as
/// `decoder.userInfo[.prismSharedDecoding]`.
public enum PrismSharedDecoding: Sendable, Hashable {
    /// The key's value in the storage in effect (the default; see ``PrismShared/init(from:)``).
    case joiningKey
    /// A value of its own, the one written: for a test's expected state.
    case asWritten
    /// The key's value in the storage in effect, set to the one written: a state restored as
    /// it was recorded (the first state of a test PrismInspector writes). On the main actor
    /// only; a change like any other (observers hear of it, a persisted key saves it).
    case restoring
}

extension CodingUserInfoKey {
    /// How ``PrismShared`` values are decoded: a ``PrismSharedDecoding``.
    public static var prismSharedDecoding: CodingUserInfoKey {
        CodingUserInfoKey(rawValue: "PrismShared.decoding")!
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

extension PrismSharedTools {
    /// A shared value as tools show it (PrismInspector's tree shows its value under the property's
    /// name, not the wrapper's storage `_name`).
    public protocol Inspectable {
        /// The value itself.
        var sharedValue: Any { get }
    }
}

@_spi(PrismInternals)
extension PrismShared: PrismSharedTools.Inspectable {
    /// The value (``wrappedValue``), or the one it had where a tool set the values of a recorded
    /// state (``PrismSharedTools.Values/inEffect``).
    public var sharedValue: Any {
        if let values = PrismSharedTools.Values.inEffect, let then = values.value(of: box) as? Value { return then }
        return wrappedValue
    }
}
