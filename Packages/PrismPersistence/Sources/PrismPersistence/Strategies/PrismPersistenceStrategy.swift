/// Where and how a state is saved between launches.
///
/// A strategy saves a `Codable` value under a key, loads it back, and clears it. Three ship
/// with this module:
///
/// | Strategy | Backing store | Best for |
/// | --- | --- | --- |
/// | ``PrismDiskPersistence`` | JSON files | Large, non-sensitive state |
/// | ``PrismUserDefaultsPersistence`` | `UserDefaults` | Small, lightweight preferences |
/// | ``PrismKeychainPersistence`` | The system keychain (Secret Service on Linux) | Tokens and credentials |
///
/// Implement it for any other backend:
///
/// ```swift
/// struct CloudPersistence: PrismPersistenceStrategy {
///     func save<State: Codable & Sendable>(_ state: State, key: String) throws {
///         let data = try JSONEncoder().encode(state)
///         // Upload to your cloud service
///     }
///
///     func load<State: Codable & Sendable>(key: String) throws -> State? {
///         // Download from your cloud service
///         return nil
///     }
///
///     func clear(key: String) throws {
///         // Delete from your cloud service
///     }
/// }
/// ```
///
/// The strategies of this module save a versioned envelope (see ``PrismVersionedState``), never
/// replace an unreadable value with a default (they move it aside and throw), and throw
/// ``PrismPersistenceError``. Strategies are `Sendable`: ``PrismPersistMiddleware`` calls
/// them off the main actor.
public protocol PrismPersistenceStrategy: Sendable {
    /// Saves `state` under `key`, replacing what was saved there before.
    func save<State: Codable & Sendable>(_ state: State, key: String) throws

    /// The state saved under `key`, or `nil` if nothing is saved there.
    func load<State: Codable & Sendable>(key: String) throws -> State?

    /// Removes what is saved under `key`; does nothing if nothing is saved there.
    func clear(key: String) throws
}
