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
/// without the secret. Items are readable after the first unlock of the device. The keychain
/// keeps apps apart by their identity (access groups); ``application`` is not stored. On macOS
/// the items live in the data protection keychain, which needs a signed app; an unsigned
/// command-line tool passes `macOSKeychain: .fileBased` (``MacOSKeychain``).
///
/// ## Linux
/// A secret of the freedesktop Secret Service (gnome-keyring, KeePassXC, ...) through libsecret,
/// in the default collection, with the schema `org.prism.PrismKeychainPersistence.v2` and the
/// attributes `application`, `service` and `account`. The Secret Service belongs to the user, not
/// to an app, so the ``application`` attribute is what keeps two apps' items apart: an app never
/// reads, overwrites or moves aside another app's item, even under the same service and key
/// (<doc:KeychainOnLinux>). A save replaces the existing secret in one call. The
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

    /// The application identity items carry on Linux unless another is given: the main bundle's
    /// identifier where there is one, else the executable's file name (`my-server` for
    /// `/usr/bin/my-server`). Give one explicitly when two programs share a name, or when one
    /// app ships several executables that must share their secrets.
    public static var defaultApplication: String {
        if let identifier = Bundle.main.bundleIdentifier, !identifier.isEmpty { return identifier }
        return ProcessInfo.processInfo.processName
    }

    /// What a load does on Linux when this application has no item for a key but an item that
    /// an earlier version of Prism saved there does exist. Those items carry no application:
    /// every app of the user shared them.
    ///
    /// ``ignore`` is the default: a secret is never handed to an application just because it
    /// asked for the key first (any app of the user's that uses the same service name and key
    /// would get it). An app that saved its secrets with Prism 0.1 passes ``adopt`` for its own
    /// service, so that its users stay signed in after the upgrade.
    public enum SharedItems: Sendable {
        /// Moves the shared item into this application's items (and removes the shared one), so
        /// that users of an app that saved secrets before stay signed in after the upgrade; a
        /// clear removes a shared item too. The first app to load the key adopts it: if two apps
        /// used the same service and key before, give one of them ``ignore``.
        case adopt
        /// Leaves shared items alone: they are not read, moved or removed.
        case ignore
    }

    /// Which of macOS's two keychains holds the items; other platforms have one, and ignore it.
    public enum MacOSKeychain: Sendable {
        /// The data protection keychain, the default and the one Apple recommends: items belong
        /// to the app's identity (so a new build reads them without a prompt) and are readable
        /// after the first unlock. It serves only a signed program with an application
        /// identifier; anything else gets ``PrismPersistenceError/Code-swift.struct/keychainUnavailable``
        /// (`errSecMissingEntitlement`, -34018). An item Prism 0.1 saved in the login keychain is
        /// moved over when it is first loaded; looking for it never shows a prompt.
        case dataProtection
        /// The legacy file-based login keychain, where Prism 0.1 saved: for a command-line tool
        /// that runs unsigned, and the way such a tool keeps reading what it saved before. Items
        /// belong to the program's code signature, so a rebuilt tool meets an access prompt (or,
        /// with no one to answer it, ``PrismPersistenceError/Code-swift.struct/keychainLocked``),
        /// as does a locked login keychain.
        case fileBased
    }

    /// The service name the values are stored under.
    public let service: String

    /// The application whose items these are (stored as an attribute on Linux).
    public let application: String

    private let store: KeychainStore

    /// Saves under the service name `service`, as `application`.
    ///
    /// - Parameters:
    ///   - service: The service name, ``defaultService`` unless given.
    ///   - application: The application identity, ``defaultApplication`` unless given. Linux
    ///     keeps items of different applications apart by it; Apple platforms by the app's
    ///     own identity.
    ///   - sharedItems: On Linux, whether a load adopts an item an earlier version saved for
    ///     every application (``SharedItems/adopt``) or ignores it (``SharedItems/ignore``, the
    ///     default).
    ///   - macOSKeychain: On macOS, the data protection keychain (``MacOSKeychain/dataProtection``,
    ///     the default) or, for an unsigned command-line tool, the login keychain
    ///     (``MacOSKeychain/fileBased``).
    public init(
        service: String = PrismKeychainPersistence.defaultService,
        application: String = PrismKeychainPersistence.defaultApplication,
        sharedItems: SharedItems = .ignore,
        macOSKeychain: MacOSKeychain = .dataProtection
    ) {
        precondition(!service.isEmpty, "PrismKeychainPersistence: the service name must not be empty.")
        precondition(!application.isEmpty, "PrismKeychainPersistence: the application must not be empty.")
        self.service = service
        self.application = application
        #if !canImport(Security) && (canImport(Glibc) || canImport(Musl))
        self.store = SecretServiceStore(
            service: service, namespace: .application(application), adoptsSharedItems: sharedItems == .adopt)
        #elseif canImport(Security)
        self.store = KeychainStore(service: service, fileBased: macOSKeychain == .fileBased)
        #else
        self.store = KeychainStore(service: service)
        #endif
    }

    #if !canImport(Security) && (canImport(Glibc) || canImport(Musl))
    /// Saves under `service` through the libsecret found as `library` (tests: one that is not there).
    init(service: String, library: String) {
        self.service = service
        self.application = Self.defaultApplication
        self.store = SecretServiceStore(
            service: service, namespace: .application(application), library: LibSecret.load(library))
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
