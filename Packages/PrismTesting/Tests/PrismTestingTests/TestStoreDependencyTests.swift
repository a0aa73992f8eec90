import Foundation
import PrismStore
import PrismTestSupport
import PrismTesting
import Testing

/// Features that wait or read the world, tested with test clocks and dependencies: no real
/// waiting, nothing shared between tests.
@MainActor
@Suite("Test stores with dependencies and test clocks")
struct TestStoreDependencyTests {
    struct SearchState: Equatable, Sendable {
        var query = ""
        var results: [String] = []
        var searchedAt: Date?
    }

    enum SearchAction: Equatable, Sendable {
        case queryChanged(String)
        case search(String)
    }

    /// A search that waits for typing to pause (debounce), then stamps the time it ran.
    struct SearchFeature: PrismReducer {
        struct SearchID: Hashable, Sendable {}
        @Dependency(\.continuousClock) var clock
        @Dependency(\.date.now) var now

        func reduce(into state: inout SearchState, action: SearchAction) -> PrismEffect<SearchAction> {
            switch action {
            case .queryChanged(let query):
                state.query = query
                return PrismEffect.send(.search(query))
                    .debounce(id: SearchID(), for: .milliseconds(300), clock: clock)
            case .search(let query):
                state.results = ["\(query) 1", "\(query) 2"]
                state.searchedAt = now
                return .none
            }
        }
    }

    static let noon = Date(timeIntervalSince1970: 43_200)

    @Test("a debounced search runs once typing pauses, on the test clock, in no real time")
    func debouncedSearch() async {
        let clock = TestClock()
        let store = PrismTestStore(initialState: SearchState(), reducer: SearchFeature()) {
            $0.continuousClock = clock
            $0.date = .constant(Self.noon)
        }
        await store.send(.queryChanged("pr")) { $0.query = "pr" }
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(200))
        await store.send(.queryChanged("prism")) { $0.query = "prism" }
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(299))
        await store.send(.queryChanged("prism")) { _ in }
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(300))
        await store.receive(.search("prism")) {
            $0.results = ["prism 1", "prism 2"]
            $0.searchedAt = Self.noon
        }
        await store.finish()
    }

    @Test("an immediate clock answers every wait at once")
    func immediateClock() async {
        let store = PrismTestStore(initialState: SearchState(), reducer: SearchFeature()) {
            $0.continuousClock = ImmediateClock()
            $0.date = .constant(Self.noon)
        }
        await store.send(.queryChanged("x")) { $0.query = "x" }
        await store.receive(.search("x")) {
            $0.results = ["x 1", "x 2"]
            $0.searchedAt = Self.noon
        }
    }

    @Test("a feature that uses a dependency the test did not set fails the test, naming it")
    func unsetDependencyFails() async {
        let store = PrismTestStore(initialState: SearchState(), reducer: SearchFeature()) {
            $0.continuousClock = ImmediateClock()
        }
        withKnownIssue {
            store.send(.search("x"))
        } matching: { issue in
            issue.description.contains("@Dependency(\\.date) has no test implementation")
        }
    }

    @Test("test stores running side by side keep their own dependencies", arguments: 0..<8)
    func parallelStoresDoNotShare(seconds: Int) async {
        let stamp = Date(timeIntervalSince1970: TimeInterval(seconds))
        let store = PrismTestStore(initialState: SearchState(), reducer: SearchFeature()) {
            $0.continuousClock = ImmediateClock()
            $0.date = .constant(stamp)
        }
        await store.send(.search("a")) {
            $0.results = ["a 1", "a 2"]
            $0.searchedAt = stamp
        }
    }

    @Test("with an immediate timeout clock, an action that never comes fails the test without waiting")
    func immediateTimeouts() async {
        let store = PrismTestStore(initialState: SearchState(), reducer: SearchFeature()) {
            $0.continuousClock = TestClock()
            $0.date = .constant(Self.noon)
        }
        store.timeoutClock = ImmediateClock()
        await store.send(.queryChanged("x")) { $0.query = "x" }
        await withKnownIssue {
            await store.receive(.search("x"), timeout: .milliseconds(100))
        } matching: { issue in
            issue.description.contains("Expected to receive search(\"x\")")
        }
        store.skipInFlightEffects()
    }
}
