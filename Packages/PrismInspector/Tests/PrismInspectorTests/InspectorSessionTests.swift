import Foundation
import PrismStore
import Testing

@testable import PrismInspector

@MainActor
@Suite("Sessions and actions from the page: export, load, send")
struct InspectorSessionTests {
    @Test("an exported session is a PrismSessionRecording that replays to the store's state")
    func exportReplays() async throws {
        try await withTodoPage(sending: [.increment, .add("milk"), .increment]) { store, _, page in
            try await page.send(["type": "export"])
            let export = try await page.next("export")
            #expect(export["actions"] as? Int == 3)
            #expect(export["containsSecrets"] as? Bool == true)
            let data = try JSONSerialization.data(withJSONObject: try #require(export["data"]))
            let recording = try JSONDecoder().decode(PrismSessionRecording<TodoState, TodoAction>.self, from: data)
            #expect(recording.actions == [.increment, .add("milk"), .increment])
            #expect(recording.initialState == TodoState())
            #expect(recording.replay(reducer: TodoReducer()).state == store.state)
        }
    }

    @Test("an export starts at the last state no action explains (here, a replaced state)")
    func exportStartsAtLastNote() async throws {
        try await withTodoInspector { store, inspector in
            store.send(.increment)
            store.replaceState(with: TodoState(count: 10))
            store.send(.add("x"))
            let page = try await openPage(inspector, past: "actions")
            try await page.send(["type": "export"])
            let export = try await page.next("export")
            let data = try JSONSerialization.data(withJSONObject: try #require(export["data"]))
            let recording = try JSONDecoder().decode(PrismSessionRecording<TodoState, TodoAction>.self, from: data)
            #expect(recording.initialState.count == 10)
            #expect(recording.actions == [.add("x")])
            #expect(recording.replay(reducer: TodoReducer()).state == store.state)
            await page.close()
        }
    }

    @Test(
        "loading a session replaces the history with its states and puts the store in the last, without running effects"
    )
    func loadReplacesHistory() async throws {
        try await withTodoInspector { store, inspector in
            store.send(.add("before"))
            let recording = PrismSessionRecording<TodoState, TodoAction>(
                initialState: TodoState(count: 5),
                entries: [
                    .init(offset: 0.5, action: .increment),
                    .init(offset: 1.0, action: .wait(seconds: 3_600)),
                    .init(offset: 1.5, action: .add("loaded")),
                ]
            )
            let page = try await openPage(inspector, past: "actions")
            let batch = try await page.load(recording, fileName: "bug.json")
            #expect(
                batch.entries.map { $0["name"] as? String }.first == #"(loaded "bug.json": 3 actions, effects not run)"#
            )
            #expect(batch.entries.map { $0["name"] as? String }.dropFirst() == ["increment", "wait", "add"])
            #expect(store.state == TodoState(count: 6, items: ["loaded"]))
            // The `.wait` effect did not start.
            inspector.flush()
            #expect(inspector.effects.isEmpty)
            // Time travel works through the loaded states.
            let index = try #require(batch.entries[1]["index"] as? Int)
            try await page.send(["type": "jump", "index": index])
            _ = try await page.next("jumped")
            #expect(store.state == TodoState(count: 6))
            await page.close()
        }
    }

    @Test("a file that is not a recording of this store is refused with a message, and nothing changes")
    func loadRefusesOtherFiles() async throws {
        try await withTodoPage(sending: [.increment]) { store, inspector, page in
            try await page.send(["type": "load", "fileName": "x.json", "data": ["format": "something-else"]])
            let error = try await page.next("error")
            #expect((error["message"] as? String)?.contains("not a session recording") == true)
            #expect(store.state.count == 1)
            #expect(inspector.debugger.snapshots.count == 2)
        }
    }

    @Test("an action typed as JSON is sent to the store; JSON that is not an action is refused")
    func sendAction() async throws {
        try await withTodoPage { store, _, page in
            try await page.send(["type": "send", "action": ["add": ["_0": "typed"]]])
            _ = try await page.next("notice")
            #expect(store.state.items == ["typed"])
            try await page.send(["type": "send", "action": ["fly": [:] as [String: String]]])
            _ = try await page.next("error")
            try await page.send(["type": "send", "action": "increment"])
            _ = try await page.next("error")
            #expect(store.state.items == ["typed"] && store.state.count == 0)
        }
    }

    @Test("a store whose types are not Codable is shown, but the page cannot send, export or load")
    func plainTypes() async throws {
        let store = makePlainStore()
        let inspector = try await PrismInspector.start(store, configuration: .init(printsURL: false))
        store.send(.bump)
        let page = try await openPage(inspector)
        let hello = try await page.next("hello")
        #expect(hello["canSendActions"] as? Bool == false)
        #expect(hello["canExport"] as? Bool == false)
        #expect(hello["canLoad"] as? Bool == false)
        let batch = try await page.next("actions")
        #expect(batch.entries.map { $0["name"] as? String } == ["(inspector attached)", "bump"])
        try await page.send(["type": "export"])
        _ = try await page.next("error")
        await page.close()
        await inspector.stop()
    }
}
