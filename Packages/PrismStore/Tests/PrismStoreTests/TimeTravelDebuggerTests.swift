import Foundation
import Observation
import Testing

@testable import PrismStore

@MainActor
@Suite("Time-travel debugger")
struct TimeTravelDebuggerTests {
    @Test("snapshots record state, action, order and time")
    func recordsSnapshots() throws {
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        let before = Date()
        for value in 0..<3 { debugger.record(state: value, action: "set(\(value))") }
        #expect(debugger.snapshots.map(\.state) == [0, 1, 2])
        #expect(debugger.snapshots.map(\.index) == [0, 1, 2])
        #expect(debugger.snapshots.map(\.action) == ["set(0)", "set(1)", "set(2)"])
        #expect(try #require(debugger.snapshots.first).timestamp >= before)
        #expect(debugger.currentIndex == 2)
        #expect(!debugger.canGoForward)
    }

    @Test("goBack and goForward move through history and stop at its ends")
    func navigation() {
        let debugger = PrismTimeTravelDebugger<String>(maxSnapshots: 10)
        for state in ["a", "b", "c"] { debugger.record(state: state, action: state) }
        #expect(debugger.goBack().state == "b")
        #expect(debugger.goBack().state == "a")
        #expect(!debugger.canGoBack)
        #expect(debugger.goBack().state == "a")
        #expect(debugger.canGoForward)
        #expect(debugger.goForward().state == "b")
        #expect(debugger.goTo(index: 2)?.state == "c")
        #expect(debugger.goTo(index: 9) == nil)
        #expect(debugger.currentIndex == 2)
    }

    @Test("recording after a jump drops the forward history")
    func recordingDropsForwardHistory() {
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        for value in 0..<5 { debugger.record(state: value, action: "\(value)") }
        debugger.goTo(index: 1)
        debugger.record(state: 100, action: "branch")
        #expect(debugger.snapshots.map(\.state) == [0, 1, 100])
        #expect(!debugger.canGoForward)
    }

    @Test("a snapshot recorded after going back keeps a new number and goTo finds it")
    func goToAfterBranching() throws {
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        for value in 0..<5 { debugger.record(state: value, action: "\(value)") }
        debugger.goTo(index: 1)
        debugger.record(state: 100, action: "branch")
        debugger.record(state: 101, action: "branch again")
        #expect(debugger.snapshots.map(\.index) == [0, 1, 5, 6])
        #expect(debugger.goTo(index: 5)?.state == 100)
        #expect(debugger.goTo(index: 6)?.state == 101)
        #expect(debugger.goTo(index: 3) == nil)
        #expect(try #require(debugger.goTo(index: 0)).state == 0)
    }

    @Test("an observer that read the debugger hears about every change after it reads again")
    func observerHearsAfterUnobservedRecordings() {
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        // Recordings nobody looks at yet.
        for value in 0..<3 { debugger.record(state: value, action: "\(value)") }
        let observer = ObservationCounter { _ = debugger.currentIndex }
        debugger.record(state: 3, action: "3")
        debugger.goTo(index: 1)
        debugger.clear()
        #expect(observer.count == 3)
    }

    @Test("the oldest snapshots are evicted past maxSnapshots, indexes stay stable")
    func eviction() {
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 3)
        for value in 0..<10 { debugger.record(state: value, action: "\(value)") }
        #expect(debugger.snapshots.map(\.state) == [7, 8, 9])
        #expect(debugger.snapshots.map(\.index) == [7, 8, 9])
        #expect(debugger.goTo(index: 2) == nil)
        #expect(debugger.goTo(index: 8)?.state == 8)
    }

    @Test("the middleware records every action with the state after it")
    func middlewareRecords() {
        let debugger = PrismTimeTravelDebugger<Counter>(maxSnapshots: 100)
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature(), middleware: debugger.middleware())
        store.send(.increment)
        store.send(.set(5))
        #expect(debugger.snapshots.map(\.state.count) == [1, 5])
        #expect(debugger.snapshots.map(\.action) == ["increment", "set(5)"])
        // Jumping back restores the store without recording.
        store.replaceState(with: debugger.goBack().state)
        #expect(store.state.count == 1)
        #expect(debugger.snapshots.count == 2)
    }

    @Test("observers of the debugger hear about recordings and jumps")
    func observable() {
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        let observer = ObservationCounter { _ = debugger.snapshots }
        debugger.record(state: 1, action: "1")
        debugger.record(state: 2, action: "2")
        debugger.goBack()
        #expect(observer.count == 3)
    }

    @Test("the seed's time-travel example restores earlier states")
    func seedExample() {
        typealias AppState = Counter
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let debugger = PrismTimeTravelDebugger<AppState>(maxSnapshots: 100)
        for action in [CounterAction.increment, .increment, .set(10)] {
            store.send(action)
            // Record a snapshot after each action
            debugger.record(state: store.state, action: "\(action)")
        }

        // Navigate through history
        if debugger.canGoBack {
            let snapshot = debugger.goBack()
            store.replaceState(with: snapshot.state)
        }
        #expect(store.state.count == 2)

        if debugger.canGoForward {
            let snapshot = debugger.goForward()
            store.replaceState(with: snapshot.state)
        }
        #expect(store.state.count == 10)

        var lines: [String] = []
        for snapshot in debugger.snapshots {
            lines.append("[\(snapshot.index)] \(snapshot.action) at \(snapshot.timestamp)")
        }
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("[0] increment at "))

        // Jump to a specific point in history
        let snapshot = debugger.goTo(index: 0)
        #expect(snapshot?.state.count == 1)
    }
}

@MainActor
@Suite("Undo and redo")
struct UndoRedoStackTests {
    @Test("undo returns the pushed state and redo returns the state undone from")
    func undoRedo() {
        let history = PrismUndoRedoStack<Int>(maxStackSize: 10)
        var current = 0
        for next in 1...3 {
            history.push(current)
            current = next
        }
        #expect(history.canUndo)
        #expect(!history.canRedo)
        current = history.undo(current: current)!
        #expect(current == 2)
        current = history.undo(current: current)!
        #expect(current == 1)
        #expect(history.redoCount == 2)
        current = history.redo(current: current)!
        #expect(current == 2)
        current = history.redo(current: current)!
        #expect(current == 3)
        #expect(history.redo(current: current) == nil)
    }

    @Test("pushing clears the redo stack")
    func pushClearsRedo() {
        let history = PrismUndoRedoStack<String>(maxStackSize: 10)
        history.push("a")
        _ = history.undo(current: "b")
        #expect(history.canRedo)
        history.push("c")
        #expect(!history.canRedo)
    }

    @Test("both stacks are bounded by maxStackSize, dropping the oldest")
    func bounded() {
        let history = PrismUndoRedoStack<Int>(maxStackSize: 3)
        for value in 0..<10 { history.push(value) }
        #expect(history.undoCount == 3)
        var states: [Int] = []
        var current = 10
        while let previous = history.undo(current: current) {
            states.append(previous)
            current = previous
        }
        #expect(states == [9, 8, 7])
        #expect(history.redoCount == 3)
    }

    @Test("with a state source, bare undo and redo work against a store (the seed's flow)")
    func seedFlowWithSource() {
        typealias AppState = Counter
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let undoRedo = PrismUndoRedoStack<AppState>(maxStackSize: 50, currentState: { store.state })

        // Before mutating state, push the current state
        undoRedo.push(store.state)
        store.send(.set(7))

        // Undo
        if undoRedo.canUndo, let previous = undoRedo.undo() {
            store.replaceState(with: previous)
        }
        #expect(store.state.count == 0)

        // Redo
        if undoRedo.canRedo, let next = undoRedo.redo() {
            store.replaceState(with: next)
        }
        #expect(store.state.count == 7)
    }

    @Test("the seed's snippet, without a source, still undoes (redo needs the state undone from)")
    func seedSnippetAsWritten() {
        typealias AppState = Counter
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let undoRedo = PrismUndoRedoStack<AppState>(maxStackSize: 50)
        undoRedo.push(store.state)
        store.send(.set(3))
        if undoRedo.canUndo, let previous = undoRedo.undo() {
            store.replaceState(with: previous)
        }
        #expect(store.state.count == 0)
        if undoRedo.canRedo, let next = undoRedo.redo() {
            store.replaceState(with: next)
        }
        #expect(!undoRedo.canRedo)
    }
}
