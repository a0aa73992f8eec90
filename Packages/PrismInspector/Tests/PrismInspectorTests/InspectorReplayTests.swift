import Foundation
import PrismPersistence
import PrismStore
import Testing

@testable import PrismInspector

/// A middleware that counts what it hears: the actions it runs for and the replaced states.
final class Hearing: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [TodoAction] = []
    private var replacements = 0
    private var linked = false

    func heard(_ action: TodoAction) { lock.withLock { actions.append(action) } }
    func link() { lock.withLock { linked = true } }
    /// Whether the middleware found its store (`PrismStoreContext`), and so would hear a
    /// replaced state.
    var isLinked: Bool { lock.withLock { linked } }
    func replaced() { lock.withLock { replacements += 1 } }
    var heardActions: [TodoAction] { lock.withLock { actions } }
    var replacedCount: Int { lock.withLock { replacements } }
}

struct CountingMiddleware: PrismMiddleware {
    let hearing: Hearing

    func run(state: TodoState, action: TodoAction) -> PrismEffect<TodoAction> {
        hearing.heard(action)
        if !hearing.isLinked, let store = PrismStoreContext.current(for: state) {
            hearing.link()
            store.onStateReplaced { [hearing] _ in hearing.replaced() }
        }
        return .none
    }
}

/// The ways an app builds a reducer that holds middleware: each must keep a load, a jump and a
/// skip away from the middleware, with no hook of its own to forward.
enum ReducerForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case builder, handling, erased, closure, availability, feature, dependencies

    var testDescription: String { rawValue }

    @MainActor
    func store(
        persist: PrismPersistMiddleware<TodoState, TodoAction>, counting: CountingMiddleware
    ) -> PrismStore<TodoState, TodoAction> {
        let combined = PrismCombineReducers {
            TodoReducer()
            persist
            counting
        }
        switch self {
        case .builder:
            return PrismStore(
                initialState: TodoState(),
                reducer: combined)
        case .handling:
            return PrismStore(
                initialState: TodoState(), reducer: TodoReducer().handling(with: persist).handling(with: counting))
        case .erased:
            return PrismStore(
                initialState: TodoState(),
                reducer: combined.eraseToReduce())
        case .closure:
            return PrismStore(
                initialState: TodoState(),
                reducer: PrismReduce<TodoState, TodoAction> { state, action in
                    let effect = TodoReducer().reduce(into: &state, action: action)
                    return .merge(
                        effect, persist.reduce(into: &state, action: action),
                        counting.reduce(into: &state, action: action))
                })
        case .availability:
            return PrismStore(
                initialState: TodoState(),
                reducer: PrismCombineReducers {
                    TodoReducer()
                    if #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) {
                        persist
                        counting
                    }
                })
        case .feature:
            return PrismStore(initialState: TodoState(), reducer: PersistedTodos(persist: persist, counting: counting))
        case .dependencies:
            return PrismStore(
                initialState: TodoState(),
                reducer: combined.eraseToReduce(),
                withDependencies: { _ in })
        }
    }
}

struct PersistedTodos: PrismFeature {
    typealias State = TodoState
    typealias Action = TodoAction

    let persist: PrismPersistMiddleware<TodoState, TodoAction>
    let counting: CountingMiddleware

    var body: some PrismReducer<TodoState, TodoAction> {
        TodoReducer()
        persist
        counting
    }
}

@MainActor
@Suite("What the page does to the store's state never reaches its middleware")
struct InspectorReplayTests {
    @Test(
        "with the default coalescing window, a save pending from the app's last action saves the app's state, not a loaded or recomputed one; no replay is heard",
        arguments: ReducerForm.allCases
    )
    func pendingSaveAndEveryReducerForm(_ form: ReducerForm) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prism-inspector-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = PrismDiskPersistence(directory: folder)
        // The default window (500 ms): the first change is saved at once, the next waits.
        let persist = PrismPersistMiddleware<TodoState, TodoAction>(strategy: disk, key: "todos")
        let hearing = Hearing()
        let store = form.store(persist: persist, counting: CountingMiddleware(hearing: hearing))
        try await withInspector(store) { inspector in
            store.send(.add("mine"))
            store.send(.increment)  // pending until the window ends
            let apps = TodoState(count: 1, items: ["mine"])
            #expect(hearing.isLinked, "the middleware found its store, so it would hear a replacement")

            let recording = PrismSessionRecording<TodoState, TodoAction>(
                initialState: TodoState(items: ["attacker-token"]),
                entries: [.init(offset: 0.5, action: .add("theirs")), .init(offset: 1.0, action: .increment)]
            )
            let page = try await openPage(inspector, past: "actions")
            let batch = try await page.load(recording, fileName: "theirs.json")
            #expect(store.state == TodoState(count: 1, items: ["attacker-token", "theirs"]))

            // A skip recomputes with the reducer, and a jump puts a recomputed state back.
            let first = try #require(batch.entries[1]["index"] as? Int)
            try await page.send(["type": "skip", "index": first])
            _ = try await page.next("skipped")
            #expect(store.state == TodoState(count: 1, items: ["attacker-token"]))
            try await page.send(["type": "skip", "index": first, "on": false])
            _ = try await page.next("skipped") { ($0["indices"] as? [Int])?.isEmpty == true }
            try await page.send(["type": "jump", "index": first])
            _ = try await page.next("jumped")

            try await persist.flush()
            #expect(try disk.load(key: "todos") == apps, "the pending save saved the app's state")
            #expect(hearing.heardActions == [.add("mine"), .increment], "no replayed action was heard")
            #expect(hearing.isLinked)
            #expect(hearing.replacedCount == 0)
            await page.close()
        }
    }

    /// A store whose reducer saves each state in `folder` (no coalescing) and counts what its
    /// middleware hears.
    static func persistingStore(
        in folder: URL
    ) -> (
        PrismStore<TodoState, TodoAction>, PrismDiskPersistence, PrismPersistMiddleware<TodoState, TodoAction>, Hearing
    ) {
        let disk = PrismDiskPersistence(directory: folder)
        let persist = PrismPersistMiddleware<TodoState, TodoAction>(
            strategy: disk, key: "todos", coalescingWindow: .zero)
        let hearing = Hearing()
        let store = PrismStore(
            initialState: TodoState(),
            reducer: PrismCombineReducers {
                TodoReducer()
                persist
                CountingMiddleware(hearing: hearing)
            }
        )
        return (store, disk, persist, hearing)
    }

    /// Runs `body` with the ``persistingStore(in:)`` of a fresh folder, removed afterwards, and
    /// an inspector on that store (see ``withInspector(_:historyLimit:_:)``).
    static func withInspectedPersistingStore(
        _ body: (
            PrismStore<TodoState, TodoAction>, PrismDiskPersistence, PrismPersistMiddleware<TodoState, TodoAction>,
            Hearing, PrismInspector<TodoState, TodoAction>
        ) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prism-inspector-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (store, disk, persist, hearing) = persistingStore(in: folder)
        try await withInspector(store) { inspector in
            try await body(store, disk, persist, hearing, inspector)
        }
    }

    @Test(
        "loading a recording and jumping in it leave the saved state and the counting middleware alone; the app's next action is saved"
    )
    func loadSkipsMiddleware() async throws {
        try await Self.withInspectedPersistingStore { store, disk, persist, hearing, inspector in
            store.send(.add("the user's"))
            try await persist.flush()
            let saved = TodoState(items: ["the user's"])
            #expect(try disk.load(key: "todos") == saved)

            let recording = PrismSessionRecording<TodoState, TodoAction>(
                initialState: TodoState(count: 40),
                entries: [
                    .init(offset: 0.5, action: .increment),
                    .init(offset: 1.0, action: .add("someone else's")),
                ]
            )
            let page = try await openPage(inspector, past: "actions")
            let batch = try await page.load(recording, fileName: "theirs.json")
            #expect(store.state == TodoState(count: 41, items: ["someone else's"]))

            let index = try #require(batch.entries[1]["index"] as? Int)
            try await page.send(["type": "jump", "index": index])
            _ = try await page.next("jumped")
            #expect(store.state == TodoState(count: 41))

            try await persist.flush()
            #expect(try disk.load(key: "todos") == saved, "the recording's states were not saved")
            #expect(hearing.heardActions == [.add("the user's")], "the replayed actions were not heard")
            #expect(hearing.isLinked)
            #expect(hearing.replacedCount == 0, "neither the load nor the jump was heard")

            // The app goes on from the state the page put it in, and that is saved as usual.
            store.send(.increment)
            try await persist.flush()
            #expect(try disk.load(key: "todos") == TodoState(count: 42))
            #expect(hearing.heardActions == [.add("the user's"), .increment])
            await page.close()
        }
    }

    @Test("skipping an action and taking it back recompute with the bare reducer: nothing saved, nothing heard")
    func skipSkipsMiddleware() async throws {
        try await Self.withInspectedPersistingStore { store, disk, persist, hearing, inspector in
            store.send(.add("milk"))
            store.send(.increment)
            store.send(.increment)
            try await persist.flush()
            let saved = TodoState(count: 2, items: ["milk"])
            #expect(try disk.load(key: "todos") == saved)

            let page = try await openPage(inspector, past: "actions")
            try await page.send(["type": "skip", "index": 1])
            _ = try await page.next("skipped")
            #expect(store.state == TodoState(count: 2))
            try await page.send(["type": "skip", "index": 1, "on": false])
            _ = try await page.next("skipped") { ($0["indices"] as? [Int])?.isEmpty == true }
            #expect(store.state == saved)

            try await persist.flush()
            #expect(try disk.load(key: "todos") == saved, "the recomputed states were not saved")
            #expect(hearing.heardActions == [.add("milk"), .increment, .increment], "the replays were not heard")
            #expect(hearing.isLinked)
            #expect(hearing.replacedCount == 0)
            await page.close()
        }
    }
}
