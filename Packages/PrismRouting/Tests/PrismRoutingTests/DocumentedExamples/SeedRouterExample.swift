// Seed page 000 ("Type-safe navigation"): the router example, exactly as written there.
// The page calls `.onboarding`, which its `AppRoute` lacks, so this enum adds `case onboarding`.
// It declares no `id`: PrismRoutable supplies one.
import PrismRouting
import Testing

@MainActor
@Suite("The seed's router example")
struct SeedRouterExample {
    enum AppRoute: PrismRoutable {
        case home
        case detail(id: String)
        case settings
        case onboarding  // added: the seed presents `.onboarding` full-screen
    }

    @Test("runs as written and each step leaves the router where the page says")
    func seedExample() {
        let router = PrismRouter<AppRoute>()

        // Push onto the navigation stack
        router.push(.detail(id: "42"))
        #expect(router.stack == [.detail(id: "42")])
        #expect(router.topRoute == .detail(id: "42"))

        // Present as a sheet
        router.present(.settings)
        #expect(router.sheet == .settings)

        // Present full-screen
        router.fullScreen(.onboarding)
        #expect(router.fullScreenCover == .onboarding)

        // Dismiss the topmost layer
        router.dismiss()
        #expect(router.fullScreenCover == nil)
        #expect(router.sheet == .settings)
        #expect(router.stack == [.detail(id: "42")])

        // Return to root
        router.root()
        #expect(router.state == PrismNavigationState())
        #expect(router.topRoute == nil)
    }

    @Test("topRoute checks the stack first, then the full-screen cover, then the sheet")
    func topRouteOrder() {
        let router = PrismRouter<AppRoute>()
        router.present(.settings)
        #expect(router.topRoute == .settings)
        router.fullScreen(.onboarding)
        #expect(router.topRoute == .onboarding)
        router.push(.detail(id: "42"))
        #expect(router.topRoute == .detail(id: "42"))
    }
}
