import Foundation
import Prism

/// Watches the server's list for changes by polling its revision every ``interval`` on the
/// store's clock, until stopped (the timer is an effect with a cancellation id).
///
/// Its test (`LiveFeatureTests`) advances a `TestClock` through several checks against a
/// `PrismStubTransport` whose revision changes, then stops the watch and sees no more requests.
struct RevisionWatchFeature: PrismReducer {
    struct State: Equatable, Sendable {
        var isWatching = false
        var revision: Int?
        /// How many checks answered.
        var checks = 0
        /// How many times the revision changed while watching.
        var changes = 0
        var failure: String?
    }

    enum Action: Equatable, Sendable {
        case start
        case stop
        case tick
        case revisionLoaded(Int)
        case checkFailed(String)
    }

    /// How often the revision is checked.
    var interval = Duration.seconds(5)

    private struct TimerID: Hashable, Sendable {}

    @Dependency(\.continuousClock) var clock
    @Dependency(\.taskAPI) var api

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .start:
            state.isWatching = true
            return .run { [clock, interval] send in
                while true {
                    try await clock.sleep(for: interval)
                    send(.tick)
                }
            }
            .cancellable(id: TimerID(), cancelInFlight: true)
        case .stop:
            state.isWatching = false
            return .cancel(id: TimerID())
        case .tick:
            return .run { [api] send in
                send(.revisionLoaded(try await api.list().revision))
            } catch: { error, send in
                send(.checkFailed(SyncConnection.describe(error)))
            }
        case .revisionLoaded(let revision):
            state.checks += 1
            if let previous = state.revision, previous != revision { state.changes += 1 }
            state.revision = revision
            state.failure = nil
            return .none
        case .checkFailed(let reason):
            state.failure = reason
            return .none
        }
    }
}
