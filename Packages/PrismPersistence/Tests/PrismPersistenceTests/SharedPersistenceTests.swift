import Foundation
import PrismPersistence
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shared values with persisted keys, against real files, a real UserDefaults suite, the real
/// Secret Service and real child processes.
@MainActor
@Suite("Persisted shared values")
struct SharedPersistenceTests {
    struct AppState: Equatable, Sendable {
        @PrismShared var settings: Settings
    }

    struct CodableState: Equatable, Codable, Sendable {
        @PrismShared var settings: Settings
    }

    enum AppAction: Sendable {
        case setTheme(String)
        case setFontSize(Int)
    }

    static let reducer = PrismReduce<AppState, AppAction> { state, action in
        switch action {
        case .setTheme(let theme): state.settings.theme = theme
        case .setFontSize(let size): state.settings.fontSize = size
        }
        return .none
    }

    static let defaultSettings = Settings(theme: "light", fontSize: 14)

    /// A store over `key`'s value, made in `storage` (a real one: the app's, not a test's).
    func makeStore(
        _ key: PrismPersistedKey<Settings>,
        in storage: PrismSharedStorage
    ) -> PrismStore<AppState, AppAction> {
        let state = withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            AppState(settings: PrismShared(wrappedValue: Self.defaultSettings, key))
        }
        return PrismStore(initialState: state, reducer: Self.reducer)
    }

    /// A store over `key`'s value, made in a storage of its own; and that storage.
    func makeStore(
        _ key: PrismPersistedKey<Settings>
    ) -> (PrismStore<AppState, AppAction>, PrismSharedStorage) {
        let storage = PrismSharedStorage()
        return (makeStore(key, in: storage), storage)
    }

    /// A store over `key`'s value, made in a storage of its own; and the errors the key reports.
    func makeReportingStore(
        _ key: PrismPersistedKey<Settings>
    ) -> (PrismStore<AppState, AppAction>, PrismSharedStorage, reported: LockedBox<[PrismPersistenceError]>) {
        let reported = LockedBox<[PrismPersistenceError]>([])
        let (store, storage) = makeStore(key.onError { error in reported.mutate { $0.append(error) } })
        return (store, storage, reported)
    }

    /// Flushes `storage`, then expects the file of the "settings" key in `directory` to hold
    /// `expected`.
    func expectSaved(
        _ expected: Settings,
        in directory: URL,
        flushing storage: PrismSharedStorage,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await storage.flush()
        #expect(try savedSettings(in: directory) == expected, sourceLocation: sourceLocation)
    }

    @Test("a file-backed value is saved after a change and loaded by the next launch")
    func fileRoundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let (store, storage) = makeStore(.file("settings", directory: directory))
            #expect(store.state.settings == Self.defaultSettings)
            store.send(.setTheme("dark"))
            try await expectSaved(Settings(theme: "dark", fontSize: 14), in: directory, flushing: storage)
            // The next launch: a storage of its own, the same file.
            let (next, _) = makeStore(.file("settings", directory: directory))
            #expect(next.state.settings == Settings(theme: "dark", fontSize: 14))
        }
    }

    @Test("a state decoded before any holder: the key's first holder brings its saved value, and changes save")
    func decodedBeforeTheKey() async throws {
        try await withTemporaryDirectory { directory in
            try PrismDiskPersistence(directory: directory).save(Settings(theme: "saved", fontSize: 9), key: "settings")
            let storage = PrismSharedStorage()
            let key = PrismPersistedKey<Settings>.file("settings", directory: directory)
            let written = #"{"settings":{"prismSharedKey":"\#(key.id)","value":{"fontSize":30,"theme":"decoded"}}}"#
            let decoded = try withDependencies {
                $0.prismSharedStorage = storage
            } operation: {
                try JSONDecoder().decode(CodableState.self, from: Data(written.utf8))
            }
            #expect(decoded.settings == Settings(theme: "decoded", fontSize: 30))
            // The key's own place is the one source of its value: its saved value replaces the decoded one.
            let store = makeStore(key, in: storage)
            #expect(store.state.settings == Settings(theme: "saved", fontSize: 9))
            #expect(decoded.settings == Settings(theme: "saved", fontSize: 9))
            store.send(.setFontSize(11))
            try await expectSaved(Settings(theme: "saved", fontSize: 11), in: directory, flushing: storage)
        }
    }

    @Test("an unreadable file at first load is moved aside and reported, the default is used, and saving goes on")
    func unreadableFileAtFirstLoad() async throws {
        try await withTemporaryDirectory { directory in
            try Data("{ not json".utf8).write(to: directory.appendingPathComponent("settings.json"))
            let (store, storage, reported) = makeReportingStore(.file("settings", directory: directory))
            #expect(store.state.settings == Self.defaultSettings)
            let error = try #require(reported.wrappedValue.first)
            #expect(error.code == .corruptFile)
            let movedAside = try #require(error.movedAsideURL)
            #expect(try String(contentsOf: movedAside, encoding: .utf8) == "{ not json")
            store.send(.setFontSize(20))
            try await storage.flush()
            let saved = try savedSettings(in: directory)
            #expect(saved?.fontSize == 20)
            // The unreadable bytes are still there, beside the new file.
            #expect(try String(contentsOf: movedAside, encoding: .utf8) == "{ not json")
        }
    }

    @Test("a value that could not be loaded (not unreadable: an I/O error) is never saved over")
    func failedLoadBlocksSaving() async throws {
        try await withTemporaryDirectory { directory in
            // A folder where the file should be: reading it fails with EISDIR, and what is there
            // may be the user's, so nothing may replace it.
            let path = directory.appendingPathComponent("settings.json")
            try plantFolder(at: path, holding: "keep me")
            let (store, storage, reported) = makeReportingStore(.file("settings", directory: directory))
            #expect(store.state.settings == Self.defaultSettings)
            store.send(.setTheme("dark"))
            await #expect(throws: PrismPersistenceError.self) { try await storage.flush() }
            #expect(reported.wrappedValue.map(\.code).contains(.overwriteRefused), "\(reported.wrappedValue)")
            #expect(try String(contentsOf: path.appendingPathComponent("inside"), encoding: .utf8) == "keep me")
            // The value in memory is what the app made it.
            #expect(store.state.settings.theme == "dark")
        }
    }

    @Test("a FIFO planted as the value's file is refused with readFailed at once, never read, and never saved over")
    func plantedFIFO() async throws {
        try await withTemporaryDirectory { directory in
            // Opening a FIFO for reading blocks until a writer comes: the restore would hang.
            let path = directory.appendingPathComponent("settings.json")
            #expect(mkfifo(path.path, 0o600) == 0)
            let (store, storage, reported) = makeReportingStore(.file("settings", directory: directory))
            #expect(store.state.settings == Self.defaultSettings)
            let error = try #require(reported.wrappedValue.first)
            #expect(error.code == .readFailed)
            #expect(error.message.contains("not a regular file"), "\(error.message)")
            store.send(.setTheme("dark"))
            await #expect(throws: PrismPersistenceError.self) { try await storage.flush() }
            var info = stat()
            #expect(lstat(path.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the FIFO is still there")
        }
    }

    @Test("the folder a watched value's file lives in is made readable by the user only")
    func watchedFolderMode() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("state/nested")
            let (store, storage) = makeStore(.file("settings", directory: folder))
            store.send(.setTheme("dark"))
            try await storage.flush()
            for url in [folder, folder.deletingLastPathComponent()] {
                let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber
                #expect(mode?.intValue == 0o700, "\(url.path)")
            }
        }
    }

    @Test("a key with a path in it is a reported invalidKey error, and nothing is written anywhere")
    func keysWithPathsAreRefused() async throws {
        try await withTemporaryDirectory { directory in
            let inner = directory.appendingPathComponent("inner", isDirectory: true)
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
            let (store, storage, reported) = makeReportingStore(.file("../escaped", directory: inner))
            store.send(.setTheme("dark"))
            await #expect(throws: PrismPersistenceError.self) { try await storage.flush() }
            #expect(reported.wrappedValue.map(\.code).contains(.invalidKey), "\(reported.wrappedValue)")
            #expect(fileNames(in: directory) == ["inner"])
            #expect(fileNames(in: inner).isEmpty)
            // The value in memory is what the app made it.
            #expect(store.state.settings.theme == "dark")
        }
    }

    /// Counts the saves that reach the disk.
    struct CountingDisk: PrismPersistenceStrategy {
        let disk: PrismDiskPersistence
        let saves = LockedBox(0)

        func save<State: Codable & Sendable>(_ state: State, key: String) throws {
            saves.mutate { $0 += 1 }
            try disk.save(state, key: key)
        }

        func load<State: Codable & Sendable>(key: String) throws -> State? {
            try disk.load(key: key)
        }

        func clear(key: String) throws {
            try disk.clear(key: key)
        }
    }

    @Test("a thousand changes in a burst make a handful of writes, the last value among them")
    func changesAreCoalesced() async throws {
        try await withTemporaryDirectory { directory in
            let counting = CountingDisk(disk: PrismDiskPersistence(directory: directory))
            let (store, storage) = makeStore(.persisted("settings", strategy: counting))
            for size in 1...1_000 { store.send(.setFontSize(size)) }
            try await storage.flush()
            #expect(counting.saves.wrappedValue <= 3, "\(counting.saves.wrappedValue) writes")
            let saved: Settings? = try counting.disk.load(key: "settings")
            #expect(saved?.fontSize == 1_000)
        }
    }

    @Test("in a test, persisted keys save in the test's own folder, not the app's")
    func testsSaveInTheirOwnFolder() async throws {
        @Dependency(\.prismSharedStorage) var storage
        let folder = try #require(storage.isolatedDirectory)
        let state = AppState(settings: PrismShared(wrappedValue: Self.defaultSettings, .file("settings")))
        let store = PrismStore(initialState: state, reducer: Self.reducer)
        store.send(.setTheme("dark"))
        try await storage.flush()
        let names = fileNames(in: folder)
        #expect(names.count == 1 && names[0].hasPrefix("file_settings-"), "\(names)")
        // Nothing reached the app's own folder.
        let appFile = PrismDiskPersistence.defaultDirectory().appendingPathComponent("settings.json")
        #expect(!FileManager.default.fileExists(atPath: appFile.path))
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("a defaults-backed value round-trips through a real UserDefaults suite")
    func defaultsRoundTrip() async throws {
        try await withDefaultsSuite { suite in
            let (store, storage) = makeStore(.defaults("settings", suiteName: suite))
            store.send(.setFontSize(18))
            try await storage.flush()
            let (next, _) = makeStore(.defaults("settings", suiteName: suite))
            #expect(next.state.settings.fontSize == 18)
        }
    }

    #if os(Linux)
    @Test(
        "a keychain-backed value round-trips through the real Secret Service",
        .needsSecretService
    )
    func keychainRoundTrip() async throws {
        let service = "prism-shared-tests"
        let account = uniqueKey()
        defer { try? PrismKeychainPersistence(service: service).clear(key: account) }
        let (store, storage) = makeStore(.keychain(account, service: service))
        store.send(.setTheme("dark"))
        try await storage.flush()
        let (next, _) = makeStore(.keychain(account, service: service))
        #expect(next.state.settings.theme == "dark")
    }

    @Test(
        "a locked keyring at first load: the default is used and the saved item is never overwritten",
        .needsOwnKeyring
    )
    func lockedKeyring() async throws {
        // A keyring of its own (a nested with-keyring.sh), locked after a save, as a user would;
        // then a process that holds the item as a shared value, changes it and flushes: its
        // load fails, it starts from the default, and it refuses to save (it never tries to
        // write over the item it could not read).
        let script = """
            "$0" keychain-save svc session first && "$0" keychain-lock \
            && "$0" shared-keychain svc session second && "$0" keychain-load svc session
            """
        guard let results = try await TestHelper.resultsInOwnKeyring(of: script, count: 4) else { return }
        #expect(results[0] == "saved")
        #expect(results[2].hasPrefix("loaded nil; flush overwriteRefused; reported keychainLocked"), "\(results[2])")
        // Still locked, so it cannot be read, but it was not replaced: nothing was written.
        #expect(results[3].hasPrefix("error keychainLocked"), "\(results[3])")
    }

    #endif

    @Test("kill -9 while a shared value saves: the file is always a complete earlier or later value")
    func killNineWhileSaving() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await killNineRounds(
                ["shared-loop", directory.path, "state"], rounds: 8, in: directory, eachRoundSaves: false)
        }
    }

    @Test("a signal inside the coalescing window: the last change is saved on the way out")
    func savedOnExit() async throws {
        try await withTemporaryDirectory { directory in
            let (process, output) = try TestHelper.start(["shared-exit", directory.path, "counter", "50"])
            let sent = try await readOutput(of: output, until: "sent 50\n")
            #expect(sent.contains("sent 50"))
            kill(process.processIdentifier, SIGTERM)
            try await offTheCooperativePool { process.waitUntilExit() }
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(try ExitFlushTests.savedCount(in: directory) == 50)
        }
    }
}

/// The settings saved under "settings" in `directory`, read from their file.
func savedSettings(in directory: URL) throws -> Settings? {
    try PrismDiskPersistence(directory: directory).load(key: "settings")
}
