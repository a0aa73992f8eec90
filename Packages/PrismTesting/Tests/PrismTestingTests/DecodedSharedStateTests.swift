import Foundation
import PrismStore
import PrismTesting
import Testing

/// A test that starts from a decoded state and expects decoded states (as a test PrismInspector
/// writes does): the first state's shared values are the store's, the expected ones hold theirs
/// as written, and a wrong one fails with the difference it found.
@MainActor
@Suite("Tests of decoded states with shared values")
struct DecodedSharedStateTests {
    struct Settings: Equatable, Codable, Sendable {
        var theme = "light"
    }

    struct EditorState: Equatable, Codable, Sendable {
        @PrismShared(.inMemory("settings")) var settings = Settings()
    }

    struct AppState: Equatable, Codable, Sendable {
        var editor = EditorState()
        var preview = EditorState()
        var toggles = 0
    }

    enum AppAction: Equatable, Codable, Sendable {
        case toggle
    }

    struct AppFeature: PrismReducer {
        func reduce(into state: inout AppState, action: AppAction) -> PrismEffect<AppAction> {
            state.editor.settings.theme = state.editor.settings.theme == "dark" ? "light" : "dark"
            state.toggles += 1
            return .none
        }
    }

    /// The states of a session: before, then after one toggle and after another.
    func recordedStates() throws -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let recorded = withDependencies {
            $0.prismSharedStorage = PrismSharedStorage()
        } operation: {
            AppState()
        }
        var states = [String(decoding: try encoder.encode(recorded), as: UTF8.self)]
        for theme in ["dark", "light"] {
            recorded.editor.settings.theme = theme
            var next = recorded
            next.toggles += 1
            states.append(String(decoding: try encoder.encode(next), as: UTF8.self))
        }
        return states
    }

    func decode(_ json: [String]) throws -> [AppState] {
        let first = JSONDecoder()
        first.userInfo[.prismSharedDecoding] = PrismSharedDecoding.restoring
        let expected = JSONDecoder()
        expected.userInfo[.prismSharedDecoding] = PrismSharedDecoding.asWritten
        return try json.enumerated().map { index, json in
            try (index == 0 ? first : expected).decode(AppState.self, from: Data(json.utf8))
        }
    }

    @Test("decoded expected states assert the shared values each step left, both features seeing one value")
    func replays() async throws {
        var json = try recordedStates()
        json[1] = json[1].replacingOccurrences(of: #""toggles":0"#, with: #""toggles":1"#)
        json[2] = json[2].replacingOccurrences(of: #""toggles":1"#, with: #""toggles":2"#)
        let states = try decode(json)
        let store = PrismTestStore(initialState: states[0], reducer: AppFeature())
        store.exhaustivity = .on
        await store.send(.toggle) { $0 = states[1] }
        #expect(store.state.preview.settings.theme == "dark", "the two features hold one value")
        await store.send(.toggle) { $0 = states[2] }
        await store.finish()
    }

    @Test("a decoded expected state whose shared value is wrong fails, showing the difference found")
    func wrongSharedValue() async throws {
        let json = try recordedStates()
        let states = try decode(json)
        // The step expects the shared value unchanged ("light"): the action made it "dark".
        let wrong = try decode([json[0], json[0].replacingOccurrences(of: #""toggles":0"#, with: #""toggles":1"#)])[1]
        let store = PrismTestStore(initialState: states[0], reducer: AppFeature())
        store.exhaustivity = .on
        await withKnownIssue {
            await store.send(.toggle) { $0 = wrong }
        } matching: { issue in
            issue.mentions("Shared value 'inMemory:settings'", "light", "dark")
                && !issue.mentions("no difference detected")
        }
    }
}
