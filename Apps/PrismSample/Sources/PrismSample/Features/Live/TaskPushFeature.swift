import Foundation
import Prism

/// Uploads the local list to the server. The API's client retries a failed attempt with
/// exponential backoff on its retry clock, so a server that answers 503 twice and then accepts
/// still ends in `.pushed`.
///
/// Its test (`LiveFeatureTests`) gives the client a `TestClock` and a `PrismStubTransport` that
/// fails twice: the retries wait no real time.
struct TaskPushFeature: PrismReducer {
    struct State: Equatable, Sendable {
        var isPushing = false
        var revision: Int?
        var failure: String?
    }

    enum Action: Equatable, Sendable {
        case push([RemoteTask])
        case pushed(revision: Int)
        case pushFailed(String)
    }

    private struct PushID: Hashable, Sendable {}

    @Dependency(\.taskAPI) var api

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .push(let tasks):
            state.isPushing = true
            state.failure = nil
            return .run { [api] send in
                send(.pushed(revision: try await api.replace(tasks).revision))
            } catch: { error, send in
                send(.pushFailed(SyncConnection.describe(error)))
            }
            .cancellable(id: PushID(), cancelInFlight: true)
        case .pushed(let revision):
            state.isPushing = false
            state.revision = revision
            return .none
        case .pushFailed(let reason):
            state.isPushing = false
            state.failure = reason
            return .none
        }
    }
}
