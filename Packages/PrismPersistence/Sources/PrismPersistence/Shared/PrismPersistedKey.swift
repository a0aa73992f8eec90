import Foundation
import Logging
import PrismStore

/// A key for a shared value that is saved between launches: in a file, in `UserDefaults`, in the
/// keychain, or with any ``PrismPersistenceStrategy``.
///
/// ```swift
/// struct AppState: Equatable {
///     @PrismShared(.file("settings")) var settings = Settings()
///     @PrismShared(.keychain("session")) var session: Session? = nil
/// }
/// ```
///
/// The value is loaded once, when the first holder of the key is made (in the storage in
/// effect, see `PrismSharedStorage`), and the default is used when nothing is saved. Changes
/// are saved like ``PrismPersistMiddleware``'s: the first at once, then at most once per
/// coalescing window (half a second), the latest value only, encoded and written off the main
/// actor; and on exit (`SIGTERM`, `SIGINT`, `SIGHUP`, `exit()`), within five seconds. Every
/// guarantee of this module holds:
///
/// - A value that could not be loaded (a locked keychain, an I/O error) is never saved over:
///   the holders start from the default, and saves are refused (and reported) until the app
///   restarts with a load that works.
/// - An unreadable value (corrupt JSON, a version without a migration) is moved aside and
///   reported, and the default is used; saving resumes.
/// - Values saved as a ``PrismVersionedState`` are migrated when loaded.
/// - Two processes that write one file key take turns (`flock`), and a write is atomic.
///
/// Failures are logged (swift-log) and passed to ``onError(_:)``.
///
/// `.file` and `.defaults` values saved by someone else (another process, another storage) are
/// loaded and set on their holders (observers hear of it), and not saved back: the file or the
/// suite is watched. A change made here after the outside value was loaded wins and is saved
/// over it.
///
/// In tests every persisted key saves in the test's temporary folder instead (see
/// `PrismSharedStorage.isolatedDirectory`), as a file named after its kind and name.
public struct PrismPersistedKey<Value: Codable & Sendable>: PrismSharedKey {
    /// How a persisted key saves, beside where.
    public struct Options: Sendable {
        var coalescingWindow: Duration = .milliseconds(500)
        var clock: any Clock<Duration> = ContinuousClock()
        var logger = Logger(label: "PrismPersistence")
        var onError: (@Sendable (PrismPersistenceError) -> Void)?
        var exitTimeout: Duration? = .seconds(5)
    }

    /// The key's name: the file name, defaults key or keychain account.
    public let name: String
    /// The kind and place the value is saved in, and the name (`"file:settings"`).
    public let id: String
    private let kind: String
    private let makeStrategy: @Sendable () -> any PrismPersistenceStrategy
    private var options = Options()

    /// A key saved under `name` by the strategy `makeStrategy` makes (once per storage).
    ///
    /// - Parameters:
    ///   - name: The key the strategy saves under.
    ///   - place: What, beside the name, tells this value apart from others of the same kind (a
    ///     folder, a suite, a service): part of ``id``.
    ///   - kind: The kind of place, part of ``id`` (`"file"`, `"defaults"`, `"keychain"`).
    ///   - makeStrategy: Makes the strategy, when the first holder of the key is made.
    public init(
        _ name: String,
        place: String? = nil,
        kind: String,
        strategy makeStrategy: @escaping @Sendable () -> any PrismPersistenceStrategy
    ) {
        self.name = name
        self.kind = kind
        self.id = "\(kind):" + (place.map { "\($0):" } ?? "") + name
        self.makeStrategy = makeStrategy
    }

    /// Saves changes together that come within `window` of the last save (half a second by
    /// default); `.zero` saves each change.
    public func coalescingWindow(_ window: Duration) -> Self {
        precondition(window >= .zero, "PrismPersistedKey: the coalescing window must not be negative.")
        var key = self
        key.options.coalescingWindow = window
        return key
    }

    /// Measures the coalescing window on `clock` (a test's clock, say).
    public func clock(_ clock: any Clock<Duration>) -> Self {
        var key = self
        key.options.clock = clock
        return key
    }

    /// Logs failed loads and saves on `logger`, at the error level.
    public func logger(_ logger: Logger) -> Self {
        var key = self
        key.options.logger = logger
        return key
    }

    /// Calls `handler` with every failed load or save, and the first save refused after a
    /// failed load, on the key's writer queue.
    public func onError(_ handler: @escaping @Sendable (PrismPersistenceError) -> Void) -> Self {
        var key = self
        key.options.onError = handler
        return key
    }

    /// Saves the latest value when the process ends, waiting at most `timeout` (five seconds
    /// by default); nil: does not (an app that flushes on its own shutdown path).
    public func flushOnExit(timeout: Duration?) -> Self {
        var key = self
        key.options.exitTimeout = timeout
        return key
    }

    /// The backing that loads and saves the value; in a storage with an `isolatedDirectory`
    /// (a test's), a file there.
    public func makeBacking(in storage: PrismSharedStorage) -> (any PrismSharedBacking<Value>)? {
        if let folder = storage.isolatedDirectory {
            return SharedPersistence(
                strategy: PrismDiskPersistence(directory: folder),
                key: Self.isolatedFileKey(for: id),
                options: options
            )
        }
        return SharedPersistence(strategy: makeStrategy(), key: name, options: options)
    }

    /// A file name for `id` that no other id shares: its letters and digits, then a hash.
    static func isolatedFileKey(for id: String) -> String {
        let readable = String(id.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }.prefix(80))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\(readable)-\(String(hash, radix: 16))"
    }
}

extension PrismSharedKey {
    /// A shared value saved as a JSON file named `name`, by ``PrismDiskPersistence`` (in its
    /// default folder, or `directory`).
    public static func file<V>(_ name: String, directory: URL? = nil) -> Self where Self == PrismPersistedKey<V> {
        PrismPersistedKey(name, place: directory?.standardizedFileURL.path, kind: "file") {
            directory.map { PrismDiskPersistence(directory: $0) } ?? PrismDiskPersistence()
        }
    }

    /// A shared value saved in `UserDefaults` under `name`, by ``PrismUserDefaultsPersistence``
    /// (in the standard defaults, or the suite `suiteName`).
    public static func defaults<V>(_ name: String, suiteName: String? = nil) -> Self
    where Self == PrismPersistedKey<V> {
        PrismPersistedKey(name, place: suiteName, kind: "defaults") {
            PrismUserDefaultsPersistence(suiteName: suiteName)
        }
    }

    /// A shared value saved in the keychain (the Secret Service on Linux) under the account
    /// `name`, by ``PrismKeychainPersistence``.
    public static func keychain<V>(
        _ name: String,
        service: String = PrismKeychainPersistence.defaultService,
        application: String = PrismKeychainPersistence.defaultApplication
    ) -> Self where Self == PrismPersistedKey<V> {
        PrismPersistedKey(name, place: "\(service)/\(application)", kind: "keychain") {
            PrismKeychainPersistence(service: service, application: application)
        }
    }

    /// A shared value saved under `name` by `strategy`, any ``PrismPersistenceStrategy``.
    ///
    /// `kind` and `place` tell it apart from values of other strategies with the same name
    /// (they make ``PrismPersistedKey/id``).
    public static func persisted<V>(
        _ name: String,
        strategy: some PrismPersistenceStrategy,
        kind: String = "persisted",
        place: String? = nil
    ) -> Self where Self == PrismPersistedKey<V> {
        PrismPersistedKey(name, place: place, kind: kind) { strategy }
    }
}
