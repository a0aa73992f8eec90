/// A state whose saved form has a schema version, with migrations from its older versions.
///
/// Every strategy of this module saves a state inside an envelope that carries a version:
/// `{"version": 2, "state": {...}}`. A state type that does not adopt this protocol is at
/// version 1. When you change a saved type in a way its old JSON no longer decodes (a new
/// non-optional property, a renamed one), bump the version and register a migration that turns
/// the old JSON into the new:
///
/// ```swift
/// struct Settings: PrismVersionedState {
///     var theme: String
///     var fontSize: Int  // added in version 2
///
///     static let persistenceMigrations = PrismPersistenceMigrations(currentVersion: 2) {
///         $0.migrate(from: 1) { data in
///             var object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
///             object["fontSize"] = 14
///             return try JSONSerialization.data(withJSONObject: object)
///         }
///     }
/// }
/// ```
///
/// A load of version 1 then runs the migration; a load of a version newer than
/// ``PrismPersistenceMigrations/currentVersion``, or of an old one with no migration, throws
/// (``PrismPersistenceError/Code-swift.struct/unsupportedVersion``,
/// ``PrismPersistenceError/Code-swift.struct/migrationMissing``) and moves the stored value
/// aside: the user's data is never reset to a default.
public protocol PrismVersionedState: Codable, Sendable {
    /// The current schema version of this type's saved form and the migrations to it.
    static var persistenceMigrations: PrismPersistenceMigrations { get }
}
