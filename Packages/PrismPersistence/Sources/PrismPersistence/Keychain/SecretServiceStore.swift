#if !canImport(Security) && (canImport(Glibc) || canImport(Musl))
import Foundation
import PrismSupport

/// The freedesktop Secret Service (gnome-keyring, KeePassXC, ...) through libsecret, which is
/// loaded at run time (``LibSecret``).
///
/// Each value is a secret in the default collection with the schema
/// `org.prism.PrismKeychainPersistence.v2` and three attributes, `application`, `service` and
/// `account` (the key), like a generic password of Apple's keychain, where the app's identity
/// keeps apps apart. The secret is the JSON text of the envelope.
///
/// Earlier versions saved with the schema `org.prism.PrismKeychainPersistence` and no
/// `application`: the Secret Service is per user, so every app of the user shared those items.
/// Such a shared item is adopted when this application has none for the key (moved into this
/// application's items on the first load, unless `adoptsSharedItems` is off), and a clear
/// removes it too, so that a signed-out user's old secret does not come back. The schema name
/// differs between the two so that a lookup of a shared item never matches another
/// application's item (libsecret matches every item whose attributes include those asked for,
/// and the schema name is one of them).
///
/// Only libsecret's non-variadic calls are used (`secret_schema_newv`,
/// `secret_password_storev_sync`, `..._lookupv_sync`, `..._clearv_sync`, `..._searchv_sync`),
/// with the attributes in a `GHashTable`. Everything libsecret returns is freed, and every
/// `GError` becomes a thrown ``PrismPersistenceError`` that carries its message. Without
/// libsecret on the machine, every call throws `secretServiceUnavailable`, saying what to
/// install.
///
/// libsecret answers a lookup in a locked collection (when unlocking is refused or no prompt
/// can be shown) with no secret and no error; so does it answer a clear. Each time a lookup or
/// a clear finds nothing, a search that does not unlock tells a missing item from a locked
/// one, and a locked one throws `keychainLocked` instead of passing for missing.
struct SecretServiceStore: RawStore {
    /// The schema of items that carry their application.
    static let schemaName = "org.prism.PrismKeychainPersistence.v2"
    /// The schema of the items earlier versions saved, shared by every application of the user.
    static let sharedSchemaName = "org.prism.PrismKeychainPersistence"

    /// Whose items a store reads and writes.
    enum Namespace: Equatable {
        /// One application's (the schema `org.prism.PrismKeychainPersistence.v2`).
        case application(String)
        /// The items earlier versions saved for every application (tests write them to check
        /// adoption).
        case shared
    }

    /// The sync calls each spin a main loop of their own; one at a time in this process.
    private static let lock = PrismLocked<Void>()

    let service: String
    let namespace: Namespace
    /// Whether a load that finds nothing in this application's items adopts a shared item.
    let adoptsSharedItems: Bool
    /// The loaded library, or why it could not be loaded (a test can give another).
    let library: Result<LibSecret, LibSecretLoadError>

    init(
        service: String,
        namespace: Namespace,
        adoptsSharedItems: Bool = true,
        library: Result<LibSecret, LibSecretLoadError> = LibSecret.shared
    ) {
        self.service = service
        self.namespace = namespace
        self.adoptsSharedItems = adoptsSharedItems && namespace != .shared
        self.library = library
    }

    func location(of key: String) -> URL? {
        nil
    }

    func read(key: String) throws -> Data? {
        if let data = try lookup(key: key, in: namespace) { return data }
        guard adoptsSharedItems, let data = try lookup(key: key, in: .shared) else { return nil }
        // An item saved before items carried their application: move it into this
        // application's items, so that no other application adopts it after this one.
        try store(data, key: key, in: namespace)
        // Should the shared item stay (a keyring locked in between), this application reads
        // its own copy from now on; the next clear tries again.
        _ = try? clear(key: key, in: .shared)
        return data
    }

    func write(_ data: Data, key: String) throws {
        try store(data, key: key, in: namespace)
    }

    func remove(key: String) throws {
        try clear(key: key, in: namespace)
        // A shared item left from an earlier version would otherwise be adopted by the next
        // load, and bring back the secret just removed.
        if adoptsSharedItems { try clear(key: key, in: .shared) }
    }

    /// The secret under `key` in `namespace`, or nil when there is none (and the collection is
    /// not locked).
    private func lookup(key: String, in namespace: Namespace) throws -> Data? {
        try withSchema(key: key, in: namespace) { lib, schema, attributes in
            var error: LibSecret.Pointer?
            let password = lib.passwordLookup(schema, attributes, nil, &error)
            if let error { throw Self.failure(lib, error, key: key, doing: "look up the secret") }
            if let password {
                defer { lib.passwordFree(password) }
                return Data(bytes: password, count: strlen(password))
            }
            try checkNotLocked(lib, schema, attributes, key: key, doing: "read")
            return nil
        }
    }

    private func store(_ data: Data, key: String, in namespace: Namespace) throws {
        // JSON text: UTF-8, with no NUL (JSONEncoder escapes control characters).
        let password = String(decoding: data, as: UTF8.self)
        let label =
            switch namespace {
            case .application(let application): "\(service): \(key) (\(application))"
            case .shared: "\(service): \(key)"
            }
        try withSchema(key: key, in: namespace) { lib, schema, attributes in
            var error: LibSecret.Pointer?
            // Replaces an existing item with the same attributes in the same call: there is no
            // moment when neither the old secret nor the new one is stored.
            let stored = label.withCString { label in
                password.withCString { password in
                    lib.passwordStore(schema, attributes, nil, label, password, nil, &error)
                }
            }
            if let error { throw Self.failure(lib, error, key: key, doing: "store the secret") }
            guard stored != 0 else {
                throw PrismPersistenceError(
                    code: .keychainFailed,
                    key: key,
                    message: "The Secret Service did not store the secret and gave no reason."
                )
            }
        }
    }

    private func clear(key: String, in namespace: Namespace) throws {
        try withSchema(key: key, in: namespace) { lib, schema, attributes in
            var error: LibSecret.Pointer?
            let removed = lib.passwordClear(schema, attributes, nil, &error)
            if let error { throw Self.failure(lib, error, key: key, doing: "remove the secret") }
            if removed == 0 { try checkNotLocked(lib, schema, attributes, key: key, doing: "remove") }
        }
    }

    func moveAside(key: String, suffix: String) throws -> MovedAside {
        try copyAside(
            key: key, suffix: suffix, vanished: "The secret vanished before it was moved aside.", code: .keychainFailed)
    }

    /// Throws `keychainLocked` if an item matches `attributes` that a lookup could not read.
    private func checkNotLocked(
        _ lib: LibSecret,
        _ schema: LibSecret.Pointer,
        _ attributes: LibSecret.Pointer,
        key: String,
        doing what: String
    ) throws {
        var error: LibSecret.Pointer?
        let items = lib.passwordSearch(schema, attributes, LibSecret.searchAll, nil, &error)
        defer { if let items { lib.listFreeFull(items, lib.objectUnrefFunction) } }
        if let error { throw Self.failure(lib, error, key: key, doing: "search for the secret") }
        if items != nil {
            throw PrismPersistenceError(
                code: .keychainLocked,
                key: key,
                message: """
                    Could not \(what) the secret: the keyring collection that holds it is locked, and \
                    unlocking it was refused or impossible (no prompt could be shown). Unlock the keyring \
                    (log in, or start gnome-keyring-daemon with --unlock) and try again.
                    """
            )
        }
    }

    /// Runs `body` with the library, the schema and the attributes of `key` in `namespace`, one
    /// call at a time, and frees both afterwards.
    private func withSchema<Result>(
        key: String,
        in namespace: Namespace,
        _ body: (LibSecret, LibSecret.Pointer, LibSecret.Pointer) throws -> Result
    ) throws -> Result {
        let lib: LibSecret
        switch library {
        case .success(let loaded):
            lib = loaded
        case .failure(let error):
            throw Self.unavailable(error, key: key)
        }
        var attributeValues = [("service", service), ("account", key)]
        let schemaName: String
        switch namespace {
        case .application(let application):
            attributeValues.append(("application", application))
            schemaName = Self.schemaName
        case .shared:
            schemaName = Self.sharedSchemaName
        }
        return try Self.lock.withLock { () throws -> Result in
            guard let types = lib.hashTableNewFull(lib.strHashFunction, lib.strEqualFunction, lib.freeFunction, nil)
            else {
                throw PrismPersistenceError(
                    code: .keychainFailed, key: key, message: "glib could not make a hash table.")
            }
            // SECRET_SCHEMA_ATTRIBUTE_STRING is 0: a NULL value in the table.
            let stringType = UnsafeMutableRawPointer(bitPattern: LibSecret.attributeString)
            for (name, _) in attributeValues {
                _ = lib.hashTableInsert(types, lib.copy(name), stringType)
            }
            let schema = schemaName.withCString { lib.schemaNew($0, LibSecret.schemaNone, types) }
            lib.hashTableUnref(types)
            guard let schema else {
                throw PrismPersistenceError(
                    code: .keychainFailed, key: key, message: "libsecret could not make the schema.")
            }
            defer { lib.schemaUnref(schema) }

            guard
                let attributes = lib.hashTableNewFull(
                    lib.strHashFunction, lib.strEqualFunction, lib.freeFunction, lib.freeFunction)
            else {
                throw PrismPersistenceError(
                    code: .keychainFailed, key: key, message: "glib could not make a hash table.")
            }
            for (name, value) in attributeValues {
                _ = lib.hashTableInsert(attributes, lib.copy(name), lib.copy(value))
            }
            defer { lib.hashTableUnref(attributes) }

            return try body(lib, schema, attributes)
        }
    }

    /// The error every call throws when libsecret could not be loaded.
    static func unavailable(_ error: LibSecretLoadError, key: String) -> PrismPersistenceError {
        PrismPersistenceError(
            code: .secretServiceUnavailable,
            key: key,
            message: """
                PrismKeychainPersistence needs libsecret on Linux, and \(error.library) could not be \
                loaded (\(error.reason)). Install it (Debian and Ubuntu: apt install libsecret-1-0; \
                Fedora: dnf install libsecret), with a Secret Service such as gnome-keyring running on \
                the D-Bus session bus. Every other persistence strategy works without it.
                """
        )
    }

    /// `error` as a ``PrismPersistenceError`` with its message; frees `error`.
    private static func failure(
        _ lib: LibSecret,
        _ error: LibSecret.Pointer,
        key: String,
        doing what: String
    ) -> PrismPersistenceError {
        let (domain, code, text) = lib.take(error)
        let origin = "\(lib.name(ofDomain: domain)) \(code)"

        if domain == lib.errorQuark() && code == LibSecret.errorIsLocked {
            return PrismPersistenceError(
                code: .keychainLocked,
                key: key,
                message: """
                    Could not \(what): the keyring collection is locked (\(text); \(origin)). Unlock the \
                    keyring (log in, or start gnome-keyring-daemon with --unlock) and try again.
                    """
            )
        }
        if domain == lib.ioErrorQuark()
            || (domain == lib.dbusErrorQuark() && LibSecret.unavailableDBusCodes.contains(code))
        {
            return PrismPersistenceError(
                code: .secretServiceUnavailable,
                key: key,
                message: """
                    Could not \(what): no Secret Service, or no default keyring in it, is available (\(text); \(origin)). On Linux, \
                    PrismKeychainPersistence needs a Secret Service such as gnome-keyring on the D-Bus \
                    session bus, with an unlocked default keyring; headless, run the program under \
                    dbus-run-session with gnome-keyring-daemon --unlock.
                    """
            )
        }
        return PrismPersistenceError(
            code: .keychainFailed,
            key: key,
            message: "Could not \(what): the Secret Service answered with an error (\(text); \(origin))."
        )
    }
}
#endif
