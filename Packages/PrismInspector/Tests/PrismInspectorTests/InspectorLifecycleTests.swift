import Foundation
@_spi(PrismInternals) import PrismStore
import Testing

@testable import PrismInspector

@MainActor
@Suite("Starting and stopping an inspector")
struct InspectorLifecycleTests {
    @Test("stopping closes the pages, stops serving and detaches: the store records nothing more")
    func stopDetaches() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let inspector = try await startInspector(store)
        let page = try await openPage(inspector, past: "actions")
        store.send(.increment)
        await inspector.stop()
        store.send(.increment)
        #expect(inspector.debugger.snapshots.count == 2)
        #expect(inspector.connectedPages == 0)
        await #expect(throws: (any Error).self) {
            _ = try await httpRequest(port: inspector.port, path: inspector.pagePath)
        }
        await page.close()
    }

    @Test("a port that is taken is a clear error")
    func portTaken() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        try await withInspector(store) { first in
            let other = PrismStore(initialState: TodoState(), reducer: TodoReducer())
            let error = await #expect(throws: PrismInspectorError.self) {
                _ = try await PrismInspector.start(other, configuration: .init(port: first.port, printsURL: false))
            }
            #expect(error?.code == .cannotListen)
        }
    }

    @Test("each inspector has its own token, and the URL carries it")
    func tokens() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        try await withInspector(store) { first in
            try await withInspector(PrismStore(initialState: TodoState(), reducer: TodoReducer())) { second in
                let tokens = [first, second].map { String($0.pagePath.dropFirst().dropLast()) }
                #expect(tokens[0] != tokens[1])
                #expect(tokens.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
            }
        }
    }

    @Test("a second inspector on a store is refused with a typed error, and the first keeps recording")
    func secondInspectorRefused() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        try await withInspector(store) { first in
            let error = await #expect(throws: PrismInspectorError.self) {
                _ = try await startInspector(store)
            }
            #expect(error?.code == .storeAlreadyInspected)
            #expect(error?.message.contains("stop()") == true)
            store.send(.increment)
            #expect(first.debugger.snapshots.count == 2, "the attachment marker and the action")
        }
        // Once the first has stopped, another may start; stopping the first again does not
        // detach it.
        let first = try await startInspector(store)
        await first.stop()
        try await withInspector(store) { second in
            await first.stop()
            store.send(.increment)
            #expect(second.debugger.snapshots.count == 2)
            #expect(store.tools.isRecording)
        }
        #expect(!store.tools.isRecording)
    }

    @Test("an inspector released without stop() detaches: the store stops recording")
    func releaseDetaches() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        var inspector: PrismInspector<TodoState, TodoAction>? = try await startInspector(store)
        weak let released = inspector
        #expect(store.tools.isRecording)
        inspector = nil
        #expect(released == nil)
        var turns = 0
        while store.tools.isRecording && turns < 1_000 {
            await Task.yield()
            turns += 1
        }
        #expect(!store.tools.isRecording)
        // And a new inspector may attach.
        try await withInspector(store) { _ in
            #expect(store.tools.isRecording)
        }
    }

    @Test("an inspector released without stop() ends the tasks that waited for its pages and stores")
    func releaseEndsTasks() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        var inspector: PrismInspector<TodoState, TodoAction>? = try await startInspector(store)
        let tasks = [inspector?.pageTask, inspector?.storesTask].compactMap { $0 }
        #expect(tasks.count == 2)
        inspector = nil
        // A task left waiting on a stream nobody finishes waits forever, holding what it holds.
        final class Flag { var isSet = false }
        let ended = Flag()
        Task {
            for task in tasks { await task.value }
            ended.isSet = true
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while !ended.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(ended.isSet)
    }
}
