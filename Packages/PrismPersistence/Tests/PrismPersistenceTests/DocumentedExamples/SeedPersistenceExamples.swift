// The persistence examples of seed pages 000 ("State persistence") and 001 ("State
// Persistence"), as written there. Only what the pages use but do not define (AppState,
// AppAction, AppReducer, Settings, Credentials, and the values appState, settings and
// credentials) is stubbed here; the 001 snippets, written at top level on the page, are wrapped
// in test functions.
//
// `PrismDiskPersistence()` and `PrismUserDefaultsPersistence()` use their real default
// locations (the XDG data folder, the standard defaults); each test clears what it saved.
import Foundation
import PrismPersistence
import Testing

enum SeedPersistence {
    struct AppState: Codable, Sendable, Equatable {
        var count = 0
        var title = "Untitled"
    }

    enum AppAction: Sendable {
        case increment
    }

    struct AppReducer: PrismReducer {
        func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .increment: state.count += 1
            }
            return .none
        }
    }

    struct Settings: Codable, Sendable, Equatable {
        var theme = "dark"
    }

    struct Credentials: Codable, Sendable, Equatable {
        var token = "t0k3n"
    }

    // MARK: Custom Strategy (page 001)

    struct CloudPersistence: PrismPersistenceStrategy {
        func save<State: Codable & Sendable>(_ state: State, key: String) throws {
            let data = try JSONEncoder().encode(state)
            // Upload to your cloud service
            _ = data
        }

        func load<State: Codable & Sendable>(key: String) throws -> State? {
            // Download from your cloud service
            return nil
        }

        func clear(key: String) throws {
            // Delete from your cloud service
        }
    }
}

@MainActor
@Suite("Seed pages: state persistence", .serialized)
struct SeedPersistenceExamples {
    typealias AppState = SeedPersistence.AppState
    typealias AppReducer = SeedPersistence.AppReducer
    typealias Settings = SeedPersistence.Settings
    typealias Credentials = SeedPersistence.Credentials
    typealias CloudPersistence = SeedPersistence.CloudPersistence

    let appState = AppState(count: 3, title: "Seed")
    let settings = Settings(theme: "solarized")
    let credentials = Credentials(token: "seed-token")

    @Test("page 000: persist to disk automatically, restore on next launch")
    func page000() async throws {
        defer { try? PrismDiskPersistence().clear(key: "app_state") }
        try PrismDiskPersistence().clear(key: "app_state")

        // Persist to disk automatically on every action
        let store = PrismStore(
            initialState: AppState(),
            reducer: AppReducer(),
            middleware: PrismPersistMiddleware(
                strategy: PrismDiskPersistence(),
                key: "app_state"
            )
        )

        store.send(.increment)
        try await eventually {
            let saved: AppState? = try? PrismDiskPersistence().load(key: "app_state")
            return saved?.count == 1
        }

        // Restore on next launch
        let strategy = PrismDiskPersistence()
        let saved: AppState? = try? strategy.load(key: "app_state")
        let initialState = saved ?? AppState()

        #expect(initialState.count == 1)
    }

    @Test("page 001: disk persistence")
    func diskPersistence() throws {
        let persistence = PrismDiskPersistence()

        // Save
        try persistence.save(appState, key: "app_state")

        // Load
        let loaded: AppState? = try persistence.load(key: "app_state")

        // Clear
        try persistence.clear(key: "app_state")

        #expect(loaded == appState)
        let cleared: AppState? = try persistence.load(key: "app_state")
        #expect(cleared == nil)
    }

    @Test("page 001: a custom directory")
    func customDirectory() throws {
        let persistence = PrismDiskPersistence(
            directory: FileManager.default.temporaryDirectory
        )

        let key = "prism-seed-001-\(UUID().uuidString)"
        try persistence.save(appState, key: key)
        #expect(try persistence.load(key: key) == appState)
        try persistence.clear(key: key)
    }

    @Test("page 001: UserDefaults persistence")
    func userDefaultsPersistence() throws {
        let persistence = PrismUserDefaultsPersistence()

        try persistence.save(settings, key: "user_settings")
        let settings: Settings? = try persistence.load(key: "user_settings")

        #expect(settings == self.settings)
        try persistence.clear(key: "user_settings")
    }

    @Test(
        "page 001: keychain persistence",
        .needsSecretService
    )
    func keychainPersistence() throws {
        let persistence = PrismKeychainPersistence()

        try persistence.save(credentials, key: "auth_credentials")
        let creds: Credentials? = try persistence.load(key: "auth_credentials")

        #expect(creds == credentials)
        try persistence.clear(key: "auth_credentials")
    }

    @Test("page 001: a custom strategy")
    func customStrategy() throws {
        let persistence = CloudPersistence()
        try persistence.save(appState, key: "app_state")
        let loaded: AppState? = try persistence.load(key: "app_state")
        #expect(loaded == nil)
        try persistence.clear(key: "app_state")
        // It plugs into the middleware like the strategies of the module.
        _ = PrismStore(
            initialState: AppState(),
            reducer: AppReducer(),
            middleware: PrismPersistMiddleware(strategy: persistence, key: "app_state")
        )
    }
}
