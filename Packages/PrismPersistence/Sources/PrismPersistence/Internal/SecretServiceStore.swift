#if !canImport(Security) && canImport(CLibSecret)
import CLibSecret
import Foundation

/// The freedesktop Secret Service (gnome-keyring, KeePassXC, ...) through libsecret.
///
/// Each value is a secret in the default collection with the schema
/// `org.prism.PrismKeychainPersistence` and two attributes, `service` and `account` (the key),
/// like a generic password of Apple's keychain. The secret is the JSON text of the envelope.
///
/// Only libsecret's non-variadic calls are used (`secret_schema_newv`,
/// `secret_password_storev_sync`, `..._lookupv_sync`, `..._clearv_sync`, `..._searchv_sync`),
/// with the attributes in a `GHashTable`. Everything libsecret returns is freed, and every
/// `GError` becomes a thrown ``PrismPersistenceError`` that carries its message.
///
/// libsecret answers a lookup in a locked collection (when unlocking is refused or no prompt
/// can be shown) with no secret and no error; so does it answer a clear. Each time a lookup or
/// a clear finds nothing, a search that does not unlock tells a missing item from a locked
/// one, and a locked one throws `keychainLocked` instead of passing for missing.
struct SecretServiceStore: RawStore {
    static let schemaName = "org.prism.PrismKeychainPersistence"

    /// The sync calls each spin a main loop of their own; one at a time in this process.
    private static let lock = NSLock()

    let service: String

    func location(of key: String) -> URL? {
        nil
    }

    func read(key: String) throws -> Data? {
        try withSchema(key: key) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            let password = secret_password_lookupv_sync(schema, attributes, nil, &error)
            if let error { throw Self.failure(error, key: key, doing: "look up the secret") }
            if let password {
                defer { secret_password_free(password) }
                return Data(bytes: password, count: strlen(password))
            }
            try checkNotLocked(schema, attributes, key: key, doing: "read")
            return nil
        }
    }

    func write(_ data: Data, key: String) throws {
        // JSON text: UTF-8, with no NUL (JSONEncoder escapes control characters).
        let password = String(decoding: data, as: UTF8.self)
        try withSchema(key: key) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            // Replaces an existing item with the same attributes in the same call: there is no
            // moment when neither the old secret nor the new one is stored.
            let stored = secret_password_storev_sync(
                schema,
                attributes,
                nil,
                "\(service): \(key)",
                password,
                nil,
                &error
            )
            if let error { throw Self.failure(error, key: key, doing: "store the secret") }
            guard stored != 0 else {
                throw PrismPersistenceError(
                    code: .keychainFailed,
                    key: key,
                    message: "The Secret Service did not store the secret and gave no reason."
                )
            }
        }
    }

    func remove(key: String) throws {
        try withSchema(key: key) { schema, attributes in
            var error: UnsafeMutablePointer<GError>?
            let removed = secret_password_clearv_sync(schema, attributes, nil, &error)
            if let error { throw Self.failure(error, key: key, doing: "remove the secret") }
            if removed == 0 { try checkNotLocked(schema, attributes, key: key, doing: "remove") }
        }
    }

    func moveAside(key: String, suffix: String) throws -> MovedAside {
        guard let data = try read(key: key) else {
            throw PrismPersistenceError(
                code: .keychainFailed, key: key, message: "The secret vanished before it was moved aside.")
        }
        var attempt = 1
        var target = "\(key).\(suffix)"
        while try read(key: target) != nil {
            attempt += 1
            target = "\(key).\(suffix)-\(attempt)"
        }
        try write(data, key: target)
        try remove(key: key)
        return MovedAside(key: target, url: nil)
    }

    /// Throws `keychainLocked` if an item matches `attributes` that a lookup could not read.
    private func checkNotLocked(
        _ schema: UnsafeMutablePointer<SecretSchema>,
        _ attributes: OpaquePointer,
        key: String,
        doing what: String
    ) throws {
        var error: UnsafeMutablePointer<GError>?
        let items = secret_password_searchv_sync(schema, attributes, SECRET_SEARCH_ALL, nil, &error)
        defer { if let items { g_list_free_full(items, g_object_unref) } }
        if let error { throw Self.failure(error, key: key, doing: "search for the secret") }
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

    /// Runs `body` with the schema and the attributes of `key`, one call at a time, and frees
    /// both afterwards.
    private func withSchema<Result>(
        key: String,
        _ body: (UnsafeMutablePointer<SecretSchema>, OpaquePointer) throws -> Result
    ) throws -> Result {
        Self.lock.lock()
        defer { Self.lock.unlock() }

        let types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, nil)!
        // SECRET_SCHEMA_ATTRIBUTE_STRING is 0: a NULL value in the table.
        let stringType = UnsafeMutableRawPointer(bitPattern: UInt(SECRET_SCHEMA_ATTRIBUTE_STRING.rawValue))
        g_hash_table_insert(types, g_strdup("service"), stringType)
        g_hash_table_insert(types, g_strdup("account"), stringType)
        let schema = secret_schema_newv(Self.schemaName, SECRET_SCHEMA_NONE, types)!
        g_hash_table_unref(types)
        defer { secret_schema_unref(schema) }

        let attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        g_hash_table_insert(attributes, g_strdup("service"), g_strdup(service))
        g_hash_table_insert(attributes, g_strdup("account"), g_strdup(key))
        defer { g_hash_table_unref(attributes) }

        return try body(schema, attributes)
    }

    /// `error` as a ``PrismPersistenceError`` with its message; frees `error`.
    private static func failure(
        _ error: UnsafeMutablePointer<GError>,
        key: String,
        doing what: String
    ) -> PrismPersistenceError {
        defer { g_error_free(error) }
        let domain = error.pointee.domain
        let code = error.pointee.code
        let text = error.pointee.message.map { String(cString: $0) } ?? "no message"
        let origin = "\(String(cString: g_quark_to_string(domain))) \(code)"

        if domain == secret_error_get_quark() && code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) {
            return PrismPersistenceError(
                code: .keychainLocked,
                key: key,
                message: """
                    Could not \(what): the keyring collection is locked (\(text); \(origin)). Unlock the \
                    keyring (log in, or start gnome-keyring-daemon with --unlock) and try again.
                    """
            )
        }
        if domain == g_io_error_quark() || (domain == g_dbus_error_quark() && unavailableCodes.contains(code)) {
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

    /// D-Bus errors that mean nobody (or no default keyring) is there to answer.
    private static let unavailableCodes: Set<Int32> = Set(
        [
            G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_NO_SERVER,
            G_DBUS_ERROR_DISCONNECTED, G_DBUS_ERROR_NO_REPLY, G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT,
            G_DBUS_ERROR_SPAWN_EXEC_FAILED, G_DBUS_ERROR_SPAWN_FORK_FAILED, G_DBUS_ERROR_SPAWN_CHILD_EXITED,
            G_DBUS_ERROR_SPAWN_CHILD_SIGNALED, G_DBUS_ERROR_SPAWN_FAILED, G_DBUS_ERROR_SPAWN_SETUP_FAILED,
            G_DBUS_ERROR_SPAWN_CONFIG_INVALID, G_DBUS_ERROR_SPAWN_SERVICE_INVALID,
            G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND, G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID,
            G_DBUS_ERROR_SPAWN_FILE_INVALID, G_DBUS_ERROR_SPAWN_NO_MEMORY, G_DBUS_ERROR_UNKNOWN_OBJECT,
        ].map { Int32($0.rawValue) }
    )
}
#endif
