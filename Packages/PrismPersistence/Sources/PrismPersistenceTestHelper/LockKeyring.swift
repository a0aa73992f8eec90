import PrismPersistence

/// Locks the default collection of the Secret Service this process talks to, as a user who
/// locks their keyring would; says what happened.
func lockDefaultCollection() -> String {
    #if canImport(Security)
    // Locking the keyring is a Secret Service (Linux) test.
    return "unsupported"
    #else
    return lockWithLibSecret()
    #endif
}

#if !canImport(Security) && (canImport(Glibc) || canImport(Musl))
/// Locks the default collection of the Secret Service this process talks to, as a user who
/// locks their keyring would, and says what happened.
private func lockWithLibSecret() -> String {
    let lib: LibSecret
    switch LibSecret.shared {
    case .success(let loaded): lib = loaded
    case .failure(let error): return "libsecret could not be loaded: \(error.reason)"
    }
    var error: LibSecret.Pointer?
    func failure(_ what: String) -> String {
        guard let error else { return "\(what) failed: no error" }
        return "\(what) failed: \(lib.take(error).message)"
    }
    guard let service = lib.serviceGet(0, nil, &error) else { return failure("secret_service_get_sync") }
    defer { lib.objectUnref(service) }
    guard let collection = "default".withCString({ lib.collectionForAlias(service, $0, 0, nil, &error) }) else {
        return failure("secret_collection_for_alias_sync")
    }
    defer { lib.objectUnref(collection) }
    let objects = lib.listAppend(nil, collection)
    defer { lib.listFree(objects) }
    let locked = lib.serviceLock(service, objects, nil, nil, &error)
    guard locked > 0 else { return failure("secret_service_lock_sync") }
    return "locked \(locked)"
}
#endif
