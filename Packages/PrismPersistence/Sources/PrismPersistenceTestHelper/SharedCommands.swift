import Foundation
import PrismPersistence
import PrismSupport

/// A state holding one shared value, and the action that replaces it.
struct SharedHolder<Value: Codable & Sendable & Equatable>: Sendable, Equatable {
    @PrismShared var value: Value
}

/// A store over a `SharedHolder` of `key`'s value, in a storage of its own (this process's).
@MainActor
func sharedStore<Value: Codable & Sendable & Equatable>(
    _ key: PrismPersistedKey<Value>,
    default defaultValue: Value
) -> (PrismStore<SharedHolder<Value>, Value>, PrismSharedStorage) {
    let storage = PrismSharedStorage()
    let holder = withDependencies {
        $0.prismSharedStorage = storage
    } operation: {
        SharedHolder(value: PrismShared(wrappedValue: defaultValue, key))
    }
    let store = PrismStore(
        initialState: holder,
        reducer: PrismReduce<SharedHolder<Value>, Value> { state, value in
            state.value = value
            return .none
        }
    )
    return (store, storage)
}

/// Changes a file-backed shared `CrashState` in a loop, each change saved at once (no window),
/// printing "ready" once the first is on disk: the test kills it with SIGKILL at any moment.
@MainActor
func sharedLoop(directory: String, key: String) async -> Never {
    let (store, storage) = sharedStore(
        PrismPersistedKey<CrashState>.file(key, directory: URL(fileURLWithPath: directory)).coalescingWindow(.zero),
        default: CrashState.make(0)
    )
    var counter = store.state.value.counter
    var announced = false
    let parent = getppid()
    while getppid() == parent {
        counter += 1
        store.send(CrashState.make(counter))
        if !announced {
            try? await storage.flush()
            print("ready")
            fflush(nil)
            announced = true
        }
        await Task.yield()
    }
    exit(0)
}

/// Sends COUNT changes to a file-backed shared counter whose coalescing window is an hour (only
/// the first is saved on its own), prints "sent N", and waits for a signal: the exit flush saves
/// the last one.
@MainActor
func sharedExit(directory: String, key: String, count: Int) async -> Never {
    var signals = sigset_t()
    sigemptyset(&signals)
    for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, number) }
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    let (store, _) = sharedStore(
        PrismPersistedKey<Counter>.file(key, directory: URL(fileURLWithPath: directory)).coalescingWindow(
            .seconds(3600)),
        default: Counter()
    )
    for value in 1...count { store.send(Counter(count: value)) }
    print("sent \(store.state.value.count)")
    fflush(nil)
    while true {
        try? await Task.sleep(for: .seconds(60))
    }
}

/// Loads a keychain-backed shared `Credentials?` of SERVICE and KEY, sets it to TOKEN and
/// flushes: "loaded <token or nil>; flush <saved or error code>; reported <codes>".
@MainActor
func sharedKeychain(service: String, key: String, token: String) async -> Never {
    let reported = PrismLocked<[String]>([])
    let (store, storage) = sharedStore(
        PrismPersistedKey<Credentials?>.keychain(key, service: service).onError { error in
            reported.withLock { $0.append("\(error.code)") }
        },
        default: nil
    )
    let loaded = store.state.value?.token ?? "nil"
    store.send(Credentials(token: token))
    var flushed = "saved"
    do {
        try await storage.flush()
    } catch let error as PrismPersistenceError {
        flushed = "\(error.code)"
    } catch {
        flushed = "\(error)"
    }
    result("loaded \(loaded); flush \(flushed); reported \(reported.value.joined(separator: ","))")
}

/// Holds a file-backed shared `Settings` (saved at once, no window), sets THEME, then the font
/// sizes 1...COUNT, each saved before the next, 20 ms apart: another process holding the same
/// key sees them arrive. "wrote N" with the last size.
@MainActor
func sharedWrites(directory: String, key: String, theme: String, count: Int) async -> Never {
    let (store, storage) = sharedStore(
        PrismPersistedKey<Settings>.file(key, directory: URL(fileURLWithPath: directory)).coalescingWindow(.zero),
        default: Settings(theme: "light", fontSize: 14)
    )
    for size in 1...count {
        store.send(Settings(theme: theme, fontSize: size))
        do {
            try await storage.flush()
        } catch {
            outcome(error)
        }
        try? await Task.sleep(for: .milliseconds(20))
    }
    result("wrote \(store.state.value.fontSize)")
}

/// The storage `sharedTemporary` made, kept until the process ends (as a test's can be).
nonisolated(unsafe) var keptStorage: PrismSharedStorage?

/// A test's storage (`PrismSharedStorage.temporary()`) with a file-backed shared counter, COUNT
/// changes sent and flushed; the folder it saved in, and the store. The storage is kept in
/// `keptStorage` when `keep`, else nothing but the store's state refers to it (not even a local
/// variable, once this returns).
@MainActor
func temporaryStorageInUse(count: Int, keep: Bool) async -> (URL, PrismStore<SharedHolder<Counter>, Counter>) {
    let storage = PrismSharedStorage.temporary()
    if keep { keptStorage = storage }
    let holder = withDependencies {
        $0.prismSharedStorage = storage
    } operation: {
        SharedHolder(value: PrismShared(wrappedValue: Counter(), PrismPersistedKey<Counter>.file("counter")))
    }
    let store = PrismStore(
        initialState: holder,
        reducer: PrismReduce<SharedHolder<Counter>, Counter> { state, value in
            state.value = value
            return .none
        }
    )
    for value in 1...count { store.send(Counter(count: value)) }
    do { try await storage.flush() } catch { result("flush failed: \(error)") }
    guard let folder = storage.isolatedDirectory else { result("no folder") }
    return (folder, store)
}

/// Makes a test's storage with a file-backed shared counter, sends COUNT changes, flushes, and
/// prints "folder PATH" (where the storage saved); then ends as END says: `exit` (with the
/// storage alive), `kill` (SIGKILL: no clean-up runs) or `release` (lets the storage and the
/// store go, and waits at most a minute for its folder to go, printing "released" or "still
/// there").
@MainActor
func sharedTemporary(count: Int, end: String) async -> Never {
    let (folder, firstStore) = await temporaryStorageInUse(count: count, keep: end != "release")
    var store = firstStore
    print("folder \(folder.path)")
    fflush(nil)
    switch end {
    case "kill":
        kill(getpid(), SIGKILL)
    case "release":
        // Another store in its place: the first one, its state and its shared value go.
        store = PrismStore(
            initialState: SharedHolder(value: PrismShared(value: Counter())),
            reducer: PrismReduce<SharedHolder<Counter>, Counter> { _, _ in .none })
        _ = store
        // At most a minute: a folder that stays is the failure the test reports.
        let deadline = ContinuousClock.now + .seconds(60)
        while FileManager.default.fileExists(atPath: folder.path), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        print(FileManager.default.fileExists(atPath: folder.path) ? "still there" : "released")
    default:
        break
    }
    fflush(nil)
    exit(0)
}
