import Foundation

#if canImport(Security)
typealias KeychainStore = SecurityKeychainStore
#elseif canImport(Glibc) || canImport(Musl)
typealias KeychainStore = SecretServiceStore
#else
typealias KeychainStore = UnavailableKeychainStore
#endif

/// Saves each state in the system keychain, for tokens and credentials.
///
/// ```swift
/// let persistence = PrismKeychainPersistence()
///
/// try persistence.save(credentials, key: "auth_credentials")
/// let creds: Credentials? = try persistence.load(key: "auth_credentials")
/// ```
///
/// Values are stored under the service name ``defaultService`` (`PrismStatePersistence`) unless
/// you pass another, with the key as the account. Changing the key or the service name between
/// app versions makes what was saved before inaccessible. Keys are Unicode-normalised (NFC), so
/// two spellings of "café" are one item.
///
/// ## Apple platforms
/// A generic password of the Security framework's keychain. A save updates the existing item in
/// one call (`SecItemUpdate`) and adds one only when there is none, so there is never a moment
/// without the secret. Items are readable after the first unlock of the device.
///
/// ## Linux
/// A secret of the freedesktop Secret Service (gnome-keyring, KeePassXC, ...) through libsecret,
/// in the default collection, with the schema `org.prism.PrismKeychainPersistence` and the
/// attributes `service` and `account`. A save replaces the existing secret in one call. The
/// Secret Service must be running on the D-Bus session bus with its default keyring unlocked
/// (a desktop session does this); headless, run the program under `dbus-run-session` with
/// `gnome-keyring-daemon --unlock`. libsecret is loaded when the keychain is first used
/// (`libsecret-1.so.0`; Debian package `libsecret-1-0`), so building needs nothing installed; on
/// a machine without it, every call throws
/// ``PrismPersistenceError/Code-swift.struct/secretServiceUnavailable`` with a message that says
/// what to install, and every other strategy works.
///
/// ## Errors
/// No Secret Service running, or no D-Bus session, throws
/// ``PrismPersistenceError/Code-swift.struct/secretServiceUnavailable``; a locked keychain or
/// keyring throws ``PrismPersistenceError/Code-swift.struct/keychainLocked``. Neither ever
/// passes for "nothing saved": a load returns `nil` only when the keychain answered that there
/// is no such item. A value that does not decode is moved to the account
/// `<key>.corrupt-<timestamp>` and the load throws.
public struct PrismKeychainPersistence: PrismPersistenceStrategy {
    /// The service name values are stored under unless another is given: `PrismStatePersistence`.
    public static let defaultService = "PrismStatePersistence"

    /// The service name the values are stored under.
    public var service: String { store.service }

    private let store: KeychainStore

    /// Saves under the service name `service`.
    public init(service: String = PrismKeychainPersistence.defaultService) {
        precondition(!service.isEmpty, "PrismKeychainPersistence: the service name must not be empty.")
        self.store = KeychainStore(service: service)
    }

    #if !canImport(Security) && (canImport(Glibc) || canImport(Musl))
    /// Saves under `service` through the libsecret found as `library` (tests: one that is not there).
    init(service: String, library: String) {
        self.store = SecretServiceStore(service: service, library: LibSecret.load(library))
    }
    #endif

    /// Saves `state` under `key`, replacing the previous value in one call.
    public func save<State: Codable & Sendable>(_ state: State, key: String) throws {
        try store.saveState(state, key: key)
    }

    /// The state saved under `key`, or `nil` if the keychain has no such item.
    public func load<State: Codable & Sendable>(key: String) throws -> State? {
        try store.loadState(State.self, key: key)
    }

    /// Removes what is saved under `key`; does nothing if there is no such item.
    public func clear(key: String) throws {
        try store.clearState(key: key)
    }
}
