// Sharing state between features: shared values in memory and persisted, in reducers and tests.
// snippet.hide
import Foundation
import Prism
import PrismTesting
import Testing

// snippet.show

// snippet.declare
struct Settings: Codable, Equatable, Sendable {
    var theme = "light"
    var sortOrder = "name"
}

struct User: Codable, Equatable, Sendable {
    var name: String
}

/// The settings screen: changes the settings.
struct SettingsFeature: PrismReducer {
    struct State: Equatable, Sendable {
        @PrismShared(.file("settings")) var settings = Settings()
    }

    enum Action: Equatable, Sendable {
        case themeChosen(String)
    }

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .themeChosen(let theme):
            state.settings.theme = theme
            return .none
        }
    }
}

/// The list screen: reads the same settings, and who is signed in.
struct ListFeature: PrismReducer {
    struct State: Equatable, Sendable {
        @PrismShared(.file("settings")) var settings = Settings()
        @PrismShared(.keychain("signedInUser")) var user: User? = nil
        var items: [String] = []
    }

    enum Action: Equatable, Sendable {
        case load([String])
    }

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .load(let items):
            state.items = state.settings.sortOrder == "name" ? items.sorted() : items
            return .none
        }
    }
}
// snippet.end

// snippet.child
/// A child made by its parent, handed the parent's value rather than a key.
struct ThemePreview: Equatable, Sendable {
    @PrismShared var settings: Settings
}

func makePreview(from parent: SettingsFeature.State) -> ThemePreview {
    ThemePreview(settings: parent.$settings)
}
// snippet.end

// snippet.test
@MainActor
@Test func choosingAThemeChangesTheSharedSettings() async {
    let store = PrismTestStore(initialState: SettingsFeature.State(), reducer: SettingsFeature())
    await store.send(.themeChosen("dark")) {
        $0.settings.theme = "dark"
    }
    // Every other holder sees it: a list made now starts from the dark theme.
    #expect(ListFeature.State().settings.theme == "dark")
}
// snippet.end

// snippet.storage
/// A second window with settings of its own, in memory, apart from the app's.
@MainActor
func makeScratchWindow() -> PrismStore<SettingsFeature.State, SettingsFeature.Action> {
    let state = withDependencies {
        $0.prismSharedStorage = PrismSharedStorage()
    } operation: {
        SettingsFeature.State()
    }
    return PrismStore(initialState: state, reducer: SettingsFeature())
}

/// Saves every persisted shared value now: when the app moves to the background, say.
func saveBeforeSuspending() async throws {
    @Dependency(\.prismSharedStorage) var storage
    try await storage.flush()
}
// snippet.end
