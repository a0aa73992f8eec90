import Foundation
import PrismStore
import PrismTesting
import Testing

/// The documented test shape (send, then receive what the effect sends, then the test ends) run
/// many times while two threads keep both cores busy: the effect has sent its last action but
/// its task may not have ended when the store goes away, and the store must not call that
/// "still running".
///
/// In the suite it runs 300 times or for two seconds, whichever ends first: its busy threads
/// slow every test that runs beside it, and a longer run made other tests' 10-second waits
/// expire. `PRISM_STRESS_RUNS=2000` runs it that many times, with no time limit (run it alone:
/// `swift test --filter EffectEndRaceTests`).
@Suite("An effect that has sent its last action as the test ends")
struct EffectEndRaceTests {
    struct Feature: PrismReducer {
        struct State: Equatable, Sendable {
            var isLoading = false
            var fact: String?
        }

        enum Action: Equatable, Sendable {
            case load
            case loaded(String)
        }

        func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
            switch action {
            case .load:
                state.isLoading = true
                return .run { send in
                    await Task.yield()
                    send(.loaded("42 is a good number."))
                }
            case .loaded(let fact):
                state.isLoading = false
                state.fact = fact
                return .none
            }
        }
    }

    /// Two threads that spin until told to stop.
    final class BusyLoops: @unchecked Sendable {
        private let lock = NSLock()
        private var running = true

        init(threads: Int) {
            for _ in 0..<threads {
                Thread.detachNewThread { [self] in
                    var counter = 0
                    while lock.withLock({ running }) {
                        for _ in 0..<10_000 { counter &+= 1 }
                    }
                }
            }
        }

        func stop() { lock.withLock { running = false } }
    }

    @MainActor
    @Test("receiving an effect's last action and ending the test never reports it as running, beside busy cores")
    func lastActionThenEnd() async {
        let requested = ProcessInfo.processInfo.environment["PRISM_STRESS_RUNS"].flatMap { Int($0) }
        let runs = requested ?? 300
        let deadline = ContinuousClock.now + (requested == nil ? .seconds(2) : .seconds(86_400))
        let busy = BusyLoops(threads: 2)
        defer { busy.stop() }
        for _ in 0..<runs where ContinuousClock.now < deadline {
            let store = PrismTestStore(initialState: Feature.State(), reducer: Feature())
            await store.send(.load) { $0.isLoading = true }
            await store.receive(.loaded("42 is a good number.")) {
                $0.isLoading = false
                $0.fact = "42 is a good number."
            }
        }
    }
}
