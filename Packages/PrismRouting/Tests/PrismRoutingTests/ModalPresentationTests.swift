import PrismRouting
import Testing

/// SwiftUI shows one modal per presenting view: the rule that decides which view presents the
/// sheet and the cover, and what a dismissal reported by SwiftUI does to the state.
@MainActor
@Suite("Modal presentation: a cover over a sheet is presented from the sheet")
struct ModalPresentationTests {
    typealias Layer = PrismModalPresentation<Screen>.Layer

    /// A router presenting the settings sheet, and the cover of profile 7 over it.
    static func coverOverSheet() -> PrismRouter<Screen> {
        let router = PrismRouter<Screen>()
        router.present(.settings)
        router.fullScreen(.profile(userID: 7))
        return router
    }

    @Test("nothing presented: no presenter shows anything")
    func nothing() {
        let presentation = PrismNavigationState<Screen>().modalPresentation
        #expect(presentation.fromRoot == nil)
        #expect(presentation.fromModal == nil)
    }

    @Test("a sheet alone, or a cover alone, is presented by the root")
    func oneLayer() {
        let router = PrismRouter<Screen>()
        router.present(.settings)
        #expect(router.presentedAsSheet == Layer(route: .settings, style: .sheet))
        #expect(router.presentedAsCover == nil)
        #expect(router.presentedOverModal == nil)

        router.root()
        router.fullScreen(.profile(userID: 1))
        #expect(router.presentedAsSheet == nil)
        #expect(router.presentedAsCover == Layer(route: .profile(userID: 1), style: .fullScreenCover))
        #expect(router.presentedOverModal == nil)
    }

    @Test("a sheet and a cover: the root presents the sheet, the sheet presents the cover")
    func bothLayers() {
        let router = Self.coverOverSheet()
        #expect(router.presentedAsSheet == Layer(route: .settings, style: .sheet))
        #expect(router.presentedAsCover == nil)  // never two modals from the root
        #expect(router.presentedOverModal == Layer(route: .profile(userID: 7), style: .fullScreenCover))
    }

    @Test("SwiftUI dismissing the cover over the sheet leaves the sheet")
    func dismissingTheUpperLayer() {
        let router = Self.coverOverSheet()
        router.presentedOverModal = nil
        #expect(router.sheet == .settings)
        #expect(router.fullScreenCover == nil)
        #expect(router.presentedAsSheet?.route == .settings)
    }

    @Test("SwiftUI dismissing the root's sheet dismisses the cover over it, in one change")
    func dismissingTheLowerLayer() {
        let router = Self.coverOverSheet()
        router.presentedAsSheet = nil
        #expect(router.state == PrismNavigationState<Screen>())
    }

    @Test("a stale dismissal (the layer already changed) changes nothing")
    func staleDismissal() {
        let router = PrismRouter<Screen>()
        router.fullScreen(.profile(userID: 3))
        router.presentedAsSheet = nil  // no sheet is presented: nothing to dismiss
        router.presentedOverModal = nil  // nothing over a modal
        #expect(router.fullScreenCover == .profile(userID: 3))
    }
}
