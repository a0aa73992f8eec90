import Foundation
import PrismStore
import PrismTesting
import Testing

/// A navigation stack of features, tested exhaustively with a test store: push, pop, pop to the
/// root, a screen that pops itself, and the hostile orders (an action for a popped screen, a push
/// during a pop, a deep link replacing the stack while a screen's effect runs).
@MainActor
@Suite("Presentation: a navigation stack of features")
struct StackTests {
    struct Detail: Equatable, Sendable, Codable {
        var item: Int
        var ticks = 0
    }

    enum DetailAction: Equatable, Sendable {
        case startTicking
        case tick
        case done
    }

    struct DetailFeature: PrismReducer {
        let ticks: AsyncStream<Void>
        @Dependency(\.dismiss) var dismiss

        func reduce(into state: inout Detail, action: DetailAction) -> PrismEffect<DetailAction> {
            switch action {
            case .startTicking:
                let ticks = self.ticks
                return .run { send in
                    for await _ in ticks { send(.tick) }
                }
            case .tick:
                state.ticks += 1
                return .none
            case .done:
                return .run { [dismiss] _ in await dismiss() }
            }
        }
    }

    struct App: Equatable, Sendable, Codable {
        var path = PrismStackState<Detail>()
        var popped: [Int] = []
    }

    enum AppAction: Equatable, Sendable {
        case open(Int)
        case deepLink([Int])
        case popToRoot
        case path(PrismStackAction<Detail, DetailAction>)

        var path: PrismStackAction<Detail, DetailAction>? {
            if case .path(let action) = self { action } else { nil }
        }
    }

    struct AppFeature: PrismFeature {
        let ticks: AsyncStream<Void>

        var body: some PrismReducer<App, AppAction> {
            PrismReduce<App, AppAction> { state, action in
                switch action {
                case .open(let item):
                    state.path.append(Detail(item: item))
                case .deepLink(let items):
                    state.path.replace(with: items.map { Detail(item: $0) })
                case .popToRoot:
                    state.path.popToRoot()
                case .path(.popFrom(let id)):
                    // The parent hears the pop with the screen still there.
                    if let item = state.path[id: id]?.item { state.popped.append(item) }
                case .path:
                    break
                }
                return .none
            }
            .forEach(\.path, action: AppAction.path, toStackAction: \.path) {
                DetailFeature(ticks: ticks)
            }
        }
    }

    private func makeStore() -> (PrismTestStore<App, AppAction>, AsyncStream<Void>.Continuation) {
        let (ticks, continuation) = AsyncStream<Void>.makeStream()
        return (PrismTestStore(initialState: App(), reducer: AppFeature(ticks: ticks)), continuation)
    }

    private static let first = PrismStackElementID(rawValue: 1)
    private static let second = PrismStackElementID(rawValue: 2)

    @Test("push, an element's action, SwiftUI's push and pop, and pop to the root")
    func pushAndPop() async {
        let (store, _) = makeStore()
        await store.send(.open(7)) { $0.path.append(Detail(item: 7)) }
        #expect(store.state.path.ids == [Self.first])
        await store.send(.path(.push(id: Self.second, state: Detail(item: 8)))) {
            $0.path.append(Detail(item: 8))
        }
        await store.send(.path(.popFrom(id: Self.second))) {
            $0.popped = [8]
            $0.path.popLast()
        }
        await store.send(.open(9)) { $0.path.append(Detail(item: 9)) }
        // Ids are never given twice: the new screen is #3.
        #expect(store.state.path.ids.map(\.rawValue) == [1, 3])
        await store.send(.popToRoot) { $0.path.popToRoot() }
    }

    @Test("a screen pops itself with dismiss(); the parent hears the pop first")
    func screenPopsItself() async {
        let (store, _) = makeStore()
        await store.send(.open(7)) { $0.path.append(Detail(item: 7)) }
        await store.send(.path(.element(id: Self.first, action: .done))) { _ in }
        await store.receive(.path(.popFrom(id: Self.first))) {
            $0.popped = [7]
            $0.path.popLast()
        }
        await store.finish()
    }

    @Test("an action for a popped screen is dropped with a warning; it never reaches the screen pushed after")
    func actionAfterPop() async {
        let (store, _) = makeStore()
        await store.send(.open(7)) { $0.path.append(Detail(item: 7)) }
        await store.send(.path(.popFrom(id: Self.first))) {
            $0.popped = [7]
            $0.path.popLast()
        }
        await store.send(.open(8)) { $0.path.append(Detail(item: 8)) }
        await withKnownIssue {
            await store.send(.path(.element(id: Self.first, action: .tick))) { _ in }
        } matching: { issue in
            issue.description.contains("received tick for the element #1, which is not in it")
        }
        #expect(store.state.path.first?.ticks == 0)
    }

    @Test("a push during a pop: the parent's own push wins, SwiftUI's is not added twice")
    func pushDuringPop() async {
        let (store, _) = makeStore()
        await store.send(.open(7)) { $0.path.append(Detail(item: 7)) }
        await store.send(.path(.popFrom(id: Self.first))) {
            $0.popped = [7]
            $0.path.popLast()
        }
        // SwiftUI reports a push of an id the stack already gave: ignored.
        await store.send(.path(.push(id: Self.first, state: Detail(item: 99)))) { _ in }
        #expect(store.state.path.isEmpty)
    }

    @Test("a deep link replaces the stack while a screen's effect runs: the effect ends, the new screens are new")
    func deepLinkMidEffect() async {
        let (store, ticks) = makeStore()
        await store.send(.open(7)) { $0.path.append(Detail(item: 7)) }
        await store.send(.path(.element(id: Self.first, action: .startTicking))) { _ in }
        ticks.yield()
        await store.receive(.path(.element(id: Self.first, action: .tick))) { $0.path[id: Self.first]?.ticks = 1 }
        await store.send(.deepLink([1, 2])) { $0.path.replace(with: [Detail(item: 1), Detail(item: 2)]) }
        #expect(store.state.path.ids.map(\.rawValue) == [2, 3])
        ticks.yield()
        // The ticking effect of #1 was cancelled with it: nothing is received, nothing runs.
        await store.finish()
    }

    @Test("the stack is saved and restored with its ids; a restored stack never gives an id twice")
    func restorable() throws {
        var state = App()
        state.path.append(Detail(item: 1))
        let popped = state.path.append(Detail(item: 2))
        state.path.pop(from: popped)
        state.path.append(Detail(item: 3))
        let json = try JSONEncoder().encode(state)
        var restored = try JSONDecoder().decode(App.self, from: json)
        #expect(restored == state)
        #expect(restored.path.ids.map(\.rawValue) == [1, 3])
        #expect(restored.path.append(Detail(item: 4)).rawValue == 4)
        let twice = Data(
            #"{"path": {"elements": [{"id": 1, "element": {"item": 1, "ticks": 0}}, {"id": 1, "element": {"item": 2, "ticks": 0}}]}, "popped": []}"#
                .utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(App.self, from: twice) }
    }
}
