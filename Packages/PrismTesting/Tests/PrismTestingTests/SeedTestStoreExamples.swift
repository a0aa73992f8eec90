// Seed page 001 ("Testing with PrismTestStore"), as XCTest tests the way the page writes them.
// Two changes were needed for the snippets to compile under Swift 6 and are the only ones:
// the page calls `try await testStore.waitForEffects()` inside functions declared `async` (not
// `throws`), so those functions are `async throws` here; and the middleware example mutates a
// captured `var` from an effect, which Swift 6 rejects unless the variable is declared
// `nonisolated(unsafe)`. The closure-only `PrismTestStore(initialState:reduce:)` example names
// no action type, so it compiles where the context names it (here a typealias; in your tests,
// `PrismTestStore<CounterState, CounterAction>(...)`). The app types and the reducer the page
// uses but does not show are defined below.
import PrismStore
import PrismTesting
import XCTest

enum SeedTypes {
    struct CounterState: Sendable, Equatable {
        var count = 0
    }

    enum CounterAction: Sendable {
        case increment
        case decrement
    }

    struct User: Sendable, Equatable {
        var name: String
    }

    struct UserState: Sendable, Equatable {
        var isLoading = false
        var users: [User] = []
    }

    enum UserAction: Sendable {
        case fetchUsers
        case usersLoaded([User])
    }

    struct UserReducer: PrismReducer {
        func reduce(into state: inout UserState, action: UserAction) -> PrismEffect<UserAction> {
            switch action {
            case .fetchUsers:
                state.isLoading = true
                return .run { send in
                    try await Task.sleep(for: .milliseconds(5))
                    send(.usersLoaded([User(name: "Ada")]))
                }
            case .usersLoaded(let users):
                state.isLoading = false
                state.users = users
                return .none
            }
        }
    }

    struct Item: Sendable, Equatable {
        var id: String
    }

    struct AppState: Sendable, Equatable {
        var purchases: [Item] = []
    }

    enum AppAction: Sendable {
        case purchase(Item)
        case refund(Item)
    }

    struct AppReducer: PrismReducer {
        func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
            switch action {
            case .purchase(let item):
                state.purchases.append(item)
                return .none
            case .refund(let item):
                state.purchases.removeAll { $0 == item }
                return .none
            }
        }
    }
}

final class SeedTestStoreIncrementExample: XCTestCase {
    typealias CounterState = SeedTypes.CounterState
    typealias PrismTestStore = PrismTesting.PrismTestStore<CounterState, SeedTypes.CounterAction>

    @MainActor
    func testIncrement() async {
        let testStore = PrismTestStore(
            initialState: CounterState(),
            reduce: { state, action in
                switch action {
                case .increment: state.count += 1
                case .decrement: state.count -= 1
                }
                return .none
            }
        )

        testStore.send(.increment)
        XCTAssertEqual(testStore.state.count, 1)

        testStore.send(.decrement)
        XCTAssertEqual(testStore.state.count, 0)
    }
}

final class SeedTestStoreExamples: XCTestCase {
    typealias UserState = SeedTypes.UserState
    typealias UserReducer = SeedTypes.UserReducer
    typealias AppState = SeedTypes.AppState
    typealias AppAction = SeedTypes.AppAction
    typealias AppReducer = SeedTypes.AppReducer

    @MainActor
    func testFetchUsers() async throws {
        let testStore = PrismTestStore(
            initialState: UserState(),
            reducer: UserReducer()
        )

        testStore.send(.fetchUsers)
        XCTAssertTrue(testStore.state.isLoading)

        // Wait for the async effect to complete
        try await testStore.waitForEffects()

        XCTAssertFalse(testStore.state.isLoading)
        XCTAssertFalse(testStore.state.users.isEmpty)
    }

    @MainActor
    func testAnalyticsMiddleware() async throws {
        let item = SeedTypes.Item(id: "book")
        nonisolated(unsafe) var trackedEvents: [String] = []

        let middleware = PrismSideEffect<AppState, AppAction> { _, action in
            switch action {
            case .purchase:
                return .run { _ in trackedEvents.append("purchase") }
            default:
                return .none
            }
        }

        let testStore = PrismTestStore(
            initialState: AppState(),
            reducer: AppReducer().handling(with: middleware)
        )

        testStore.send(.purchase(item))
        try await testStore.waitForEffects()

        XCTAssertEqual(trackedEvents, ["purchase"])
    }
}
