@_spi(PrismInternals) import PrismPersistence

/// Locks the default collection of the Secret Service this process talks to, as a user who
/// locks their keyring would; says what happened.
func lockDefaultCollection() -> String {
    #if canImport(Security)
    // Locking the keyring is a Secret Service (Linux) test.
    return "unsupported"
    #else
    return prismLockDefaultKeyringCollection()
    #endif
}
