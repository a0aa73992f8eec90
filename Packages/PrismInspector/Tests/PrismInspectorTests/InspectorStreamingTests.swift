import Foundation
import PrismStore
import Testing

@testable import PrismInspector

@MainActor
@Suite("The page's WebSocket: actions, states and what they changed")
struct InspectorStreamingTests {
    @Test("a page gets a hello, then every action recorded so far, after the note that the inspector attached")
    func helloAndHistory() async throws {
        try await withTodoInspector { store, inspector in
            store.send(.increment)
            store.send(.add("milk"))
            let page = try await openPage(inspector)
            let hello = try await page.next("hello")
            #expect(hello["stateType"] as? String == "TodoState")
            #expect(hello["canSendActions"] as? Bool == true)
            #expect(hello["canExport"] as? Bool == true)
            #expect(hello["canLoad"] as? Bool == true)
            let batch = try await page.next("actions")
            #expect(batch["reset"] as? Bool == true)
            #expect(batch.entries.map { $0["index"] as? Int } == [0, 1, 2])
            #expect(batch.entries.map { $0["marker"] as? Bool } == [true, false, false])
            #expect(batch.entries.map { $0["name"] as? String } == ["(inspector attached)", "increment", "add"])
            #expect(batch.entries.map { $0["summary"] as? String }.last == #".add("milk")"#)
            await page.close()
        }
    }

    @Test("actions sent while a page is open come in the next batch, with how long their reduce took")
    func liveBatches() async throws {
        try await withTodoPage { store, inspector, page in
            let batch = try await page.batch(afterIncrements: 3, to: store, inspector)
            #expect(batch["reset"] as? Bool == false)
            #expect(batch.entries.map { $0["index"] as? Int } == [1, 2, 3])
            #expect(batch.entries.allSatisfy { ($0["duration"] as? Int ?? -1) >= 0 })
            #expect(batch["dropped"] as? Int == 0)
        }
    }

    @Test("the inspector batches: 10,000 actions between two batches reach the page in one message")
    func manyActionsOneBatch() async throws {
        try await withTodoPage(historyLimit: 20_000) { store, inspector, page in
            let batch = try await page.batch(afterIncrements: 10_000, to: store, inspector)
            #expect(batch.entries.count == 10_000)
            #expect(batch.entries.last?["index"] as? Int == 10_000)
        }
    }

    @Test("a page that misses actions the history evicted is told how many it will never see")
    func droppedActionsAreCounted() async throws {
        try await withTodoPage(historyLimit: 10) { store, inspector, page in
            let batch = try await page.batch(afterIncrements: 25, to: store, inspector)
            #expect(batch.entries.map { $0["index"] as? Int } == Array(16...25))
            #expect(batch["dropped"] as? Int == 15)
        }
    }

    @Test("selecting an action gives the state after it as a tree and what it changed")
    func selectShowsStateAndDiff() async throws {
        try await withTodoInspector { store, inspector in
            store.send(.add("milk"))
            let line = #line + 1
            store.send(.add("eggs"))
            let page = try await openPage(inspector, past: "actions")
            try await page.send(["type": "select", "index": 2])
            let state = try await page.next("state")
            #expect(state["index"] as? Int == 2)
            #expect(state["hasPrevious"] as? Bool == true)
            let diff = try #require(state["diff"] as? [[String: Any]])
            #expect(diff.count == 1)
            #expect(diff.first?["path"] as? String == "items[1]")
            #expect(diff.first?["new"] as? String == #""eggs""#)
            #expect(diff.first?["old"] == nil)
            let tree = try #require(state["state"] as? [String: Any])
            let children = try #require(tree["c"] as? [[String: Any]])
            #expect(children.map { $0["l"] as? String } == ["count", "items", "account"])
            let action = try #require(state["action"] as? [String: Any])
            #expect(action["v"] as? String == ".add")
            #expect(state["actionJSON"] as? String == #"{"add":{"_0":"eggs"}}"#)
            // Where it was sent from (the trace).
            #expect(state["sentFrom"] as? String == "\(#fileID):\(line) in selectShowsStateAndDiff()")
            await page.close()
        }
    }

    @Test("the effects an action started are listed while they run, and leave the list when they end")
    func effectsInFlight() async throws {
        try await withTodoPage { store, inspector, page in
            store.send(.increment)
            let task = store.send(.wait(seconds: 3_600))
            inspector.flush()
            let running = try await page.next("effects") { !(($0["running"] as? [Any]) ?? []).isEmpty }
            let effects = try #require(running["running"] as? [[String: Any]])
            #expect(effects.map { $0["index"] as? Int } == [2])
            #expect(effects.map { $0["name"] as? String } == ["wait"])
            store.send(.finishWaiting)
            await task.finish()
            inspector.flush()
            _ = try await page.next("effects") { (($0["running"] as? [Any]) ?? ["x"]).isEmpty }
        }
    }
}
