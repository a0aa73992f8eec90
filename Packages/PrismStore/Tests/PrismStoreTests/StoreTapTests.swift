import Foundation
import Testing

@_spi(PrismInternals) @testable import PrismStore

/// What a tap heard, in order.
@MainActor
final class TapLog {
    var replaced: [Int] = []
    var effects: [PrismEffectTask] = []

    func listener() -> (PrismStoreTools<Counter, CounterAction>.Event) -> Void {
        { [unowned self] event in
            switch event {
            case .stateReplaced(let state, _): replaced.append(state.count)
            case .effectsStarted(let task): effects.append(task)
            }
        }
    }
}

@MainActor
@Suite("Recording a store for a tool that watches it (what PrismInspector attaches)")
struct StoreTapTests {
    /// A store of a `Counter` that records into a new debugger of ten snapshots, and tells
    /// `listener` (if any) what else it does; and the debugger.
    static func recordingStore(
        listener: ((PrismStoreTools<Counter, CounterAction>.Event) -> Void)? = nil
    ) -> (PrismStore<Counter, CounterAction>, PrismTimeTravelDebugger<Counter>) {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let debugger = PrismTimeTravelDebugger<Counter>(maxSnapshots: 10)
        store.tools.attach(recordingInto: debugger, listener: listener)
        return (store, debugger)
    }

    @Test("every reduced action is recorded with the state after it, immediate effects included")
    func recordsEveryReduce() {
        let (store, debugger) = Self.recordingStore()
        store.send(.increment)
        store.send(.many([.increment, .set(10)]))
        #expect(debugger.snapshots.isEmpty)
        #expect(store.tools.moveRecording() == 0)
        let actions = debugger.snapshots.map { store.tools.history(debugger).action(of: $0) }
        #expect(actions == [.increment, .many([.increment, .set(10)]), .increment, .set(10)])
        #expect(debugger.snapshots.map(\.state.count) == [1, 1, 2, 10])
        #expect(debugger.snapshots.map(\.action)[2...] == ["increment", "set(10)"])
        #expect(store.state.count == 10)
    }

    @Test("snapshots carry the time they were recorded, to the clock's few milliseconds")
    func recordsTime() throws {
        let (store, debugger) = Self.recordingStore()
        let before = Date.now
        store.send(.increment)
        let after = Date.now
        store.tools.moveRecording()
        let time = try #require(debugger.snapshots.first).timestamp
        #expect(time >= before.addingTimeInterval(-0.05) && time <= after.addingTimeInterval(0.05))
    }

    @Test("durations are recorded only while asked for")
    func durationsOnRequest() {
        let (store, debugger) = Self.recordingStore()
        store.send(.increment)
        store.tools.measuresReduceDuration = true
        store.send(.increment)
        store.tools.moveRecording()
        #expect(
            debugger.snapshots.map { store.tools.history(debugger).reduceNanoseconds(of: $0) >= 0 } == [false, true])
    }

    @Test("while paused nothing is recorded and the sends are counted")
    func pause() {
        let (store, debugger) = Self.recordingStore()
        store.send(.increment)
        store.tools.isRecording = false
        store.send(.increment)
        store.send(.increment)
        #expect(store.tools.actionsNotRecorded == 2)
        store.tools.isRecording = true
        #expect(store.tools.takeActionsNotRecorded() == 2)
        #expect(store.tools.actionsNotRecorded == 0)
        store.send(.set(7))
        store.tools.moveRecording()
        #expect(debugger.snapshots.map(\.state.count) == [1, 7])
    }

    @Test("sends are recorded while the whole state and a member are observed, and observers still hear")
    func observedSends() {
        let (store, debugger) = Self.recordingStore()
        let whole = ObservationCounter { _ = store.state }
        let member = ObservationCounter { _ = store.count }
        store.send(.increment)
        store.send(.note("x"))
        store.tools.moveRecording()
        #expect(debugger.snapshots.map(\.state.count) == [1, 1])
        #expect(whole.count == 2)
        #expect(member.count == 1)
    }

    @Test("replacing the state is reported, from the root and through a scoped store, and not recorded")
    func replacementsReported() {
        let log = TapLog()
        let (store, debugger) = Self.recordingStore(listener: log.listener())
        store.replaceState(with: Counter(count: 7))
        let scoped: PrismStore<Int, CounterAction> = store.scope(state: \.count, action: { $0 })
        scoped.replaceState(with: 9)
        store.tools.moveRecording()
        #expect(log.replaced == [7, 9])
        #expect(debugger.snapshots.isEmpty)
    }

    @Test("a send that starts an asynchronous effect reports the task that covers it")
    func effectsReported() async {
        let log = TapLog()
        let (store, debugger) = Self.recordingStore(listener: log.listener())
        store.send(.increment)
        let task = store.send(.sendLater(.increment))
        #expect(log.effects == [task])
        await task.finish()
        #expect(log.effects.allSatisfy { $0.isFinished })
        #expect(store.state.count == 2)
        store.tools.moveRecording()
        let actions = debugger.snapshots.map { store.tools.history(debugger).action(of: $0) }
        #expect(actions == [.increment, .sendLater(.increment), .increment])
    }

    @Test("after detaching nothing more is recorded or reported")
    func detach() {
        let log = TapLog()
        let (store, debugger) = Self.recordingStore(listener: log.listener())
        store.send(.increment)
        store.tools.attach(recordingInto: nil, listener: nil)
        store.send(.increment)
        store.replaceState(with: Counter())
        store.tools.moveRecording()
        #expect(debugger.snapshots.isEmpty)
        #expect(log.replaced.isEmpty)
    }

    @Test("a log that wrapped around moves its newest entries and says how many it lost")
    func overflow() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let debugger = PrismTimeTravelDebugger<Counter>(maxSnapshots: 3)
        store.tools.attach(recordingInto: debugger, listener: nil)
        store.send(.set(1))
        #expect(store.tools.moveRecording() == 0)
        for value in 2...7 { store.send(.set(value)) }
        #expect(store.tools.moveRecording() == 3)
        #expect(debugger.snapshots.map(\.state.count) == [5, 6, 7])
        // Numbers still count actions: the 7th action is snapshot 6.
        #expect(debugger.snapshots.map(\.index) == [4, 5, 6])
        store.send(.set(8))
        #expect(store.tools.moveRecording() == 0)
        #expect(debugger.snapshots.map(\.state.count) == [6, 7, 8])
    }

    @Test("a store with a large logged state releases it when it goes away")
    func releasesLog() {
        weak var weakBox: Box?
        do {
            let box = Box()
            weakBox = box
            let store = PrismStore(initialState: Boxed(box: box), reducer: PrismReduce<Boxed, Int> { _, _ in .none })
            let debugger = PrismTimeTravelDebugger<Boxed>(maxSnapshots: 4)
            store.tools.attach(recordingInto: debugger, listener: nil)
            store.send(1)
            store.send(2)
        }
        #expect(weakBox == nil)
    }

    @Test("one owner at a time: another's attach is refused, and only the owner detaches")
    func owners() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        let first = PrismTimeTravelDebugger<Counter>(maxSnapshots: 10)
        let second = PrismTimeTravelDebugger<Counter>(maxSnapshots: 10)
        let tap: (PrismStoreTools<Counter, CounterAction>.Event) -> Void = { _ in }
        #expect(store.tools.attach(owner: ObjectIdentifier(first), recordingInto: first, listener: tap))
        #expect(!store.tools.attach(owner: ObjectIdentifier(second), recordingInto: second, listener: tap))
        store.tools.detach(owner: ObjectIdentifier(second))
        store.send(.increment)
        store.tools.moveRecording()
        #expect(first.snapshots.count == 1)
        #expect(second.snapshots.isEmpty)
        #expect(store.tools.attachedOwner == ObjectIdentifier(first))
        store.tools.detach(owner: ObjectIdentifier(first))
        #expect(store.tools.attachedOwner == nil)
        #expect(!store.tools.isRecording)
        #expect(store.tools.attach(owner: ObjectIdentifier(second), recordingInto: second, listener: tap))
        store.tools.detach(owner: ObjectIdentifier(second))
    }

    @Test("the root's reducer computes states without touching the store")
    func reducerAccess() {
        let store = PrismStore(initialState: Counter(), reducer: CounterFeature())
        var state = Counter(count: 3)
        _ = store.tools.reducer(&state, .increment)
        #expect(state.count == 4)
        #expect(store.state.count == 0)
        #expect(store.tools.isRoot)
        #expect(!store.scope(state: \.count, action: { (action: CounterAction) in action }).tools.isRoot)
    }
}

final class Box: Sendable {}

struct Boxed: Sendable {
    var box: Box
}
