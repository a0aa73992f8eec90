#if canImport(CLibSecret)
import CLibSecret

/// Locks the default collection of the Secret Service this process talks to, as a user who
/// locks their keyring would; says what happened.
func lockDefaultCollection() -> String {
    var error: UnsafeMutablePointer<GError>?
    func failure(_ what: String) -> String {
        defer { if error != nil { g_error_free(error) } }
        return "\(what) failed: \(error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "no error")"
    }
    guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, nil, &error) else {
        return failure("secret_service_get_sync")
    }
    defer { g_object_unref(service) }
    guard let collection = secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE, nil, &error)
    else {
        return failure("secret_collection_for_alias_sync")
    }
    defer { g_object_unref(collection) }
    let objects = g_list_append(nil, collection)
    defer { g_list_free(objects) }
    let locked = secret_service_lock_sync(service, objects, nil, nil, &error)
    guard locked > 0 else { return failure("secret_service_lock_sync") }
    return "locked \(locked)"
}
#else
/// Locking the keyring is a Secret Service (Linux) test.
func lockDefaultCollection() -> String {
    "unsupported"
}
#endif
