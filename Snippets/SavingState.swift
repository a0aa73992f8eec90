// Saving state with PrismPersistence: strategies, schema versions and migrations, the keychain.
// snippet.hide
import Foundation
import Prism

struct AppState: Codable, Sendable, Equatable {
    var items: [String] = []
}

enum AppAction: Sendable {
    case add(String)
}

struct AppReducer: PrismReducer {
    func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
        switch action {
        case .add(let item): state.items.append(item)
        }
        return .none
    }
}

struct Preferences: Codable, Sendable {
    var theme = "light"
}

struct Session: Codable, Sendable {
    var accessToken: String
}

// snippet.show

// snippet.strategies
func saveEverywhere(state: AppState, preferences: Preferences, session: Session) throws {
    // Large, non-sensitive state: crash-safe JSON files in the app's data folder.
    let disk = PrismDiskPersistence(directory: PrismDiskPersistence.defaultDirectory(applicationName: "MyApp"))
    try disk.save(state, key: "app_state")

    // Small preferences that another process may read.
    let defaults = PrismUserDefaultsPersistence(suiteName: "com.example.myapp")
    try defaults.save(preferences, key: "preferences")

    // Secrets: the keychain (the Secret Service on Linux).
    let keychain = PrismKeychainPersistence(service: "com.example.myapp")
    try keychain.save(session, key: "session")

    let restored: AppState? = try disk.load(key: "app_state")  // nil when nothing was saved
    print(restored?.items.count ?? 0)
}
// snippet.end

// snippet.custom
/// A strategy of your own: here, values kept in memory (a cache, a test).
final class MemoryPersistence: PrismPersistenceStrategy, @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Data] = [:]

    func save<State: Codable & Sendable>(_ state: State, key: String) throws {
        let data = try JSONEncoder().encode(state)
        lock.withLock { values[key] = data }
    }

    func load<State: Codable & Sendable>(key: String) throws -> State? {
        guard let data = lock.withLock({ values[key] }) else { return nil }
        return try JSONDecoder().decode(State.self, from: data)
    }

    func clear(key: String) throws {
        _ = lock.withLock { values.removeValue(forKey: key) }
    }
}
// snippet.end

// snippet.middleware
@MainActor
func makeStore() -> (PrismStore<AppState, AppAction>, PrismPersistMiddleware<AppState, AppAction>) {
    let persistence = PrismPersistMiddleware<AppState, AppAction>(
        strategy: PrismDiskPersistence(),
        key: "app_state",
        coalescingWindow: .milliseconds(500),
        onError: { error in print("Not saved: \(error.code): \(error.message)") }
    )
    let store = PrismStore(restoringWith: persistence, default: AppState(), reducer: AppReducer())
    if let failure = persistence.loadFailure {
        // The saved state is still there but could not be read (a locked keyring, an I/O
        // error): the store started from the default, and nothing will be saved over it.
        print("Starting fresh without saving: \(failure)")
    }
    return (store, persistence)
}
// snippet.end

// snippet.exit
func prepareForExit(_ persistence: PrismPersistMiddleware<AppState, AppAction>) {
    // A command-line tool or a service: the last changes are saved on SIGTERM, SIGINT, SIGHUP
    // or exit().
    persistence.flushOnExit(timeout: .seconds(5))
}
// snippet.end

// snippet.versioned
/// Version 1 saved `{"theme": "dark"}`; version 2 adds the font size; version 3 renames
/// `theme` to `appearance`.
struct Settings: PrismVersionedState, Equatable {
    var appearance: String
    var fontSize: Int

    static let persistenceMigrations = PrismPersistenceMigrations(currentVersion: 3) {
        $0.migrate(from: 1) { data in
            var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
            object["fontSize"] = 14
            return try JSONSerialization.data(withJSONObject: object)
        }
        $0.migrate(from: 2) { data in
            struct Version2: Codable {
                var theme: String
                var fontSize: Int
            }
            let old = try JSONDecoder().decode(Version2.self, from: data)
            return try JSONEncoder().encode(Settings(appearance: old.theme, fontSize: old.fontSize))
        }
    }
}
// snippet.end

// snippet.load-errors
func loadSettings(from persistence: PrismDiskPersistence) -> Settings? {
    do {
        return try persistence.load(key: "settings")
    } catch let error as PrismPersistenceError {
        switch error.code {
        case .corruptFile, .decodingFailed, .unsupportedVersion, .migrationMissing, .migrationFailed:
            // Unreadable: moved aside, never overwritten. Tell the user where it went.
            print("Settings moved to \(error.movedAsideURL?.path ?? error.movedAsideKey ?? "?")")
        default:
            print("Settings not loaded: \(error)")
        }
        return nil
    } catch {
        return nil
    }
}
// snippet.end

// snippet.keychain
func loadSession() -> Session? {
    let keychain = PrismKeychainPersistence(service: "com.example.myapp")
    do {
        return try keychain.load(key: "session")
    } catch let error as PrismPersistenceError where error.code == .secretServiceUnavailable {
        // No libsecret, or no Secret Service on the session bus: the message says which.
        print(error.message)
        return nil
    } catch let error as PrismPersistenceError where error.code == .keychainLocked {
        print("Unlock the keyring, then try again: \(error.message)")
        return nil
    } catch {
        print("Keychain failed: \(error)")
        return nil
    }
}
// snippet.end

// snippet.keychain-application
func serverKeychain() -> PrismKeychainPersistence {
    // The same identity whatever the binary is called, and shared by the product's executables.
    PrismKeychainPersistence(service: "com.example.myapp", application: "com.example.my-server")
}
// snippet.end

// snippet.keychain-unsigned-tool
func unsignedToolKeychain() -> PrismKeychainPersistence {
    // An unsigned command-line tool on macOS: the login keychain, where Prism 0.1 saved. Other
    // platforms ignore the choice.
    PrismKeychainPersistence(service: "my-tool", macOSKeychain: .fileBased)
}
// snippet.end
