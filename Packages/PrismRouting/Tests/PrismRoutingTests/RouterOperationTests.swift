import PrismRouting
import Testing

@MainActor
@Suite("Router operations")
struct RouterOperationTests {
    @Test("a new router is at the root with nothing presented")
    func startsAtRoot() {
        let router = PrismRouter<Screen>()
        #expect(router.stack.isEmpty)
        #expect(router.sheet == nil)
        #expect(router.fullScreenCover == nil)
        #expect(router.topRoute == nil)
        #expect(router.frontmostRoute == nil)
        #expect(router.state.isAtRoot)
    }

    @Test("a router can start from a given state")
    func startsFromState() {
        let state = PrismNavigationState<Screen>(stack: [.home], sheet: .settings)
        let router = PrismRouter(state: state)
        #expect(router.state == state)
    }

    @Test("push appends to the stack, last pushed on top")
    func push() {
        let router = PrismRouter<Screen>()
        router.push(.home)
        router.push(.detail(id: "1"))
        router.push(.detail(id: "1"))
        #expect(router.stack == [.home, .detail(id: "1"), .detail(id: "1")])
    }

    @Test("present and fullScreen replace the sheet and the cover without touching the stack")
    func presentReplaces() {
        let router = PrismRouter<Screen>()
        router.push(.home)
        router.present(.settings)
        router.present(.onboarding)
        router.fullScreen(.detail(id: "1"))
        router.fullScreen(.detail(id: "2"))
        #expect(
            router.state == PrismNavigationState(stack: [.home], sheet: .onboarding, fullScreenCover: .detail(id: "2")))
    }

    @Test("dismiss removes the cover, then the sheet, then the top of the stack, then nothing")
    func dismissOrder() {
        let router = PrismRouter(
            state: PrismNavigationState<Screen>(
                stack: [.home, .detail(id: "1")], sheet: .settings, fullScreenCover: .onboarding)
        )
        #expect(router.frontmostRoute == .onboarding)
        router.dismiss()
        #expect(router.state == PrismNavigationState(stack: [.home, .detail(id: "1")], sheet: .settings))
        #expect(router.frontmostRoute == .settings)
        router.dismiss()
        #expect(router.state == PrismNavigationState(stack: [.home, .detail(id: "1")]))
        router.dismiss()
        #expect(router.state == PrismNavigationState(stack: [.home]))
        router.dismiss()
        #expect(router.state.isAtRoot)
        router.dismiss()
        #expect(router.state.isAtRoot)
    }

    @Test("root clears the stack, the sheet and the cover")
    func root() {
        let router = PrismRouter(
            state: PrismNavigationState<Screen>(
                stack: [.home, .settings], sheet: .settings, fullScreenCover: .onboarding)
        )
        router.root()
        #expect(router.state == PrismNavigationState())
    }

    @Test("topRoute is the top of the stack, else the cover, else the sheet")
    func topRoute() {
        let router = PrismRouter<Screen>()
        router.present(.settings)
        router.fullScreen(.onboarding)
        #expect(router.topRoute == .onboarding)
        router.push(.home)
        #expect(router.topRoute == .home)
        #expect(router.frontmostRoute == .onboarding)
    }

    @Test("pop removes and returns the top screen, and nil on an empty stack")
    func pop() {
        let router = PrismRouter(state: PrismNavigationState<Screen>(stack: [.home, .settings], sheet: .onboarding))
        #expect(router.pop() == .settings)
        #expect(router.pop() == .home)
        #expect(router.pop() == nil)
        #expect(router.sheet == .onboarding)
    }

    @Test(
        "pop(count:) removes that many screens, topmost first, stopping at the root",
        arguments: [
            (0, [Screen.home, .settings, .onboarding], [Screen]()),
            (2, [.home], [.onboarding, .settings]),
            (3, [], [.onboarding, .settings, .home]),
            (10, [], [.onboarding, .settings, .home]),
        ]
    )
    func popCount(count: Int, remaining: [Screen], popped: [Screen]) {
        let router = PrismRouter<Screen>(state: [.home, .settings, .onboarding])
        #expect(router.pop(count: count) == popped)
        #expect(router.stack == remaining)
    }

    @Test("pop(to:) leaves the topmost occurrence of the route on top")
    func popTo() throws {
        let router = PrismRouter<Screen>(state: [.home, .detail(id: "1"), .home, .settings, .onboarding])
        try router.pop(to: .home)
        #expect(router.stack == [.home, .detail(id: "1"), .home])
        try router.pop(to: .detail(id: "1"))
        #expect(router.stack == [.home, .detail(id: "1")])
        try router.pop(to: .detail(id: "1"))
        #expect(router.stack == [.home, .detail(id: "1")])
    }

    @Test("pop(to:) a route that is not in the stack throws and changes nothing")
    func popToMissingRoute() throws {
        let router = PrismRouter(state: PrismNavigationState<Screen>(stack: [.home, .settings], sheet: .onboarding))
        let error = try #require(throws: PrismRoutingError.self) {
            try router.pop(to: .detail(id: "9"))
        }
        #expect(error.code == .routeNotInStack)
        #expect(error.value == #"detail(id: "9")"#)
        #expect(router.state == PrismNavigationState(stack: [.home, .settings], sheet: .onboarding))
    }

    @Test("setPath replaces the whole stack and keeps what is presented")
    func setPath() {
        let router = PrismRouter(state: PrismNavigationState<Screen>(stack: [.home], sheet: .settings))
        router.setPath([.detail(id: "1"), .detail(id: "2"), .profile(userID: 3)])
        #expect(
            router.state
                == PrismNavigationState(
                    stack: [.detail(id: "1"), .detail(id: "2"), .profile(userID: 3)], sheet: .settings))
        router.setPath([])
        #expect(router.stack.isEmpty)
    }

    @Test("the layers can be set directly, as SwiftUI's bindings do")
    func settableLayers() {
        let router = PrismRouter<Screen>()
        router.stack = [.home, .settings]
        router.sheet = .onboarding
        router.fullScreenCover = .detail(id: "1")
        #expect(
            router.state
                == PrismNavigationState(
                    stack: [.home, .settings], sheet: .onboarding, fullScreenCover: .detail(id: "1")))
        router.stack.removeLast()
        router.sheet = nil
        #expect(router.state == PrismNavigationState(stack: [.home], fullScreenCover: .detail(id: "1")))
        router.state = PrismNavigationState(stack: [.settings])
        #expect(router.state == PrismNavigationState(stack: [.settings]))
    }

    @Test("apply performs an action, and a failing action changes nothing")
    func apply() throws {
        let router = PrismRouter<Screen>()
        try router.apply(.push(.home))
        try router.apply(.setPath([.home, .settings, .onboarding]))
        try router.apply(.popTo(.settings))
        try router.apply(.present(.detail(id: "1")))
        #expect(router.state == PrismNavigationState(stack: [.home, .settings], sheet: .detail(id: "1")))
        #expect(throws: PrismRoutingError.self) { try router.apply(.popTo(.profile(userID: 1))) }
        #expect(router.state == PrismNavigationState(stack: [.home, .settings], sheet: .detail(id: "1")))
    }
}
