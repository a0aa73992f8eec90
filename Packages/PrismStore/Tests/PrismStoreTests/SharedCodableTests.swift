import Foundation
import Testing

@_spi(PrismInternals) @testable import PrismStore

/// A state that holds shared values is `Codable` with the conformance Swift writes: encoding
/// writes each value with its key's id, decoding finds the key again in the storage in effect,
/// never changing a value other holders see, on whatever thread it runs.
@MainActor
@Suite("Shared values in Codable states")
struct SharedCodableTests {
    struct Settings: Equatable, Codable, Sendable {
        var theme = "light"
        var fontSize = 14
    }

    /// Two features that hold one key, in one state; one plain property; one value of its own.
    struct AppState: Equatable, Codable, Sendable {
        var editor = EditorState()
        var preview = PreviewState()
        var title = "notes"
    }

    struct EditorState: Equatable, Codable, Sendable {
        @PrismShared(.inMemory("settings")) var settings = Settings()
    }

    struct PreviewState: Equatable, Codable, Sendable {
        @PrismShared(.inMemory("settings")) var settings = Settings()
        @PrismShared var zoom: Double

        init(zoom: Double = 1) {
            _zoom = PrismShared(value: zoom)
        }
    }

    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func decode<T: Decodable>(
        _ type: T.Type, from text: String, _ decoding: PrismSharedDecoding? = nil
    ) throws -> T {
        let decoder = JSONDecoder()
        if let decoding { decoder.userInfo[.prismSharedDecoding] = decoding }
        return try decoder.decode(type, from: Data(text.utf8))
    }

    /// A state made in `storage` whose settings are dark, and its JSON with "sepia" written in
    /// their place.
    private func darkStateWrittenSepia(in storage: PrismSharedStorage) throws -> (AppState, String) {
        let live = withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            AppState()
        }
        live.editor.settings.theme = "dark"
        return (live, try json(live).replacingOccurrences(of: #""theme":"dark""#, with: #""theme":"sepia""#))
    }

    @Test("a keyed value encodes with its key's id, a value of its own as the value alone")
    func encoding() throws {
        let state = withDependencies {
            $0.prismSharedStorage = PrismSharedStorage()
        } operation: {
            AppState()
        }
        state.editor.settings.theme = "dark"
        #expect(
            try json(state)
                == #"{"editor":{"settings":{"prismSharedKey":"inMemory:settings","value":{"fontSize":14,"theme":"dark"}}},"#
                + #""preview":{"settings":{"prismSharedKey":"inMemory:settings","value":{"fontSize":14,"theme":"dark"}},"zoom":1},"title":"notes"}"#
        )
    }

    @Test("decoded where the key has a value, a state holds that value: what was written is not used, nothing changes")
    func decodingJoinsTheLiveValue() throws {
        let storage = PrismSharedStorage()
        let (live, written) = try darkStateWrittenSepia(in: storage)
        let decoded = try withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            try decode(AppState.self, from: written)
        }
        #expect(decoded.editor.$settings.isSameValue(as: live.editor.$settings))
        #expect(decoded.preview.$settings.isSameValue(as: live.editor.$settings))
        #expect(live.editor.settings.theme == "dark")
        // A change through the decoded state is the live value's.
        decoded.preview.settings.fontSize = 20
        #expect(live.editor.settings.fontSize == 20)
        // The value of its own comes back as a value of its own.
        #expect(decoded.preview.zoom == 1)
        #expect(decoded.preview.$zoom.keyID == nil)
    }

    @Test("decoding off the main actor never changes a shared value (PrismInspector decodes there)")
    func decodingOffTheMainActor() async throws {
        let storage = PrismSharedStorage()
        let (live, written) = try darkStateWrittenSepia(in: storage)
        let joined = try await Task.detached {
            try withDependencies {
                $0.prismSharedStorage = storage
            } operation: {
                try JSONDecoder().decode(AppState.self, from: Data(written.utf8)).editor.settings.theme
            }
        }.value
        #expect(joined == "dark")
        #expect(live.editor.settings.theme == "dark")
    }

    /// A feature whose shared value has no default: its holder is made by whoever makes the
    /// state (with a key), or by decoding.
    struct HandedState: Equatable, Codable, Sendable {
        @PrismShared var settings: Settings
    }

    @Test("decoded before any holder, the written value is the key's, and a holder made later holds it")
    func decodingFirst() throws {
        let storage = PrismSharedStorage()
        let written = #"{"settings":{"prismSharedKey":"inMemory:settings","value":{"fontSize":18,"theme":"dark"}}}"#
        let decoded = try withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            try decode(HandedState.self, from: written)
        }
        #expect(decoded.settings == Settings(theme: "dark", fontSize: 18))
        #expect(storage.keys == ["inMemory:settings"])
        // A holder made later with the key holds the decoded value, not its default.
        let later = withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            EditorState()
        }
        #expect(later.settings.theme == "dark")
        #expect(later.$settings.isSameValue(as: decoded.$settings))
    }

    @Test("a default makes the key's value before decoding; restoring sets it to the written one, for every holder")
    func restoring() throws {
        let written =
            #"{"editor":{"settings":{"prismSharedKey":"inMemory:settings","value":{"fontSize":18,"theme":"dark"}}},"#
            + #""preview":{"settings":{"prismSharedKey":"inMemory:settings","value":{"fontSize":18,"theme":"dark"}},"zoom":2},"#
            + #""title":"t"}"#
        let joined = try withDependencies {
            $0.prismSharedStorage = PrismSharedStorage()
        } operation: {
            try decode(AppState.self, from: written)
        }
        #expect(joined.editor.settings == Settings(), "the default came first")
        let storage = PrismSharedStorage()
        let restored = try withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            try decode(AppState.self, from: written, .restoring)
        }
        #expect(restored.editor.settings == Settings(theme: "dark", fontSize: 18))
        #expect(restored.preview.$settings.isSameValue(as: restored.editor.$settings))
        #expect(restored.preview.zoom == 2)
        let later = withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            EditorState()
        }
        #expect(later.settings.fontSize == 18)
    }

    @Test("restoring off the main actor is a typed error: it would change a value there")
    func restoringOffTheMainActor() async throws {
        let written = #"{"settings":{"prismSharedKey":"inMemory:settings","value":{"fontSize":1,"theme":"x"}}}"#
        let storage = PrismSharedStorage()
        let failed = await Task.detached {
            do {
                let decoder = JSONDecoder()
                decoder.userInfo[.prismSharedDecoding] = PrismSharedDecoding.restoring
                _ = try withDependencies {
                    $0.prismSharedStorage = storage
                } operation: {
                    try decoder.decode(EditorState.self, from: Data(written.utf8))
                }
                return ""
            } catch {
                return "\(error)"
            }
        }.value
        #expect(failed.contains("decode on the main actor"))
    }

    @Test("as written, each holder has a value of its own, the one written, and compares by value")
    func asWritten() throws {
        let storage = PrismSharedStorage()
        let live = withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            AppState()
        }
        let written = try json(live).replacingOccurrences(of: #""fontSize":14"#, with: #""fontSize":30"#)
        let expected = try decode(AppState.self, from: written, .asWritten)
        #expect(expected.editor.settings.fontSize == 30)
        #expect(!expected.editor.$settings.isSameValue(as: live.editor.$settings))
        #expect(expected.editor.$settings.keyID == "inMemory:settings")
        #expect(live.editor.settings.fontSize == 14)
        #expect(expected != live)
        live.editor.settings.fontSize = 30
        #expect(expected == live)
    }

    @Test("a key whose value in the storage is of another type is a typed error naming the key")
    func typeMismatch() throws {
        let storage = PrismSharedStorage()
        _ = withDependencies {
            $0.prismSharedStorage = storage
        } operation: {
            PrismShared(wrappedValue: 1, .inMemory("settings"))
        }
        let written = #"{"settings":{"prismSharedKey":"inMemory:settings","value":{"fontSize":1,"theme":"x"}}}"#
        let error = #expect(throws: DecodingError.self) {
            try withDependencies {
                $0.prismSharedStorage = storage
            } operation: {
                try decode(HandedState.self, from: written)
            }
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected a type mismatch, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription.contains("'inMemory:settings'"))
    }

    @Test("a value written alone (an older recording) decodes as a value of its own")
    func plainValue() throws {
        let decoded = try decode(EditorState.self, from: #"{"settings":{"fontSize":12,"theme":"dark"}}"#)
        #expect(decoded.settings == Settings(theme: "dark", fontSize: 12))
        #expect(decoded.$settings.keyID == nil)
    }

    @Test("while a tool journals, a state is encoded with its shared values as they were at a place in the journal")
    func journal() throws {
        PrismSharedTools.Journal.begin()
        defer { PrismSharedTools.Journal.end() }
        let state = withDependencies {
            $0.prismSharedStorage = PrismSharedStorage()
        } operation: {
            EditorState()
        }
        let start = PrismSharedTools.Journal.position
        state.settings.fontSize = 20
        let middle = PrismSharedTools.Journal.position
        state.settings.theme = "dark"
        func encoded(at position: Int) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.userInfo[PrismSharedTools.valuesKey] = PrismSharedTools.Journal.values(at: position)
            return String(decoding: try encoder.encode(state), as: UTF8.self)
        }
        #expect(try encoded(at: start).contains(#"{"fontSize":14,"theme":"light"}"#))
        #expect(try encoded(at: middle).contains(#"{"fontSize":20,"theme":"light"}"#))
        #expect(try encoded(at: PrismSharedTools.Journal.position).contains(#"{"fontSize":20,"theme":"dark"}"#))
        #expect(try json(state).contains(#"{"fontSize":20,"theme":"dark"}"#), "without values: as it is")
    }
}
