import Foundation
import PrismPersistence
@_spi(PrismInternals) import PrismStore
import Testing

@testable import PrismInspector

/// Polls `condition` on the main actor for up to 15 seconds.
@MainActor
func eventually(_ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(120)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

@MainActor
@Suite("Skipping actions and locking the app from the page")
struct InspectorSteeringTests {
    @Test(
        "skipping an action recomputes the states after it and puts the store in the newest; unskipping restores them")
    func skipRecomputes() async throws {
        try await withTodoPage(sending: [
            .add("milk"),  // #1
            .increment,  // #2
            .add("eggs"),  // #3
        ]) { store, inspector, page in
            try await page.send(["type": "skip", "index": 2, "on": true])
            let skipped = try await page.next("skipped")
            #expect(skipped["indices"] as? [Int] == [2])
            #expect(store.state == TodoState(count: 0, items: ["milk", "eggs"]))
            #expect(inspector.debugger.snapshots.map(\.state.count) == [0, 0, 0, 0])
            #expect(inspector.debugger.snapshots.map(\.state.items.count) == [0, 1, 1, 2])

            // The page sees the recomputed state when it selects it, and the row as skipped.
            try await page.send(["type": "select", "index": 3])
            let selected = try await page.next("state")
            #expect((selected["diff"] as? [[String: Any]])?.count == 1, "only eggs: the skipped increment left nothing")

            // The app goes on from the recomputed state.
            store.send(.increment)
            #expect(store.state.count == 1)

            try await page.send(["type": "skip", "index": 2, "on": false])
            _ = try await page.next("skipped") { ($0["indices"] as? [Int])?.isEmpty == true }
            #expect(inspector.debugger.snapshots.map(\.state.count) == [0, 0, 1, 1, 2])
            #expect(store.state == TodoState(count: 2, items: ["milk", "eggs"]))
        }
    }

    @Test("a new page sees which actions are skipped; the export leaves them out")
    func skippedForNewPagesAndExport() async throws {
        try await withTodoInspector { store, inspector in
            store.send(.increment)
            store.send(.add("skip me"))
            store.send(.increment)
            let first = try await openPage(inspector, past: "actions")
            try await first.send(["type": "skip", "index": 2])
            _ = try await first.next("skipped")

            let second = try await openPage(inspector)
            let batch = try await second.next("actions") { $0["reset"] as? Bool == true }
            #expect(batch.entries.map { $0["skipped"] as? Bool } == [false, false, true, false])
            try await second.send(["type": "export"])
            let export = try await second.next("export")
            #expect(export["actions"] as? Int == 2)
            let data = try JSONSerialization.data(withJSONObject: export["data"] as Any)
            let recording = try JSONDecoder().decode(PrismSessionRecording<TodoState, TodoAction>.self, from: data)
            #expect(recording.entries.map(\.action) == [.increment, .increment])
            await first.close()
            await second.close()
        }
    }

    @Test(
        "a note cannot be skipped, nor an action whose earlier state was evicted; a store jumped back keeps its state")
    func skipRefusals() async throws {
        // Four increments: the history keeps #2, #3, #4.
        try await withTodoPage(sending: Array(repeating: .increment, count: 4), historyLimit: 3) {
            store, inspector, page in
            try await page.send(["type": "skip", "index": 2])
            let evicted = try await page.next("error")
            #expect((evicted["message"] as? String)?.contains("no longer kept") == true)
            try await page.send(["type": "skip", "index": 0])
            _ = try await page.next("error")

            try await page.send(["type": "jump", "index": 3])
            _ = try await page.next("jumped")
            try await page.send(["type": "skip", "index": 4])
            _ = try await page.next("skipped")
            #expect(store.state.count == 3, "the store is at #3, before the skipped action")
            #expect(inspector.debugger.snapshots.map(\.state.count) == [2, 3, 3])
        }

        let noted = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        try await withInspector(noted) { inspector in
            let page = try await openPage(inspector, past: "actions")
            try await page.send(["type": "skip", "index": 0])
            let error = try await page.next("error")
            #expect((error["message"] as? String)?.contains("a note") == true)
            await page.close()
        }
    }

    @Test("a locked app's actions and its effects' are held and released in order on unlock; the page's send passes")
    func lockHoldsAndReleases() async throws {
        try await withTodoPage { store, inspector, page in
            try await page.send(["type": "lock", "on": true])
            _ = try await page.next("notice") { ($0["message"] as? String)?.hasPrefix("Locked") == true }
            #expect(store.tools.isLocked)

            store.send(.increment)
            store.send(.addLater("later"))
            try await page.send(["type": "send", "action": ["add": ["_0": "from the page"]]])
            _ = try await page.next("notice") { $0["message"] as? String == "Sent past the lock." }
            #expect(store.state == TodoState(items: ["from the page"]))
            inspector.flush()
            let lock = try await page.next("lock") { $0["held"] as? Int == 2 }
            #expect(lock["locked"] as? Bool == true)

            try await page.send(["type": "lock", "on": false])
            _ = try await page.next("notice") { ($0["message"] as? String)?.contains("released 2") == true }
            #expect(try await eventually { store.state.items.count == 2 })
            #expect(store.state == TodoState(count: 1, items: ["from the page", "later"]))
            let recorded = store.tools.history(inspector.debugger)
            let actions = inspector.debugger.snapshots.compactMap { recorded.action(of: $0) }
            #expect(actions == [.add("from the page"), .increment, .addLater("later"), .add("later")])
        }
    }

    @Test("unlocking with drop reduces none of the held actions; the last page closing releases them")
    func dropAndClose() async throws {
        try await withTodoInspector { store, inspector in
            let page = try await openPage(inspector, past: "actions")
            try await page.send(["type": "lock"])
            _ = try await page.next("notice")
            store.send(.increment)
            store.send(.increment)
            try await page.send(["type": "lock", "on": false, "drop": true])
            _ = try await page.next("notice") { ($0["message"] as? String)?.contains("dropped 2") == true }
            #expect(store.state.count == 0 && !store.tools.isLocked)

            try await page.send(["type": "lock"])
            _ = try await page.next("notice") { ($0["message"] as? String)?.hasPrefix("Locked") == true }
            store.send(.add("kept"))
            await page.close()
            #expect(try await eventually { inspector.connectedPages == 0 })
            #expect(store.state.items == ["kept"], "a closed page does not leave the app frozen")
            #expect(!store.tools.isLocked)
        }
    }

    @Test("stopping a locking inspector releases what the app sent meanwhile")
    func stopReleases() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let inspector = try await startInspector(store)
        let page = try await openPage(inspector, past: "actions")
        try await page.send(["type": "lock"])
        _ = try await page.next("notice")
        store.send(.increment)
        await inspector.stop()
        #expect(store.state.count == 1)
        store.send(.increment)
        #expect(store.state.count == 2)
        await page.close()
    }
}
