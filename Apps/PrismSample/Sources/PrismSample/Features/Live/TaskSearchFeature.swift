import Foundation
import Prism

/// A search of the server's tasks as the user types: the search runs once typing pauses for
/// ``pause`` (a debounce on the store's clock), and a newer query cancels an older search.
///
/// Its test (`LiveFeatureTests`) types on a `TestClock` against a `PrismStubTransport`, so the
/// pause takes no real time and no server runs.
struct TaskSearchFeature: PrismReducer {
    struct State: Equatable, Sendable {
        var query = ""
        var results: [RemoteTask] = []
        var isSearching = false
        var failure: String?
    }

    enum Action: Equatable, Sendable {
        case queryChanged(String)
        case resultsLoaded(query: String, [RemoteTask])
        case searchFailed(String)
    }

    /// How long typing must pause before a search runs.
    static let pause = Duration.milliseconds(300)

    private struct SearchID: Hashable, Sendable {}

    @Dependency(\.continuousClock) var clock
    @Dependency(\.taskAPI) var api

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            guard !query.isEmpty else {
                state.results = []
                state.isSearching = false
                return .cancel(id: SearchID())
            }
            state.isSearching = true
            return .run { [api] send in
                let list = try await api.list()
                send(
                    .resultsLoaded(query: query, list.tasks.filter { $0.title.localizedCaseInsensitiveContains(query) })
                )
            } catch: { error, send in
                send(.searchFailed(SyncConnection.describe(error)))
            }
            .debounce(id: SearchID(), for: Self.pause, clock: clock)
        case .resultsLoaded(let query, let results):
            guard query == state.query else { return .none }
            state.results = results
            state.isSearching = false
            state.failure = nil
            return .none
        case .searchFailed(let reason):
            state.isSearching = false
            state.failure = reason
            return .none
        }
    }
}
