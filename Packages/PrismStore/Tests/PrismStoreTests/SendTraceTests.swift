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
            }
        }
    }

    func sites(_ debugger: PrismTimeTravelDebugger<Int>) -> [String] {
        debugger.snapshots.map { $0._callSite(as: Action.self).map { "\($0.fileID):\($0.line)" } ?? "-" }
    }

    @Test("a send notes its file, line and function; an effect's action notes where the effect was made")
    func sendAndEffectSites() async throws {
        let store = PrismStore(initialState: 0, reducer: Feature())
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        store._attach(recordingInto: debugger, tap: nil)
        let sendLine: UInt = #line + 1
        await store.send(.start).finish()
        store._moveRecording()
        #expect(sites(debugger) == ["\(#fileID):\(sendLine)", "\(#fileID):\(Feature.effectLine)"])
        let function = try #require(debugger.snapshots.first?._callSite(as: Action.self)).function
        #expect("\(function)" == "sendAndEffectSites()")
    }

    @Test("a scoped store's send notes its own call site")
    func scopedSends() {
        let store = PrismStore(initialState: 0, reducer: Feature())
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        store._attach(recordingInto: debugger, tap: nil)
        let child = store.scope(state: { $0 }, action: Action.child)
        let line: UInt = #line + 1
        child.send(5)
        store._moveRecording()
        #expect(sites(debugger) == ["\(#fileID):\(line)"])
    }

    @Test("nothing is noted while no tool is attached, and a detached store stops noting")
    func onlyWhileAttached() {
        let store = PrismStore(initialState: 0, reducer: Feature())
        store.send(.child(1))
        #expect(store.trace.site == nil && !store.trace.isOn)
        let debugger = PrismTimeTravelDebugger<Int>(maxSnapshots: 10)
        store._attach(recordingInto: debugger, tap: nil)
        #expect(store.trace.isOn)
        store._attach(recordingInto: nil, tap: nil)
        store.send(.child(1))
        #expect(store.trace.site == nil && !store.trace.isOn)
    }
}
