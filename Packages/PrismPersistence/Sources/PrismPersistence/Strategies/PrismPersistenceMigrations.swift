import Foundation

/// A schema version and the migrations that bring older saved forms up to it.
///
/// A migration turns the JSON of the state (the `state` of the envelope, not the envelope) at
/// one version into the JSON at the next version. To load a value saved at version 1 when the
/// current version is 3, the migrations from 1 and from 2 run in turn:
///
/// ```swift
/// static let persistenceMigrations = PrismPersistenceMigrations(currentVersion: 3) {
///     $0.migrate(from: 1) { data in try upgradeV1ToV2(data) }
///     $0.migrate(from: 2) { data in try upgradeV2ToV3(data) }
/// }
/// ```
///
/// A convenient way to write one is to decode the old shape and encode the new:
///
/// ```swift
/// $0.migrate(from: 1) { data in
///     let old = try JSONDecoder().decode(SettingsV1.self, from: data)
///     return try JSONEncoder().encode(Settings(theme: old.theme, fontSize: 14))
/// }
/// ```
public struct PrismPersistenceMigrations: Sendable {
    /// A function that turns the JSON of a state at one version into the JSON at the next.
    public typealias Migration = @Sendable (Data) throws -> Data

    /// The version that saves write, and that loads migrate to.
    public let currentVersion: Int

    private var steps: [Int: Migration]

    /// No migrations: version 1, what a state that does not adopt ``PrismVersionedState`` has.
    public static let initial = PrismPersistenceMigrations(currentVersion: 1)

    /// Creates migrations up to `currentVersion`; `register` adds each step with
    /// ``migrate(from:_:)``.
    ///
    /// `currentVersion` must be 1 or more.
    public init(currentVersion: Int, _ register: (inout PrismPersistenceMigrations) -> Void = { _ in }) {
        precondition(
            currentVersion >= 1,
            "PrismPersistenceMigrations: currentVersion must be 1 or more (it is \(currentVersion))."
        )
        self.currentVersion = currentVersion
        self.steps = [:]
        register(&self)
    }

    /// Registers the migration from `version` to `version + 1`.
    ///
    /// `version` must be at least 1 and lower than ``currentVersion``, and registered once.
    public mutating func migrate(from version: Int, _ migration: @escaping Migration) {
        precondition(
            version >= 1 && version < currentVersion,
            """
            PrismPersistenceMigrations: a migration from version \(version) cannot lead to version \
            \(currentVersion); register migrations from 1 to \(currentVersion - 1) only.
            """
        )
        precondition(
            steps[version] == nil,
            "PrismPersistenceMigrations: the migration from version \(version) is registered twice."
        )
        steps[version] = migration
    }

    /// The migration registered from `version`, if any.
    func migration(from version: Int) -> Migration? {
        steps[version]
    }
}
