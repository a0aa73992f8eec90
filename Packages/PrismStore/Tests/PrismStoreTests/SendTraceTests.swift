import Foundation
import Testing

@_spi(PrismInternals) @testable import PrismStore

/// Where each recorded action came from: the `send` call, or the effect that sent it.
@MainActor
@Suite("Tracing where actions are sent from")
struct SendTraceTests {
    enum Action: Equatable, Sendable {
        case start
        case fromEffect
        case child(Int)
        case sendsNow
    }

    struct Feature: PrismReducer {
        static let effectLine: UInt = #line + 5
        func reduce(into state: inout Int, action: Action) -> PrismEffect<Action> {
            switch action {
            case .start:
                state += 1
                return .run { send in send(.fromEffect) }
            case .fromEffect:
                state += 10
                return .none
            case .child(let amount):
                state += amount
                return .none
            case .sendsNow:
                return .send(.child(100))
            }
        }
    }

    func sites(_ debugger: PrismTimeTravelDebugger<Int>) -> [String] {
        debugger.snapshots.map {
            PrismStoreTools<Int, Action>.History(debugger).callSite(of: $0).map { "\($0.fileID):\($0.line)" } ?? "-"
        }
    }

    @Test("a send notes its file, line and function; an effect's action notes where the effect was made")
    func sendAndEffectSites() async throws {
        let store = PrismStore(initialState: 0, reducer: Feature())
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        store.tools.attach(recordingInto: debugger, listener: nil)
        let sendLine: UInt = #line + 1
        await store.send(.start).finish()
        store.tools.moveRecording()
        #expect(sites(debugger) == ["\(#fileID):\(sendLine)", "\(#fileID):\(Feature.effectLine)"])
        let function = try #require(
            debugger.snapshots.first.flatMap { PrismStoreTools<Int, Action>.History(debugger).callSite(of: $0) }
        ).function
        #expect("\(function)" == "sendAndEffectSites()")
    }

    @Test("a scoped store's send notes its own call site")
    func scopedSends() {
        let store = PrismStore(initialState: 0, reducer: Feature())
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        store.tools.attach(recordingInto: debugger, listener: nil)
        let child = store.scope(state: { $0 }, action: Action.child)
        let line: UInt = #line + 1
        child.send(5)
        store.tools.moveRecording()
        #expect(sites(debugger) == ["\(#fileID):\(line)"])
    }

    @Test("nothing is noted while no tool is attached, and a detached store stops noting")
    func onlyWhileAttached() {
        let store = PrismStore(initialState: 0, reducer: Feature())
        store.send(.child(1))
        #expect(store.trace.origin.site == nil && !store.trace.isOn)
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        store.tools.attach(recordingInto: debugger, listener: nil)
        #expect(store.trace.isOn)
        store.tools.attach(recordingInto: nil, listener: nil)
        store.send(.child(1))
        #expect(store.trace.origin.site == nil && !store.trace.isOn)
    }

    @Test("each recorded action says whether an effect sent it (.run's send, .send) or a send did")
    func byEffect() async throws {
        let store = PrismStore(initialState: 0, reducer: Feature())
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        store.tools.attach(recordingInto: debugger, listener: nil)
        await store.send(.start).finish()
        store.send(.sendsNow)
        store.send(.child(1))
        store.tools.moveRecording()
        let origins = debugger.snapshots.map {
            (
                PrismStoreTools<Int, Action>.History(debugger).action(of: $0),
                PrismStoreTools<Int, Action>.History(debugger).isSentByEffect($0)
            )
        }
        #expect(origins.map(\.0) == [.start, .fromEffect, .sendsNow, .child(100), .child(1)])
        #expect(origins.map(\.1) == [false, true, false, true, false])
    }
}

/// A tool's lock: actions held, released in order or dropped.
@MainActor
@Suite("Locking a store for a tool")
struct StoreLockTests {
    typealias Feature = SendTraceTests.Feature
    typealias Action = SendTraceTests.Action

    func attached() -> (PrismStore<Int, Action>, PrismTimeTravelDebugger<Int>) {
        let store = PrismStore(initialState: 0, reducer: Feature())
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 200)
        store.tools.attach(recordingInto: debugger, listener: nil)
        return (store, debugger)
    }

    @Test("a locked store holds the app's, a scoped store's and effects' actions; unlocking reduces them in order")
    func holdsAndReleases() async throws {
        let (store, debugger) = attached()
        let running = store.send(.start)  // its effect's action arrives while locked
        store.tools.lock()
        store.send(.child(2))
        store.scope(state: { $0 }, action: Action.child).send(3)
        await running.finish()
        #expect(store.state == 1, "nothing after the lock was reduced")
        #expect(store.tools.heldActions == 3)
        #expect(store.tools.unlock(releasing: true) == 3)
        #expect(store.state == 1 + 2 + 3 + 10)
        #expect(!store.tools.isLocked && store.tools.heldActions == 0)
        store.tools.moveRecording()
        let actions = debugger.snapshots.compactMap { PrismStoreTools<Int, Action>.History(debugger).action(of: $0) }
        #expect(actions == [.start, .child(2), .child(3), .fromEffect])
        let effectFlags = debugger.snapshots.map { PrismStoreTools<Int, Action>.History(debugger).isSentByEffect($0) }
        #expect(effectFlags == [false, false, false, true], "a released action keeps where it came from")
    }

    @Test("dropping the held actions reduces none of them; the tool's own send passes the lock")
    func dropsAndPasses() {
        let (store, _) = attached()
        store.tools.lock()
        store.send(.child(1))
        store.tools.sendPastLock(.child(5))
        #expect(store.state == 5)
        store.send(.child(1))
        #expect(store.tools.unlock(releasing: false) == 2)
        #expect(store.state == 5)
        store.send(.child(1))
        #expect(store.state == 6, "unlocked")
    }

    @Test("detaching the tool releases what it held; a store without a tool cannot be locked")
    func detachReleases() {
        let (store, _) = attached()
        store.tools.lock()
        store.send(.child(7))
        store.tools.attach(recordingInto: nil, listener: nil)
        #expect(store.state == 7)
        store.tools.lock()
        store.send(.child(1))
        #expect(store.state == 8 && !store.tools.isLocked)
    }

    @Test("past 100,000 held actions the store unlocks itself and reduces every one, in order")
    func overflowUnlocks() {
        let (store, debugger) = attached()
        store.tools.lock()
        for _ in 0..<100_000 { store.send(.child(1)) }
        #expect(store.state == 0 && store.tools.heldActions == 100_000)
        store.send(.child(2))
        #expect(store.state == 100_002)
        #expect(!store.tools.isLocked && store.tools.takeUnlockedByOverflow())
        #expect(!store.tools.takeUnlockedByOverflow(), "told once")
        store.tools.moveRecording()
        #expect(
            debugger.snapshots.last.flatMap { PrismStoreTools<Int, Action>.History(debugger).action(of: $0) }
                == .child(2))
    }
}
