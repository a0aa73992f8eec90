import DependenciesTestSupport
import PrismStore
import PrismTesting
import Testing

@MainActor
@Suite("Testing features that share state")
struct SharedStateTestStoreTests {
    enum Theme: Equatable, Sendable { case light, dark }

    struct Settings: Equatable, Sendable {
        var theme = Theme.light
        var fontSize = 14
    }

    struct AppState: Equatable, Sendable {
        @PrismShared(.inMemory("settings")) var settings = Settings()
        @PrismShared(.inMemory("signedInUser")) var user: String? = nil
        var log: [String] = []
    }

    enum AppAction: Equatable, Sendable {
        case toggleTheme
        case signIn(String)
        case signedIn(String)
        case noop
    }

    struct AppFeature: PrismReducer {
        func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .toggleTheme:
                state.settings.theme = state.settings.theme == .dark ? .light : .dark
                return .none
            case .signIn(let name):
                state.log.append("signing in")
                return .run { send in send(.signedIn(name)) }
            case .signedIn(let name):
                state.user = name
                return .none
            case .noop:
                return .none
            }
        }
    }

    @Test("a change to a shared value is asserted like any state")
    func changesAreAsserted() async {
        let store = PrismTestStore(initialState: AppState(), reducer: AppFeature())
        await store.send(.toggleTheme) { $0.settings.theme = .dark }
        await store.send(.toggleTheme) { $0.settings.theme = .light }
        await store.send(.signIn("ada")) { $0.log = ["signing in"] }
        await store.receive(.signedIn("ada")) { $0.user = "ada" }
        await store.finish()
        #expect(store.state.user == "ada")
    }

    @Test("an unasserted change to a shared value fails the test, naming the key")
    func unassertedChangesFail() async {
        let store = PrismTestStore(initialState: AppState(), reducer: AppFeature())
        store.exhaustivity = .on
        withKnownIssue {
            store.send(.toggleTheme)
        } matching: { issue in
            issue.mentions("is not what the test describes", "Shared value 'inMemory:settings'", ".light", ".dark")
        }
        // The failed check changed nothing: the value is what the action made it.
        #expect(store.state.settings.theme == .dark)
    }

    @Test("a wrong expectation fails, and the closure's writes never reach the value")
    func wrongExpectationsFail() async {
        let store = PrismTestStore(initialState: AppState(), reducer: AppFeature())
        await expectIssue(mentioning: "Shared value 'inMemory:settings'", "fontSize: 99", "fontSize: 14") {
            await store.send(.toggleTheme) {
                $0.settings.theme = .dark
                $0.settings.fontSize = 99
            }
        }
        #expect(store.state.settings == Settings(theme: .dark, fontSize: 14))
        // An expectation of a change to a shared value the action did not touch fails too, and
        // does not change it either.
        await expectIssue(mentioning: "Shared value 'inMemory:signedInUser'", "grace") {
            await store.send(.noop) { $0.user = "grace" }
        }
        #expect(store.state.user == nil)
    }

    @Test("a test can start from a given shared value")
    func startingFromAValue() async {
        let state = AppState()
        state.settings.theme = .dark
        let store = PrismTestStore(initialState: state, reducer: AppFeature())
        await store.send(.toggleTheme) { $0.settings.theme = .light }
    }

    @Test(
        "each case of a parameterized test has shared values of its own with the dependencies trait",
        .dependencies,
        arguments: ["one", "two", "three"]
    )
    func testsAreApart(name: String) async {
        // The cases run in parallel; without the trait they would share the test's storage, as
        // they share its dependencies.
        let store = PrismTestStore(initialState: AppState(), reducer: AppFeature())
        store.exhaustivity = .off
        store.send(.signIn(name))
        try? await store.waitForEffects()
        #expect(store.state.user == name)
    }

    @Test("every test starts from the default, whatever other tests did")
    func everyTestStartsFromTheDefault() async {
        for _ in 0..<3 {
            let state = AppState()
            #expect(state.settings == Settings())
            #expect(state.user == nil)
            await Task.yield()
        }
    }

    @Test("a non-exhaustive test checks only the shared values its closure sets")
    func nonExhaustive() async {
        let store = PrismTestStore(initialState: AppState(), reducer: AppFeature())
        store.exhaustivity = .off
        await store.send(.toggleTheme) { $0.settings.theme = .dark }
        store.send(.toggleTheme)
        await expectIssue(mentioning: "Shared value 'inMemory:settings'") {
            await store.send(.toggleTheme) { $0.settings.theme = .light }
        }
    }
}
