import Foundation
import Observation
import PrismRouting
import Testing

@MainActor
@Suite("Observing a router")
struct RouterObservationTests {
    @Test("an observer of the stack is notified exactly once per change of the stack")
    func stackNotifiesOncePerChange() throws {
        let router = PrismRouter<Screen>()
        let observer = ObservationCounter { _ = router.stack }

        router.push(.home)
        #expect(observer.count == 1)
        router.push(.settings)
        #expect(observer.count == 2)
        router.pop()
        #expect(observer.count == 3)
        router.setPath([.home, .detail(id: "1"), .detail(id: "2"), .detail(id: "3")])
        #expect(observer.count == 4)
        router.pop(count: 2)
        #expect(observer.count == 5)
        try router.pop(to: .home)
        #expect(observer.count == 6)
        router.dismiss()
        #expect(observer.count == 7)
        router.stack = [.settings]
        #expect(observer.count == 8)
        router.push(.onboarding)
        router.root()
        #expect(observer.count == 10)
    }

    @Test("replacing the path with many screens notifies observers of the stack once")
    func setPathNotifiesOnce() {
        let router = PrismRouter<Screen>()
        let observer = ObservationCounter { _ = router.stack }
        router.setPath((0..<20).map { .detail(id: String($0)) })
        #expect(observer.count == 1)
        #expect(router.stack.count == 20)
    }

    @Test("presenting and dismissing a sheet or cover does not notify observers of the stack")
    func presentationsDoNotTouchTheStack() {
        let router = PrismRouter<Screen>(state: [.home])
        let stack = ObservationCounter { _ = router.stack }
        let sheet = ObservationCounter { _ = router.sheet }
        let cover = ObservationCounter { _ = router.fullScreenCover }

        router.present(.settings)
        router.fullScreen(.onboarding)
        router.dismiss()
        router.dismiss()

        #expect(stack.count == 0)
        #expect(sheet.count == 2)
        #expect(cover.count == 2)
    }

    @Test("a change that changes nothing notifies nobody")
    func noChangeNoNotification() {
        let router = PrismRouter<Screen>(state: [.home])
        let observer = ObservationCounter { _ = router.state }
        router.setPath([.home])
        router.pop(count: 0)
        router.stack = [.home]
        router.sheet = nil
        router.state = [.home]
        #expect(observer.count == 0)
        router.root()
        router.root()
        router.dismiss()
        router.pop()
        #expect(observer.count == 1)
    }

    @Test("an operation that throws notifies nobody")
    func failureDoesNotNotify() {
        let router = PrismRouter<Screen>(state: [.home, .settings])
        let observer = ObservationCounter { _ = router.state }
        #expect(throws: PrismRoutingError.self) { try router.pop(to: .onboarding) }
        #expect(throws: PrismRoutingError.self) { try router.apply(.popTo(.onboarding)) }
        #expect(observer.count == 0)
    }

    @Test("an observer of the whole state is notified once by a change to several layers")
    func wholeStateNotifiesOnce() throws {
        let router = PrismRouter<Screen>(
            state: PrismNavigationState(stack: [.home], sheet: .settings, fullScreenCover: .onboarding)
        )
        let state = ObservationCounter { _ = router.state }
        let top = ObservationCounter { _ = router.topRoute }

        router.root()
        #expect(state.count == 1)
        #expect(top.count == 1)

        router.state = PrismNavigationState(stack: [.home, .settings], sheet: .onboarding, fullScreenCover: .home)
        #expect(state.count == 2)
        #expect(top.count == 2)

        var links = PrismDeepLinks<Screen>(schemes: ["myapp"])
        links.register("/profile/:id") { parameters in
            PrismNavigationState(stack: [.home, .profile(userID: try parameters.value("id"))], sheet: .settings)
        }
        try router.open(URL("myapp://profile/7"), with: links)
        #expect(state.count == 3)
        #expect(router.state == PrismNavigationState(stack: [.home, .profile(userID: 7)], sheet: .settings))
    }
}
