import Foundation
import Testing

@testable import PrismStore

@MainActor
@Suite("Session recording")
struct SessionRecordingTests {
    struct Todo: Codable, Equatable, Sendable {
        var items: [String] = []
        var done: Set<Int> = []
    }

    enum TodoAction: Codable, Equatable, Sendable {
        case add(String)
        case complete(Int)
        case addLater(String)
    }

    struct TodoReducer: PrismReducer {
        func reduce(into state: inout Todo, action: TodoAction) -> PrismEffect<TodoAction> {
            switch action {
            case .add(let item):
                state.items.append(item)
                return .none
            case .complete(let index):
                state.done.insert(index)
                return .none
            case .addLater(let item):
                return .run { send in send(.add(item)) }
            }
        }
    }

    func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("prism-session-\(UUID().uuidString).json")
    }

    @Test("a recorded session written to a file replays into a fresh store with the same states")
    func recordWriteReplay() async throws {
        let recorder = PrismSessionRecorder<Todo, TodoAction>(initialState: Todo())
        let store = PrismStore(initialState: Todo(), reducer: TodoReducer(), middleware: recorder.middleware())
        store.send(.add("milk"))
        await store.send(.addLater("eggs")).finish()
        store.send(.complete(1))
        let states = recorder.recording.states(reducer: TodoReducer())
        #expect(recorder.recording.actions == [.add("milk"), .addLater("eggs"), .add("eggs"), .complete(1)])

        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try recorder.recording.write(to: url)

        let loaded = try PrismSessionRecording<Todo, TodoAction>(contentsOf: url)
        let replayed = loaded.replay(reducer: TodoReducer())
        #expect(replayed.state == store.state)
        #expect(loaded.states(reducer: TodoReducer()) == states)
        // Effects are not run again: "eggs" is there once.
        #expect(replayed.state.items == ["milk", "eggs"])
        #expect(loaded.entries.map(\.offset) == loaded.entries.map(\.offset).sorted())
    }

    @Test("a file that is not a session recording is a clear error")
    func rejectsOtherFiles() throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(#"{"format": "something-else", "version": 1}"#.utf8).write(to: url)
        #expect(throws: DecodingError.self) { try PrismSessionRecording<Todo, TodoAction>(contentsOf: url) }
        try Data(#"{"format": "prism-session", "version": 99, "initialState": {}, "entries": []}"#.utf8).write(to: url)
        do {
            _ = try PrismSessionRecording<Todo, TodoAction>(contentsOf: url)
            Issue.record("a newer version must not load")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("newer"))
        }
    }
}
