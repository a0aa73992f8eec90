import Foundation
import PrismRouting
import Testing

@MainActor
@Suite("Navigation as state")
struct NavigationStateTests {
    // A feature that holds navigation in its state, the way a PrismStore reducer does.
    struct AppState: Equatable, Sendable {
        var navigation = PrismNavigationState<Screen>()
        var lastNavigationError: PrismRoutingError.Code?
    }

    enum AppAction: Sendable {
        case navigation(PrismNavigationAction<Screen>)
        case openProfile(Int)
    }

    static func reduce(into state: inout AppState, action: AppAction) {
        switch action {
        case .navigation(let action):
            do {
                try state.navigation.apply(action)
                state.lastNavigationError = nil
            } catch {
                state.lastNavigationError = error.code
            }
        case .openProfile(let id):
            state.navigation.push(.profile(userID: id))
        }
    }

    nonisolated static let scripts: [[PrismNavigationAction<Screen>]] = [
        [.push(.home), .push(.settings), .dismiss, .push(.onboarding)],
        [.present(.settings), .fullScreen(.onboarding), .push(.home), .dismiss, .dismiss, .dismiss, .dismiss],
        [.setPath([.home, .settings, .onboarding, .detail(id: "1")]), .pop(count: 2), .present(.home), .root],
        [.setPath([.home, .settings, .home, .onboarding]), .popTo(.home), .pop(count: 9)],
        [.setState(PrismNavigationState(stack: [.home], sheet: .settings)), .dismiss, .popTo(.home)],
    ]

    @Test("a reducer that applies actions ends where a router given the same actions ends", arguments: scripts)
    func reducerMatchesRouter(script: [PrismNavigationAction<Screen>]) throws {
        var state = AppState()
        let router = PrismRouter<Screen>()
        for action in script {
            Self.reduce(into: &state, action: .navigation(action))
            try router.apply(action)
            #expect(state.navigation == router.state)
        }
        #expect(state.lastNavigationError == nil)
    }

    @Test("each action does what the method of the same name does")
    func actionsMatchMethods() throws {
        var byAction = PrismNavigationState<Screen>(stack: [.home, .settings, .onboarding])
        var byMethod = byAction

        try byAction.apply(.push(.detail(id: "1")))
        byMethod.push(.detail(id: "1"))
        try byAction.apply(.present(.settings))
        byMethod.present(.settings)
        try byAction.apply(.fullScreen(.home))
        byMethod.fullScreen(.home)
        #expect(byAction == byMethod)
        try byAction.apply(.dismiss)
        byMethod.dismiss()
        try byAction.apply(.pop(count: 2))
        byMethod.pop(count: 2)
        try byAction.apply(.popTo(.home))
        try byMethod.pop(to: .home)
        #expect(byAction == byMethod)
        #expect(byAction == PrismNavigationState(stack: [.home], sheet: .settings))
        try byAction.apply(.setPath([.onboarding]))
        byMethod.setPath([.onboarding])
        try byAction.apply(.root)
        byMethod.root()
        #expect(byAction == byMethod)
        #expect(byAction.isAtRoot)
    }

    @Test("a failed action leaves the state as it was and the reducer can report it")
    func failedActionLeavesStateUnchanged() {
        var state = AppState()
        Self.reduce(into: &state, action: .openProfile(1))
        Self.reduce(into: &state, action: .navigation(.present(.settings)))
        let before = state.navigation
        Self.reduce(into: &state, action: .navigation(.popTo(.onboarding)))
        #expect(state.navigation == before)
        #expect(state.lastNavigationError == .routeNotInStack)
    }

    @Test("an array literal is a stack with nothing presented")
    func arrayLiteral() {
        let state: PrismNavigationState<Screen> = [.home, .settings]
        #expect(state == PrismNavigationState(stack: [.home, .settings]))
        #expect(PrismNavigationState<Screen>() == [])
        #expect(PrismNavigationState<Screen>().isAtRoot)
    }

    @Test("topRoute and frontmostRoute read the layers in their documented orders")
    func routeOrders() {
        var state = PrismNavigationState<Screen>(sheet: .settings)
        #expect(state.topRoute == .settings)
        #expect(state.frontmostRoute == .settings)
        state.fullScreen(.onboarding)
        #expect(state.topRoute == .onboarding)
        #expect(state.frontmostRoute == .onboarding)
        state.push(.home)
        #expect(state.topRoute == .home)
        #expect(state.frontmostRoute == .onboarding)
        #expect(!state.isAtRoot)
    }

    @Test("actions survive a JSON round trip, for session recordings")
    func actionsAreCodable() throws {
        let actions: [PrismNavigationAction<Screen>] = [
            .push(.detail(id: "1")), .present(.settings), .fullScreen(.onboarding), .dismiss, .root,
            .pop(count: 2), .popTo(.home), .setPath([.home, .profile(userID: 3)]),
            .setState(PrismNavigationState(stack: [.home], sheet: .settings)),
        ]
        let data = try JSONEncoder().encode(actions)
        #expect(try JSONDecoder().decode([PrismNavigationAction<Screen>].self, from: data) == actions)
    }
}
