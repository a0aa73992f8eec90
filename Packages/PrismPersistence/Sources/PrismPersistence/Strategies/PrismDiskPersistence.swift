import Foundation

/// Saves each state as a JSON file, `<key>.json`, in a folder.
///
/// ```swift
/// let persistence = PrismDiskPersistence()
///
/// try persistence.save(appState, key: "app_state")
/// let loaded: AppState? = try persistence.load(key: "app_state")
/// try persistence.clear(key: "app_state")
/// ```
///
/// ## Where
/// ``init()`` uses ``defaultDirectory(applicationName:)``: a folder named after the app in
/// Application Support on Apple platforms (Caches on tvOS), in the XDG data folder on Linux
/// (`$XDG_DATA_HOME`, else `~/.local/share`). ``init(directory:)`` uses any folder; it is created on the
/// first save.
///
/// ## Crash safety
/// A save is atomic and durable: it writes a temporary file in the same folder, flushes it to
/// the disk (`fsync`), renames it over `<key>.json` and flushes the folder. Whenever the
/// process is killed or the power fails, `<key>.json` holds the complete previous state or the
/// complete new one, never a mix. A failed save (a full disk, a file-size limit) throws
/// ``PrismPersistenceError`` and leaves the previous file as it was. A process killed in the
/// middle of a save may leave a hidden `.<key>.json.tmp-XXXXXX` file beside it; it is never
/// read, and the next process to use the folder removes it (unless a save of that key is under
/// way in another process).
///
/// ## Several processes
/// An app and its extension, or two runs of a command-line tool, can save the same key at the
/// same time. Each save, removal and moving aside of an unreadable file holds an advisory lock
/// (`flock`) on a hidden `.<key>.json.lock` file in the folder, so that a file is never torn,
/// no backup of an unreadable file is lost, and a good file that another process just saved is
/// never moved aside or removed: a load that finds an unreadable file looks again under the
/// lock before moving it. Other tools can take the same lock (`flock(1)`). The lock file is
/// empty and stays in the folder.
///
/// ## Symbolic links
/// `<key>.json` is opened without following a symbolic link: a link there makes a load throw
/// ``PrismPersistenceError/Code-swift.struct/readFailed`` (`errorNumber` `ELOOP`) and is never
/// read, moved aside or written through; a save replaces the link itself with the file. The
/// folder itself may be a link.
///
/// ## Unreadable files
/// A file that does not decode (truncated, empty, binary, another type, a newer schema) is
/// renamed to `<key>.json.corrupt-<timestamp>` (`<key>.json.version-<N>-<timestamp>` for a
/// version problem) and the load throws; the file is never replaced by a default, so the next
/// save cannot destroy what was there. Loading a key that has no file returns `nil`.
///
/// ## Keys
/// A key is a file name, never a path: an empty key, `.`, `..`, or one containing `/`, `\`,
/// NUL or another control character, or longer than 200 bytes of UTF-8, throws
/// ``PrismPersistenceError/Code-swift.struct/invalidKey`` and nothing is read or written.
/// Keys are Unicode-normalised (NFC): "café" typed with a precomposed "é" or with a combining
/// accent is one key and one file, on every file system. A file saved under another spelling
/// by an earlier version is still loaded under that spelling, until the next save. Case is not
/// folded: on a case-insensitive file system (macOS's default APFS volume) keys that differ only
/// in case (`Token`, `token`) name the same file, on Linux and iOS two files; use keys that differ
/// in more than case.
public struct PrismDiskPersistence: PrismPersistenceStrategy {
    /// The folder the files are in.
    public var directory: URL { store.directory }

    private let store: DiskStore

    /// Saves in ``defaultDirectory(applicationName:)``.
    public init() {
        self.init(directory: Self.defaultDirectory())
    }

    /// Saves in `directory`, created on the first save if it does not exist.
    ///
    /// ```swift
    /// let persistence = PrismDiskPersistence(
    ///     directory: FileManager.default.temporaryDirectory
    /// )
    /// ```
    public init(directory: URL) {
        self.store = DiskStore(directory: directory)
    }

    /// The folder ``init()`` saves in: a folder named `applicationName` in the platform's folder
    /// for an app's own data.
    ///
    /// - macOS, iOS, watchOS, visionOS: Application Support (`~/Library/Application Support` on
    ///   macOS, the app's container when sandboxed), as Apple's file-system guidance says for data
    ///   the app creates and the user does not manage: not the user's Documents, which the
    ///   user sees (and on macOS every program shares).
    /// - tvOS: Caches, the only local folder an app may write; the system may purge it when space
    ///   runs low, so keep what must survive in iCloud.
    /// - Linux: `$XDG_DATA_HOME/<applicationName>`, or `~/.local/share/<applicationName>`
    ///   when `XDG_DATA_HOME` is not set (or not an absolute path, as the XDG specification
    ///   says).
    ///
    /// `applicationName` defaults to the main bundle's identifier if it has one, else the name of
    /// the executable (`ProcessInfo.processInfo.processName`), so that two programs never share a
    /// folder. Characters that cannot be in a file name become `_`.
    ///
    /// ```swift
    /// let persistence = PrismDiskPersistence(
    ///     directory: PrismDiskPersistence.defaultDirectory(applicationName: "com.example.notes")
    /// )
    /// ```
    public static func defaultDirectory(applicationName: String? = nil) -> URL {
        let name = applicationName ?? defaultApplicationName()
        #if os(tvOS)
        return appDirectory(in: FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0], name)
        #elseif canImport(Darwin)
        return appDirectory(
            in: FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0], name)
        #else
        return dataDirectory(environment: ProcessInfo.processInfo.environment, applicationName: name)
        #endif
    }

    /// The folder of `applicationName` in `base`.
    static func appDirectory(in base: URL, _ applicationName: String) -> URL {
        base.appendingPathComponent(folderName(applicationName), isDirectory: true)
    }

    /// The XDG data folder of `environment`, with a folder for `applicationName` in it.
    static func dataDirectory(environment: [String: String], applicationName: String) -> URL {
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local", isDirectory: true)
                .appendingPathComponent("share", isDirectory: true)
        }
        return appDirectory(in: base, applicationName)
    }

    /// The main bundle's identifier, else the executable's name.
    static func defaultApplicationName() -> String {
        if let identifier = Bundle.main.bundleIdentifier, !identifier.isEmpty { return identifier }
        return ProcessInfo.processInfo.processName
    }

    /// `name` as one file name: separators and control characters become `_`.
    static func folderName(_ name: String) -> String {
        let cleaned = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { scalar in
                    scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control ? "_" : scalar
                }
            )
        )
        if cleaned.isEmpty || cleaned == "." || cleaned == ".." { return "PrismApp" }
        return cleaned
    }

    /// Saves `state` in `<key>.json`, atomically and durably.
    ///
    /// Throws ``PrismPersistenceError``: `invalidKey`, `encodingFailed`, `diskFull`,
    /// `writeFailed`. When it throws, the previous file is intact.
    public func save<State: Codable & Sendable>(_ state: State, key: String) throws {
        try store.saveState(state, key: key)
    }

    /// The state in `<key>.json`, or `nil` if there is no such file.
    ///
    /// A file that does not decode is moved aside and the error says where
    /// (``PrismPersistenceError/movedAsideURL``).
    public func load<State: Codable & Sendable>(key: String) throws -> State? {
        try store.loadState(State.self, key: key)
    }

    /// Removes `<key>.json`; does nothing if there is no such file.
    public func clear(key: String) throws {
        try store.clearState(key: key)
    }
}
