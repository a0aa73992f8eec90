import PrismArchitecture
import Testing

/// Navigation held in a store's state, whose screens are features: a pushed screen's effects
/// end when it is popped, a sheet's when it is dismissed.
@MainActor
@Suite("Screens as features in PrismNavigationState")
struct NavigationFeatureTests {
    struct TimerScreen: Hashable, Sendable {
        let id: Int
        var seconds = 0
    }

    enum TimerAction: Equatable, Sendable {
        case start
        case tick
    }

    struct TimerFeature: PrismReducer {
        let ticks: AsyncStream<Void>

        func reduce(into state: inout TimerScreen, action: TimerAction) -> PrismEffect<TimerAction> {
            switch action {
            case .start:
                let ticks = self.ticks
                return .run { send in
                    for await _ in ticks { send(.tick) }
                }
            case .tick:
                state.seconds += 1
                return .none
            }
        }
    }

    /// A screen: its state carries the feature's state, and a stable id of its own.
    enum Screen: PrismRoutable {
        case timer(TimerScreen)
        case about(id: Int)

        var id: Int {
            switch self {
            case .timer(let timer): timer.id
            case .about(let id): id
            }
        }

        var timer: TimerScreen? {
            if case .timer(let timer) = self { timer } else { nil }
        }
    }

    enum ScreenAction: Equatable, Sendable {
        case timer(TimerAction)

        var timer: TimerAction? {
            if case .timer(let action) = self { action } else { nil }
        }
    }

    struct ScreenFeature: PrismFeature {
        typealias State = Screen
        typealias Action = ScreenAction
        let ticks: AsyncStream<Void>

        var body: some PrismReducer<Screen, ScreenAction> {
            PrismScope(state: \.timer, embed: Screen.timer, action: ScreenAction.timer, toChildAction: \.timer) {
                TimerFeature(ticks: ticks)
            }
        }
    }

    struct AppState: Equatable, Sendable {
        var navigation = PrismNavigationState<Screen>()
    }

    enum AppAction: Equatable, Sendable {
        case navigation(PrismNavigationAction<Screen>)
        case screen(id: Int, action: ScreenAction)
        case sheet(ScreenAction)

        var screen: (id: Int, action: ScreenAction)? {
            if case .screen(let id, let action) = self { (id, action) } else { nil }
        }
        var sheet: ScreenAction? {
            if case .sheet(let action) = self { action } else { nil }
        }
    }

    struct AppFeature: PrismFeature {
        typealias State = AppState
        typealias Action = AppAction
        let ticks: AsyncStream<Void>

        var body: some PrismReducer<AppState, AppAction> {
            PrismReduce<AppState, AppAction> { state, action in
                if case .navigation(let navigation) = action { try? state.navigation.apply(navigation) }
                return .none
            }
            .forEach(\.navigation.stack, action: AppAction.screen, toElementAction: \.screen) {
                ScreenFeature(ticks: ticks)
            }
            .ifLet(\.navigation.sheet, action: AppAction.sheet, toChildAction: \.sheet) {
                ScreenFeature(ticks: ticks)
            }
        }
    }

    /// Waits for `condition`, a turn at a time, for at most a few seconds.
    func settle(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<20_000 where !condition() {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }

    @Test("a pushed screen is a feature, and popping it ends its effects")
    func poppingEndsEffects() async throws {
        let (ticks, continuation) = AsyncStream<Void>.makeStream()
        let store = PrismStore(initialState: AppState(), reducer: AppFeature(ticks: ticks))
        store.send(.navigation(.push(.about(id: 1))))
        store.send(.navigation(.push(.timer(TimerScreen(id: 2)))))
        let timer = store.send(.screen(id: 2, action: .timer(.start)))
        continuation.yield()
        #expect(await settle { store.state.navigation.stack.last?.timer?.seconds == 1 })

        let screen = try #require(store.scope(state: \.navigation.stack, id: 2, action: AppAction.screen))
        #expect(screen.state.timer?.seconds == 1)

        store.send(.navigation(.pop(count: 1)))
        #expect(await settle { timer.isFinished })
        #expect(store.state.navigation.stack == [.about(id: 1)])
    }

    @Test("a sheet is a feature, and dismissing it ends its effects")
    func dismissingEndsEffects() async {
        let (ticks, continuation) = AsyncStream<Void>.makeStream()
        let store = PrismStore(initialState: AppState(), reducer: AppFeature(ticks: ticks))
        store.send(.navigation(.present(.timer(TimerScreen(id: 9)))))
        let timer = store.send(.sheet(.timer(.start)))
        continuation.yield()
        #expect(await settle { store.state.navigation.sheet?.timer?.seconds == 1 })
        store.send(.navigation(.dismiss))
        #expect(await settle { timer.isFinished })
        #expect(store.state.navigation.sheet == nil)
    }
}
