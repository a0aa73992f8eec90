import Foundation
import PrismArchitecture
import PrismTesting
import Testing

/// A deep link (PrismRouting) opening a whole navigation stack of features (PrismStore's
/// PrismStackState), while a screen's effect runs, and the links that cannot.
@MainActor
@Suite("Deep links into a stack of features")
struct DeepLinkStackTests {
    enum Route: PrismRoutable, Codable {
        case list(Int)
        case task(Int)
        case share(Int)
    }

    struct Screen: Equatable, Sendable, Codable {
        var route: Route
        var ticks = 0
    }

    enum ScreenAction: Equatable, Sendable {
        case startTicking
        case tick
    }

    struct ScreenFeature: PrismReducer {
        let ticks: AsyncStream<Void>

        func reduce(into state: inout Screen, action: ScreenAction) -> PrismEffect<ScreenAction> {
            switch action {
            case .startTicking:
                let ticks = self.ticks
                return .run { send in
                    for await _ in ticks { send(.tick) }
                }
            case .tick:
                state.ticks += 1
                return .none
            }
        }
    }

    struct App: Equatable, Sendable, Codable {
        var path = PrismStackState<Screen>()
        var failure: String?
    }

    enum AppAction: Equatable, Sendable {
        case open(URL)
        case path(PrismStackAction<Screen, ScreenAction>)

        var path: PrismStackAction<Screen, ScreenAction>? {
            if case .path(let action) = self { action } else { nil }
        }
    }

    struct Unshareable: Error {}

    static let links: PrismDeepLinks<Route> = {
        var links = PrismDeepLinks<Route>(schemes: ["tasks"])
        links.register("/lists/:list") { [.list(try $0.value("list"))] }
        links.register("/lists/:list/tasks/:task") { [.list(try $0.value("list")), .task(try $0.value("task"))] }
        links.register("/tasks/:task/share") { parameters in
            PrismNavigationState(
                stack: [.task(try parameters.value("task"))], sheet: .share(try parameters.value("task")))
        }
        links.register("/shared/:task") { [.share(try $0.value("task"))] }
        return links
    }()

    struct AppFeature: PrismFeature {
        let ticks: AsyncStream<Void>

        var body: some PrismReducer<App, AppAction> {
            PrismReduce<App, AppAction> { state, action in
                if case .open(let url) = action {
                    do throws(PrismRoutingError) {
                        state.path.replace(
                            with: try DeepLinkStackTests.links.stack(for: url) { route in
                                if case .share = route { throw Unshareable() }
                                return Screen(route: route)
                            })
                        state.failure = nil
                    } catch {
                        state.failure = error.code.description
                    }
                }
                return .none
            }
            .forEach(\.path, action: AppAction.path, toStackAction: \.path) { ScreenFeature(ticks: ticks) }
        }
    }

    private static func url(_ text: String) -> URL {
        // swift-format-ignore: NeverForceUnwrap
        URL(string: text)!
    }

    @Test("a link replaces the stack while a screen's effect runs: the effect ends, every screen is new")
    func replacesMidEffect() async {
        let (ticks, tick) = AsyncStream<Void>.makeStream()
        let store = PrismTestStore(initialState: App(), reducer: AppFeature(ticks: ticks))
        await store.send(.open(Self.url("tasks://lists/1"))) {
            $0.path.replace(with: [Screen(route: .list(1))])
        }
        let first = store.state.path.ids[0]
        await store.send(.path(.element(id: first, action: .startTicking))) { _ in }
        tick.yield()
        await store.receive(.path(.element(id: first, action: .tick))) { $0.path[id: first]?.ticks = 1 }

        await store.send(.open(Self.url("tasks://lists/1/tasks/7"))) {
            $0.path.replace(with: [Screen(route: .list(1)), Screen(route: .task(7))])
        }
        // The same list, a new screen: its id is not the old one's.
        #expect(!store.state.path.ids.contains(first))
        tick.yield()
        // The old screen's ticking was cancelled with it: nothing arrives, nothing runs.
        await store.finish()
    }

    @Test("a link that shows a sheet, an unknown link, a screen that cannot be made: typed errors, the stack unchanged")
    func refusals() async {
        let store = PrismTestStore(initialState: App(), reducer: AppFeature(ticks: AsyncStream { $0.finish() }))
        await store.send(.open(Self.url("tasks://lists/1/tasks/7"))) {
            $0.path.replace(with: [Screen(route: .list(1)), Screen(route: .task(7))])
        }
        let ids = store.state.path.ids
        await store.send(.open(Self.url("tasks://tasks/7/share"))) { $0.failure = "modalInStack" }
        await store.send(.open(Self.url("tasks://nowhere"))) { $0.failure = "unknownURL" }
        await store.send(.open(Self.url("tasks://shared/7"))) { $0.failure = "handlerFailed" }
        await store.send(.open(Self.url("tasks://lists/x"))) { $0.failure = "malformedParameter" }
        #expect(store.state.path.ids == ids)
    }

    @Test("the stack is saved on disk with the rest of the state and comes back after a relaunch, ids and all")
    func restoredAfterRelaunch() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("prism-stack-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = PrismDiskPersistence(directory: directory)
        let feature = AppFeature(ticks: AsyncStream { $0.finish() })
        let persist = PrismPersistMiddleware<App, AppAction>(strategy: disk, key: "app")
        let store = PrismStore(restoringWith: persist, default: App(), reducer: feature)
        store.send(.open(Self.url("tasks://lists/1/tasks/7")))
        store.send(.path(.popFrom(id: store.state.path.ids[1])))
        store.send(.path(.push(id: store.state.path.nextElementID, state: Screen(route: .task(8)))))
        try await persist.flush()
        let saved = store.state.path
        #expect(saved.ids.map(\.rawValue) == [1, 3])

        // The next launch: the same screens under the same ids, and no id given twice after.
        let relaunched = PrismStore(
            restoringWith: PrismPersistMiddleware<App, AppAction>(strategy: disk, key: "app"), default: App(),
            reducer: feature)
        #expect(relaunched.state.path == saved)
        relaunched.send(.path(.push(id: relaunched.state.path.nextElementID, state: Screen(route: .task(9)))))
        #expect(relaunched.state.path.ids.map(\.rawValue) == [1, 3, 4])
        relaunched.send(.open(Self.url("tasks://lists/2")))
        #expect(relaunched.state.path.ids.map(\.rawValue) == [5])
    }

    @Test("the errors say what and where")
    func errorsDescribeTheLink() throws {
        let error = try #require(throws: PrismRoutingError.self) {
            try Self.links.stack(for: Self.url("tasks://tasks/7/share")) { $0 }
        }
        #expect(error.code == .modalInStack)
        #expect(error.url == Self.url("tasks://tasks/7/share"))
        #expect(error.value == "share(7)")
        let failed = try #require(throws: PrismRoutingError.self) {
            try Self.links.stack(for: Self.url("tasks://shared/7")) { _ -> Int in throw Unshareable() }
        }
        #expect(failed.code == .handlerFailed)
        #expect(failed.underlying is Unshareable)
    }
}
