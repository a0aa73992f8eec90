import Foundation
import PrismStore
import Testing

@testable import PrismInspector

@MainActor
@Suite("Time travel and recording from the page")
struct InspectorTimeTravelTests {
    @Test("jumping to an earlier action puts the store back in the state after it")
    func jumpRestoresState() async throws {
        try await withTodoPage(sending: [.increment, .add("milk"), .increment]) { store, inspector, page in
            try await page.send(["type": "jump", "index": 1])
            let jumped = try await page.next("jumped")
            #expect(jumped["index"] as? Int == 1)
            #expect(store.state == TodoState(count: 1, items: []))
            #expect(inspector.debugger.currentIndex == 1)
            // Forward again to the newest.
            try await page.send(["type": "jump", "index": 3])
            _ = try await page.next("jumped") { $0["index"] as? Int == 3 }
            #expect(store.state == TodoState(count: 2, items: ["milk"]))
        }
    }

    @Test("an action after a jump back replaces the snapshots ahead, and its entry names its parent")
    func actionAfterJumpBranches() async throws {
        try await withTodoPage(sending: Array(repeating: .increment, count: 3)) { store, inspector, page in
            try await page.send(["type": "jump", "index": 1])
            _ = try await page.next("jumped")
            store.send(.add("branch"))
            inspector.flush()
            let batch = try await page.next("actions") { !($0.entries.isEmpty) }
            #expect(batch.entries.map { $0["index"] as? Int } == [4])
            #expect(batch.entries.map { $0["parent"] as? Int } == [1])
            #expect(inspector.debugger.snapshots.map(\.index) == [0, 1, 4])
            #expect(store.state == TodoState(count: 1, items: ["branch"]))
        }
    }

    @Test("a jump the app does not make is not recorded as a replaced state")
    func jumpIsNotAReplacement() async throws {
        try await withTodoPage(sending: [.increment, .increment]) { _, inspector, page in
            try await page.send(["type": "jump", "index": 1])
            _ = try await page.next("jumped")
            #expect(inspector.debugger.snapshots.count == 3)
        }
    }

    @Test("a state the app replaces without an action is noted in the list")
    func replacementIsNoted() async throws {
        try await withTodoInspector { store, inspector in
            store.send(.increment)
            store.replaceState(with: TodoState(count: 40))
            store.send(.increment)
            let snapshots = inspector.debugger.snapshots
            #expect(
                snapshots.map(\.action) == [
                    "(inspector attached)", "increment", "(state replaced without an action)", "increment",
                ])
            #expect(snapshots.map(\.state.count) == [0, 1, 40, 41])
        }
    }

    @Test("pausing stops recording; resuming notes how many actions were not recorded")
    func pauseAndResume() async throws {
        try await withTodoPage { store, inspector, page in
            try await page.send(["type": "record", "on": false])
            _ = try await page.next("actions") { $0["recording"] as? Bool == false }
            #expect(!inspector.isRecording)
            store.send(.increment)
            store.send(.increment)
            try await page.send(["type": "record", "on": true])
            let resumed = try await page.next("actions") { $0["recording"] as? Bool == true }
            #expect(
                resumed.entries.map { $0["name"] as? String } == ["(recording resumed; 2 actions were not recorded)"])
            store.send(.increment)
            #expect(inspector.debugger.snapshots.map(\.state.count) == [0, 2, 3])
        }
    }
}
