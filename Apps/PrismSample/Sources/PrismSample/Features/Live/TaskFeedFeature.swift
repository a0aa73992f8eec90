import Foundation
import Prism

/// Follows the server's list live: while it follows, each revision the server pushes (Server-Sent
/// Events, reconnected with `Last-Event-ID` after a drop) becomes an action. The following is an
/// effect with a cancellation id: `.stop` ends it, and with it the connection.
///
/// Its test (`LiveFeatureTests`) feeds it an event stream from a `PrismStubTransport`.
struct TaskFeedFeature: PrismReducer {
    struct State: Equatable, Sendable {
        var isFollowing = false
        var revision: Int?
        var titles: [String] = []
        /// How many revisions arrived while following.
        var received = 0
        var failure: String?
    }

    enum Action: Equatable, Sendable {
        case start
        case stop
        case received(RemoteTaskList)
        case ended
        case failed(String)
    }

    private struct FeedID: Hashable, Sendable {}

    @Dependency(\.taskAPI) var api

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .start:
            state.isFollowing = true
            state.failure = nil
            return .run { [api] send in
                for try await list in api.follow() { send(.received(list)) }
                send(.ended)
            } catch: { error, send in
                send(.failed(SyncConnection.describe(error)))
            }
            .cancellable(id: FeedID(), cancelInFlight: true)
        case .stop:
            state.isFollowing = false
            return .cancel(id: FeedID())
        case .received(let list):
            state.revision = list.revision
            state.titles = list.tasks.map(\.title)
            state.received += 1
            return .none
        case .ended:
            state.isFollowing = false
            return .none
        case .failed(let reason):
            state.isFollowing = false
            state.failure = reason
            return .none
        }
    }
}
