import Foundation
import Observation
import Testing

@testable import PrismRouting

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

    @Test(
        "a cover alone, then a sheet under it: the cover is dismissed first, and the sheet with the cover over it presented once SwiftUI reports that"
    )
    func coverThenSheetUnderIt() {
        let router = PrismRouter<Screen>()
        router.presenterAttached()
        router.fullScreen(.profile(userID: 7))
        #expect(router.presentedAsCover == Layer(route: .profile(userID: 7), style: .fullScreenCover))
        router.present(.settings)
        // One update would dismiss the root's cover and present the sheet: UIKit refuses that.
        #expect(router.presentedAsSheet == nil)
        #expect(router.presentedAsCover == nil)
        #expect(router.presentedOverModal == nil)
        #expect(router.state.sheet == .settings && router.state.fullScreenCover == .profile(userID: 7))

        // SwiftUI writes nil into the cover's binding as it dismisses it: the state keeps its cover.
        router.presentedAsCover = nil
        #expect(router.fullScreenCover == .profile(userID: 7))

        let notified = ObservedFlag()
        withObservationTracking {
            _ = router.presentedAsSheet
        } onChange: {
            notified.set()
        }
        router.rootModalDismissed()
        #expect(notified.isSet)
        #expect(router.presentedAsSheet == Layer(route: .settings, style: .sheet))
        #expect(router.presentedOverModal == Layer(route: .profile(userID: 7), style: .fullScreenCover))
    }

    @Test("the state changes again while the old modal is dismissed: what it asks for last goes up")
    func changesWhileDismissing() {
        let router = PrismRouter<Screen>()
        router.present(.settings)
        router.presenterAttached()
        // The sheet goes and a cover comes in one change: the root's modal changes style.
        router.update {
            $0.sheet = nil
            $0.fullScreenCover = .profile(userID: 2)
        }
        #expect(router.presentedAsSheet == nil && router.presentedAsCover == nil)
        router.fullScreen(.profile(userID: 3))  // before SwiftUI reported the sheet dismissed
        #expect(router.presentedAsCover == nil)
        router.rootModalDismissed()
        #expect(router.presentedAsCover == Layer(route: .profile(userID: 3), style: .fullScreenCover))
        // A dismissal reported with nothing staged changes nothing.
        router.rootModalDismissed()
        #expect(router.presentedAsCover == Layer(route: .profile(userID: 3), style: .fullScreenCover))
    }

    @Test("a change of route in the same style, or a dismissal, is shown at once")
    func sameStyleAtOnce() {
        let router = PrismRouter<Screen>()
        router.presenterAttached()
        router.present(.settings)
        router.present(.profile(userID: 1))
        #expect(router.presentedAsSheet == Layer(route: .profile(userID: 1), style: .sheet))
        router.fullScreen(.profile(userID: 2))
        #expect(router.presentedOverModal == Layer(route: .profile(userID: 2), style: .fullScreenCover))
        router.root()
        #expect(router.presentedAsSheet == nil && router.presentedOverModal == nil)
    }
}

/// Set once by an observation's `onChange`, which may run on any thread.
final class ObservedFlag: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
