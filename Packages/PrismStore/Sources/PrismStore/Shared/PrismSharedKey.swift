/// Names a shared value and says where it is kept: in memory, or saved between launches.
///
/// Every ``PrismShared`` made with keys of the same ``id`` in one ``PrismSharedStorage`` refers
/// to one value. This module has ``PrismInMemoryKey`` (`.inMemory("cart")`); PrismPersistence
/// adds keys that save the value in a file, in `UserDefaults`, in the keychain or with any
/// persistence strategy (`.file("settings")`, `.defaults(...)`, `.keychain(...)`,
/// `.persisted(...)`).
///
/// A key of your own gives an ``id`` that no other key uses for another value, and a
/// ``makeBacking(in:)`` that loads the value once and hears about every change.
public protocol PrismSharedKey<Value>: Sendable {
    /// The type of the value.
    associatedtype Value: Sendable

    /// The value's name in its storage, with its kind: `"inMemory:cart"`, `"file:settings"`.
    var id: String { get }

    /// What keeps the value for this key in `storage`, or nil to keep it in memory only.
    ///
    /// Called once per storage, when the first holder of the key is made.
    func makeBacking(in storage: PrismSharedStorage) -> (any PrismSharedBacking<Value>)?
}

/// What keeps a shared value beyond memory: loads it once, saves its changes.
///
/// Made by a ``PrismSharedKey`` when the first holder of its key is made in a storage, and kept
/// as long as the storage.
public protocol PrismSharedBacking<Value>: AnyObject, Sendable {
    /// The type of the value.
    associatedtype Value: Sendable

    /// The value kept for the key, or nil when there is none (or it could not be loaded, a
    /// failure the backing reports itself): the holder's default is used then.
    ///
    /// Called once, before any change, on the thread that makes the first holder.
    func load() -> Value?

    /// Hears that the value changed to `value`. Called on the main thread, inside the send that
    /// changed it: return at once (save later, elsewhere).
    ///
    /// `read` is how the backing reads the latest value later, on the main actor, instead of
    /// keeping `value`; it is set once, after ``load()``, by ``attach(reading:)``.
    func valueChanged(_ value: Value)

    /// Gives the backing a way to read the value's latest state on the main actor (nil once the
    /// value is gone). Called once, after ``load()`` and before any change.
    func attach(reading: @escaping @MainActor @Sendable () -> Value?)

    /// Saves the latest value now, after any save in progress, and returns when it is saved;
    /// throws that save's error. Does nothing by default.
    func flush() async throws

    /// Starts telling `apply` about values that someone else saved where the backing saves:
    /// another process, or another storage of this process. Called once, after
    /// ``attach(reading:)``. Does nothing by default (a backing that nobody else writes).
    ///
    /// `apply` runs on the main actor: it sets the value of every holder, notifies their
    /// observers, and does not call ``valueChanged(_:)`` (the value is saved already, and
    /// saving it again would echo between two writers). Call it only with a value that differs
    /// from the last one the backing loaded or saved, and not when a change of this process
    /// was made after the outside value was read (the later change wins, as it will be saved
    /// over it).
    func observeOutsideChanges(_ apply: @escaping @MainActor @Sendable (Value) -> Void)
}

extension PrismSharedBacking {
    /// Does nothing: a backing that saves at once has nothing to flush.
    public func flush() async throws {}

    /// Does nothing: the backing hears of no outside changes.
    public func observeOutsideChanges(_ apply: @escaping @MainActor @Sendable (Value) -> Void) {}
}

/// A shared value kept in memory, in the storage of the state that holds it: one per process
/// in an app, one per test in tests (see ``PrismSharedStorage``).
///
/// ```swift
/// struct AppState {
///     @PrismShared(.inMemory("cart")) var cart: [Item] = []
/// }
/// ```
public struct PrismInMemoryKey<Value: Sendable>: PrismSharedKey {
    /// The key's name.
    public let name: String

    /// A key named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// `"inMemory:"` and the name.
    public var id: String { "inMemory:\(name)" }

    /// None: the value lives in memory only.
    public func makeBacking(in storage: PrismSharedStorage) -> (any PrismSharedBacking<Value>)? {
        nil
    }
}

extension PrismSharedKey {
    /// A shared value kept in memory under `name` (see ``PrismInMemoryKey``).
    public static func inMemory<V>(_ name: String) -> Self where Self == PrismInMemoryKey<V> {
        PrismInMemoryKey(name)
    }
}
