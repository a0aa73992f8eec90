import Foundation
import Logging
import Testing

@testable import PrismPersistence

/// A load that failed for a reason other than "nothing saved" or "unreadable, moved aside"
/// leaves the stored value in place, and the middleware never saves over it.
@MainActor
@Suite("A failed restore never leads to an overwrite")
struct FailedRestoreTests {
    struct Account: Codable, Sendable, Equatable {
        var token = ""
        var edits = 0
    }

    enum AccountAction: Sendable {
        case setToken(String)
        case edit
    }

    static let reducer = PrismReduce<Account, AccountAction> { state, action in
        switch action {
        case .setToken(let token): state.token = token
        case .edit: state.edits += 1
        }
        return .none
    }

    /// Real files underneath, with a load that fails while `unavailable` is set, the way a
    /// Secret Service that has not started yet, a locked keyring or an I/O error fails: the
    /// value is there, it just cannot be read now.
    struct UnavailableAtFirst: PrismPersistenceStrategy {
        struct NotReady: Error {}

        let disk: PrismDiskPersistence
        let unavailable = LockedBox(true)
        let loadThreads = LockedBox<[Bool]>([])
        let saves = LockedBox(0)

        func save<State: Codable & Sendable>(_ state: State, key: String) throws {
            saves.mutate { $0 += 1 }
            try disk.save(state, key: key)
        }

        func load<State: Codable & Sendable>(key: String) throws -> State? {
            loadThreads.mutate { $0.append(Thread.isMainThread) }
            if unavailable.wrappedValue { throw NotReady() }
            return try disk.load(key: key)
        }

        func clear(key: String) throws { try disk.clear(key: key) }
    }

    static func middleware(
        _ strategy: some PrismPersistenceStrategy,
        errors: LockedBox<[PrismPersistenceError]> = LockedBox([])
    ) -> PrismPersistMiddleware<Account, AccountAction> {
        PrismPersistMiddleware(
            strategy: strategy,
            key: "account",
            coalescingWindow: .seconds(3600),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            onError: { error in errors.mutate { $0.append(error) } }
        )
    }

    /// A store restored through a middleware over `strategy`, from `Account()` when nothing can
    /// be loaded; the middleware; and the errors it reports.
    static func restoredStore(
        _ strategy: some PrismPersistenceStrategy
    ) -> (
        PrismStore<Account, AccountAction>, PrismPersistMiddleware<Account, AccountAction>,
        errors: LockedBox<[PrismPersistenceError]>
    ) {
        let errors = LockedBox<[PrismPersistenceError]>([])
        let persistence = middleware(strategy, errors: errors)
        return (PrismStore(restoringWith: persistence, default: Account(), reducer: reducer), persistence, errors)
    }

    /// Runs `body` with an `UnavailableAtFirst` strategy over a fresh folder, `saved` (if any)
    /// already stored under "account".
    static func withStrategy(
        saving saved: Account? = nil,
        _ body: (UnavailableAtFirst) async throws -> Void
    ) async throws {
        try await withTemporaryDirectory { directory in
            let strategy = UnavailableAtFirst(disk: PrismDiskPersistence(directory: directory))
            if let saved { try strategy.disk.save(saved, key: "account") }
            try await body(strategy)
        }
    }

    @Test("a load that fails keeps the middleware from saving over the stored value")
    func failedLoadBlocksSaving() async throws {
        try await Self.withStrategy(saving: Account(token: "secret", edits: 41)) { strategy in
            let (store, persistence, errors) = Self.restoredStore(strategy)
            #expect(store.state == Account())

            // The Secret Service is up now: a save would succeed, and must not happen.
            strategy.unavailable.mutate { $0 = false }
            store.send(.edit)
            store.send(.edit)
            let error = try #require(await flushError(persistence))
            #expect(error.code == .overwriteRefused)
            #expect(error.key == "account")
            #expect((error.underlying as? PrismPersistenceError)?.code == .strategyFailed)
            #expect(strategy.saves.wrappedValue == 0)
            let stored: Account? = try strategy.disk.load(key: "account")
            #expect(stored == Account(token: "secret", edits: 41))

            // The app hears about it: onError (the load, then the first refused save), and
            // loadFailure until the block is lifted.
            #expect(errors.wrappedValue.map(\.code) == [.strategyFailed, .overwriteRefused])
            #expect(persistence.loadFailure?.code == .strategyFailed)
            #expect(persistence.loadFailure?.underlying is UnavailableAtFirst.NotReady)
        }
    }

    @Test("a later restore that succeeds lifts the block, and the loaded state is what is saved next")
    func laterRestoreLiftsTheBlock() async throws {
        try await Self.withStrategy(saving: Account(token: "secret", edits: 41)) { strategy in
            let (store, persistence, _) = Self.restoredStore(strategy)
            store.send(.edit)
            #expect(await flushError(persistence)?.code == .overwriteRefused)

            strategy.unavailable.mutate { $0 = false }
            let saved = try #require(try await persistence.restore())
            #expect(saved == Account(token: "secret", edits: 41))
            #expect(persistence.loadFailure == nil)
            store.replaceState(with: saved)
            // The state held back while blocked (edits: 1, no token) is not saved now.
            try await persistence.flush()
            #expect(strategy.saves.wrappedValue == 0)
            store.send(.edit)
            try await persistence.flush()
            let stored: Account? = try strategy.disk.load(key: "account")
            #expect(stored == Account(token: "secret", edits: 42))
        }
    }

    @Test("allowOverwrite lets the middleware replace the stored value, saving what it held back")
    func allowOverwriteReplaces() async throws {
        try await Self.withStrategy(saving: Account(token: "old", edits: 9)) { strategy in
            let (store, persistence, _) = Self.restoredStore(strategy)
            store.send(.setToken("new"))
            #expect(await flushError(persistence)?.code == .overwriteRefused)

            persistence.allowOverwrite()
            #expect(persistence.loadFailure == nil)
            try await persistence.flush()
            let stored: Account? = try strategy.disk.load(key: "account")
            #expect(stored == Account(token: "new", edits: 0))
        }
    }

    @Test("restore() throws the load's error and blocks saving; restore(default:) reports it")
    func throwingRestore() async throws {
        try await Self.withStrategy { strategy in
            let errors = LockedBox<[PrismPersistenceError]>([])
            let persistence = Self.middleware(strategy, errors: errors)
            do throws(PrismPersistenceError) {
                _ = try await persistence.restore()
                Issue.record("restore() did not throw")
            } catch {
                #expect(error.code == .strategyFailed)
                #expect(error.underlying is UnavailableAtFirst.NotReady)
            }
            #expect(persistence.loadFailure?.code == .strategyFailed)
            #expect(persistence.restore(default: Account(token: "default")) == Account(token: "default"))
            #expect(errors.wrappedValue.map(\.code) == [.strategyFailed, .strategyFailed])
        }
    }

    @Test("a middleware that never restored loads before its first save, and does not save over what it cannot read")
    func firstSaveChecksFirst() async throws {
        try await Self.withStrategy(saving: Account(token: "secret")) { strategy in
            let errors = LockedBox<[PrismPersistenceError]>([])
            let persistence = Self.middleware(strategy, errors: errors)
            // Restored by hand with `try?`, which hides the failure from the middleware.
            let saved: Account? = try? strategy.load(key: "account")
            let store = PrismStore(initialState: saved ?? Account(), reducer: Self.reducer, middleware: persistence)
            strategy.unavailable.mutate { $0 = false }
            // Readable by the time of the first save: checked, then saved.
            store.send(.edit)
            try await persistence.flush()
            #expect(strategy.saves.wrappedValue == 1)

            strategy.unavailable.mutate { $0 = true }
            let other = Self.middleware(strategy, errors: errors)
            let second = PrismStore(initialState: Account(), reducer: Self.reducer, middleware: other)
            second.send(.edit)
            #expect(await flushError(other)?.code == .overwriteRefused)
            let stored: Account? = try strategy.disk.load(key: "account")
            #expect(stored == Account(token: "", edits: 1))
        }
    }

    @Test("an unreadable file that was moved aside does not block saving")
    func movedAsideDoesNotBlock() async throws {
        try await withTemporaryDirectory { directory in
            try Data("{\"version\":1,\"sta".utf8).write(to: directory.appendingPathComponent("account.json"))
            let (store, persistence, errors) = Self.restoredStore(PrismDiskPersistence(directory: directory))
            #expect(persistence.loadFailure == nil)
            #expect(errors.wrappedValue.first?.code == .corruptFile)
            store.send(.edit)
            try await persistence.flush()
            let stored: Account? = try PrismDiskPersistence(directory: directory).load(key: "account")
            #expect(stored?.edits == 1)
            #expect(fileNames(in: directory).contains { $0.hasPrefix("account.json.corrupt-") })
        }
    }

    @Test("an unreadable value that could not be moved aside blocks saving")
    func notMovedAsideBlocks() async throws {
        struct CorruptInPlace: PrismPersistenceStrategy {
            let saves = LockedBox(0)
            func save<State: Codable & Sendable>(_ state: State, key: String) throws { saves.mutate { $0 += 1 } }
            func load<State: Codable & Sendable>(key: String) throws -> State? {
                throw PrismPersistenceError(code: .corruptFile, key: key, message: "Unreadable, left in place.")
            }
            func clear(key: String) throws {}
        }
        let strategy = CorruptInPlace()
        let (store, persistence, _) = Self.restoredStore(strategy)
        #expect(persistence.loadFailure?.code == .corruptFile)
        store.send(.edit)
        #expect(await flushError(persistence)?.code == .overwriteRefused)
        #expect(strategy.saves.wrappedValue == 0)
    }

    @Test("a state file that cannot be read from the disk is never replaced")
    func unreadableFileOnDisk() async throws {
        try await withTemporaryDirectory { directory in
            // A folder where the file should be: open() works, read() fails with EISDIR, as
            // with EIO. (The tests may run as root, for whom EACCES cannot be produced.)
            let path = directory.appendingPathComponent("account.json")
            try plantFolder(at: path, holding: "kept")
            let (store, persistence, _) = Self.restoredStore(PrismDiskPersistence(directory: directory))
            #expect(persistence.loadFailure?.code == .readFailed)
            store.send(.edit)
            let error = try #require(await flushError(persistence))
            #expect(error.code == .overwriteRefused)
            #expect((error.underlying as? PrismPersistenceError)?.code == .readFailed)
            #expect(try Data(contentsOf: path.appendingPathComponent("inside")) == Data("kept".utf8))
        }
    }

    @Test("PrismStore(restoringOffMainActorWith:) loads off the main actor")
    func asyncRestoreLoadsOffTheMainActor() async throws {
        try await Self.withStrategy { strategy in
            strategy.unavailable.mutate { $0 = false }
            try strategy.disk.save(Account(token: "saved", edits: 3), key: "account")
            let persistence = Self.middleware(strategy)
            let store = await PrismStore(
                restoringOffMainActorWith: persistence,
                default: Account(),
                reducer: Self.reducer
            )
            #expect(store.state == Account(token: "saved", edits: 3))
            #expect(strategy.loadThreads.wrappedValue == [false])
            store.send(.edit)
            #expect(persistence.scheduler.readsStore)
            try await persistence.flush()
            let stored: Account? = try strategy.disk.load(key: "account")
            #expect(stored?.edits == 4)
        }
    }

    @Test("PrismStore(restoringOffMainActorWith:) falls back to the default and blocks saving when the load fails")
    func asyncRestoreFailure() async throws {
        try await Self.withStrategy(saving: Account(token: "secret")) { strategy in
            let persistence = Self.middleware(strategy)
            let store = await PrismStore(
                restoringOffMainActorWith: persistence,
                default: Account(token: "default"),
                reducer: Self.reducer
            )
            #expect(store.state.token == "default")
            #expect(persistence.loadFailure != nil)
            store.send(.edit)
            #expect(await flushError(persistence)?.code == .overwriteRefused)
        }
    }

    #if os(Linux)
    @Test(
        "a locked keyring at restore: the middleware does not save over the credentials",
        .needsOwnKeyring
    )
    func lockedKeyring() async throws {
        // A keyring of its own (a nested with-keyring.sh): save the credentials, lock the
        // keyring as a user would, then restore through the middleware and save.
        let script = """
            "$0" keychain-save svc auth-account secret && "$0" keychain-lock \
            && "$0" keychain-restore svc auth-account replaced
            """
        guard let results = try await TestHelper.resultsInOwnKeyring(of: script, count: 3) else { return }
        #expect(results[0] == "saved")
        #expect(results[1] == "locked 1")
        // Refused before the keychain was asked to store anything; the app heard of the
        // locked keyring through onError and loadFailure.
        #expect(
            results[2]
                == "error overwriteRefused underlying=keychainLocked loadFailure=keychainLocked "
                + "reported=keychainLocked,overwriteRefused",
            "\(results[2])"
        )
    }
    #endif
}

/// The error `flush()` throws, or nil.
@MainActor
func flushError<State, Action>(_ persistence: PrismPersistMiddleware<State, Action>) async -> PrismPersistenceError? {
    do {
        try await persistence.flush()
        return nil
    } catch let error as PrismPersistenceError {
        return error
    } catch {
        Issue.record("flush threw \(error)")
        return nil
    }
}
