import Testing

@testable import PrismStore

@MainActor
@Suite("Composing reducers")
struct ReducerCompositionTests {
    struct Tally: Equatable, Sendable {
        var log: [String] = []
    }

    /// Appends its name to the log and sends `echo` back when asked to.
    struct Note: PrismReducer {
        let name: String

        func reduce(into state: inout Tally, action: String) -> PrismEffect<String> {
            state.log.append("\(name):\(action)")
            return action == "echo \(name)" ? .send("echoed \(name)") : .none
        }
    }

    @Test("reducers listed in a builder run in order on the same state and their effects merge")
    func builderRunsInOrder() {
        let combined = PrismCombineReducers {
            Note(name: "a")
            Note(name: "b")
            Note(name: "c")
        }
        let store = PrismStore(initialState: Tally(), reducer: combined)
        store.send("echo b")
        #expect(
            store.state.log == [
                "a:echo b", "b:echo b", "c:echo b",
                "a:echoed b", "b:echoed b", "c:echoed b",
            ])
    }

    @Test("if, if/else and for in a builder choose and repeat reducers")
    func builderControlFlow() {
        func build(verbose: Bool, loud: Bool, count: Int) -> some PrismReducer<Tally, String> {
            PrismCombineReducers {
                if verbose {
                    Note(name: "verbose")
                }
                if loud {
                    Note(name: "loud")
                } else {
                    Note(name: "quiet")
                }
                for index in 0..<count {
                    Note(name: "n\(index)")
                }
            }
        }
        var state = Tally()
        _ = build(verbose: true, loud: false, count: 2).reduce(into: &state, action: "x")
        #expect(state.log == ["verbose:x", "quiet:x", "n0:x", "n1:x"])
        state = Tally()
        _ = build(verbose: false, loud: true, count: 0).reduce(into: &state, action: "y")
        #expect(state.log == ["loud:y"])
    }

    @Test("a scope runs the child on its part of the state for its actions only")
    func scopeRunsTheChild() {
        let (store, _) = makeListStore()
        store.send(.settings(.setFontSize(18)))
        store.send(.closeDetail)
        #expect(store.state.settings.fontSize == 18)
        #expect(store.state.log == ["settings setFontSize(18)", "closeDetail"])
    }

    enum Screen: Equatable, Sendable {
        case settings(Settings)
        case about

        var settings: Settings? {
            if case .settings(let settings) = self { settings } else { nil }
        }
    }

    enum ScreenAction: Equatable, Sendable {
        case settings(SettingsAction)

        var settings: SettingsAction? {
            if case .settings(let action) = self { action } else { nil }
        }
    }

    /// `SettingsFeature` scoped to the `settings` case of a `Screen`.
    static func settingsScope() -> some PrismReducer<Screen, ScreenAction> {
        PrismScope(
            state: \Screen.settings, embed: Screen.settings,
            action: ScreenAction.settings, toChildAction: \.settings
        ) {
            SettingsFeature()
        }
    }

    @Test("a scope on an enum case runs the child while the state is in that case")
    func scopeOnACase() {
        let scope = Self.settingsScope()
        var screen = Screen.settings(Settings())
        _ = scope.reduce(into: &screen, action: .settings(.setFontSize(20)))
        #expect(screen == .settings(Settings(fontSize: 20)))
    }

    @Test("an action for an enum case the state is not in is a warning, and changes nothing")
    func scopeOnAnotherCase() {
        let scope = Self.settingsScope()
        var screen = Screen.about
        withKnownIssue {
            let effect = scope.reduce(into: &screen, action: .settings(.setFontSize(20)))
            #expect(effect.isNone)
        } matching: { issue in
            issue.description.contains("while the state was in another case")
        }
        #expect(screen == .about)
    }

    @Test("a feature's body is its reducer")
    func featureBody() {
        var state = ListState.three
        _ = ListFeature(ticks: TickSource()).reduce(into: &state, action: .row(id: 2, action: .toggle))
        #expect(state.rows[id: 2]?.isDone == true)
        #expect(state.log == ["row 2 toggle"])
    }
}
