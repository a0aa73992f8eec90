import Foundation

/// Saves each state as JSON `Data` in `UserDefaults`, for small, lightweight preferences.
///
/// ```swift
/// let persistence = PrismUserDefaultsPersistence()
///
/// try persistence.save(settings, key: "user_settings")
/// let settings: Settings? = try persistence.load(key: "user_settings")
/// ```
///
/// Every save and clear calls `synchronize()`, so the value is in the defaults' file when the
/// call returns and another process (an app extension, a command-line tool) reads it. On Linux,
/// Foundation keeps the defaults of a suite in `$XDG_CONFIG_HOME/<suite>.plist` (else
/// `~/.config`) and writes nothing at exit without it.
///
/// Keys follow the same rule as ``PrismDiskPersistence``'s. A value that does not decode is
/// moved to the key `<key>.corrupt-<timestamp>` and the load throws
/// ``PrismPersistenceError``; it is never replaced by a default.
public struct PrismUserDefaultsPersistence: PrismPersistenceStrategy {
    /// The suite the values are in; `nil` for the standard defaults.
    public var suiteName: String? { store.suiteName }

    private let store: DefaultsStore

    /// Saves in the standard defaults, or in the suite named `suiteName` (an App Group's, to
    /// share with extensions).
    ///
    /// `suiteName` must be a name `UserDefaults(suiteName:)` accepts: not the app's own bundle
    /// identifier nor `NSGlobalDomain`.
    public init(suiteName: String? = nil) {
        self.store = DefaultsStore(suiteName: suiteName)
    }

    /// Saves `state` under `key` and synchronizes the defaults to their file.
    public func save<State: Codable & Sendable>(_ state: State, key: String) throws {
        try store.saveState(state, key: key)
    }

    /// The state saved under `key`, or `nil` if nothing is saved there.
    public func load<State: Codable & Sendable>(key: String) throws -> State? {
        try store.loadState(State.self, key: key)
    }

    /// Removes what is saved under `key` and synchronizes the defaults to their file.
    public func clear(key: String) throws {
        try store.clearState(key: key)
    }
}
