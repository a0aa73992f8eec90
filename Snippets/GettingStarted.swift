// A counter, then a feature with an effect, its test, a saved state and a network call.
// snippet.hide
import Foundation
import Prism
import PrismTesting
import Testing

// snippet.show

// snippet.counter
struct CounterState: Equatable, Sendable {
    var count = 0
}

enum CounterAction: Equatable, Sendable {
    case increment
    case decrement
}

struct CounterReducer: PrismReducer {
    func reduce(into state: inout CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
        switch action {
        case .increment:
            state.count += 1
        case .decrement:
            state.count -= 1
        }
        return .none
    }
}

@MainActor
func countTwice() {
    let store = PrismStore(initialState: CounterState(), reducer: CounterReducer())
    store.send(.increment)
    store.send(.increment)
    print(store.count)  // 2: `send` has reduced the action when it returns
}
// snippet.end

// snippet.client
/// Fetches a fact about a number: a dependency, so that a test can give its own.
struct FactClient: Sendable {
    var fetch: @Sendable (_ number: Int) async throws -> String
}

extension FactClient: TestDependencyKey {
    /// In a test that did not give one, any use fails the test and names the dependency.
    static let testValue = FactClient(fetch: unimplemented("FactClient.fetch"))
}

extension DependencyValues {
    var factClient: FactClient {
        get { self[FactClient.self] }
        set { self[FactClient.self] = newValue }
    }
}
// snippet.end

// snippet.feature
struct CounterFeature: PrismReducer {
    struct State: Equatable, Sendable, Codable {
        var count = 0
        var fact: String?
        var isLoadingFact = false
    }

    enum Action: Equatable, Sendable {
        case increment
        case factButtonTapped
        case factLoaded(String)
        case factFailed
    }

    @Dependency(\.factClient) var factClient

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .increment:
            state.count += 1
            state.fact = nil
            return .none
        case .factButtonTapped:
            state.isLoadingFact = true
            return .run { [count = state.count, factClient] send in
                send(.factLoaded(try await factClient.fetch(count)))
            } catch: { _, send in
                send(.factFailed)
            }
        case .factLoaded(let fact):
            state.isLoadingFact = false
            state.fact = fact
            return .none
        case .factFailed:
            state.isLoadingFact = false
            return .none
        }
    }
}
// snippet.end

// snippet.test
@MainActor
@Test func factIsLoadedForTheCurrentCount() async {
    let store = PrismTestStore(initialState: CounterFeature.State(), reducer: CounterFeature()) {
        $0.factClient.fetch = { "\($0) is a good number." }
    }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.factButtonTapped) { $0.isLoadingFact = true }
    await store.receive(.factLoaded("1 is a good number.")) {
        $0.isLoadingFact = false
        $0.fact = "1 is a good number."
    }
}
// snippet.end

// snippet.saved
@MainActor
func makeSavedStore() -> PrismStore<CounterFeature.State, CounterFeature.Action> {
    PrismStore(
        restoringWith: PrismPersistMiddleware(strategy: PrismDiskPersistence(), key: "counter"),
        default: CounterFeature.State(),
        reducer: CounterFeature()
    )
}
// snippet.end

// snippet.network
struct FactEndpoint: PrismNetworkEndpoint {
    var number: Int

    var host: String { "numbers.example.com" }
    var path: String { PrismPath.segments("facts", String(number)) }
}

struct Fact: PrismEntity {
    var text: String
}

extension FactClient: DependencyKey {
    /// What the app uses: one request through a shared client.
    static let liveValue: FactClient = {
        let client = PrismNetworkAdapter()
        return FactClient { number in
            try await client.request(on: PrismEndpointRequest<FactEndpoint, Fact>(FactEndpoint(number: number))).text
        }
    }()
}
// snippet.end
