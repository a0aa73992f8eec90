import Foundation
@_spi(PrismInternals) import PrismStore
import Testing

@testable import PrismInspector

@MainActor
@Suite("Tests written from sessions")
struct InspectorTestWriterTests {
    @Test(
        "a range of actions is written as an exhaustive PrismTestStore test: sends, an effect's action received, the states"
    )
    func writesARange() async throws {
        try await withTodoInspector { store, inspector in
            store.send(.increment)  // #1
            store.send(.addLater("tea"))  // #2; its effect sends #3
            #expect(try await eventually { store.state.items == ["tea"] })
            store.send(.add("milk"))  // #4
            let page = try await openPage(inspector, past: "actions")
            try await page.send(["type": "test", "index": 2, "through": 4])
            let message = try await page.next("test")
            #expect(message["actions"] as? Int == 3)
            #expect(message["containsSecrets"] as? Bool == true, "the account's password is in the states")
            let source = try #require(message["source"] as? String)
            let fileName = try #require(message["fileName"] as? String)
            #expect(fileName.hasPrefix("RecordedTodoStateSession") && fileName.hasSuffix(".swift"))

            #expect(source.contains("@testable import PrismInspectorTests"))
            #expect(source.contains("reducer: PrismInspectorTests.TodoReducer()"))
            #expect(
                source.contains(
                    ##"try await store.send(Self.action(#"{"addLater":{"_0":"tea"}}"#)) { $0 = states[1] }"##))
            #expect(
                source.contains(
                    ##"try await store.receive(Self.action(#"{"add":{"_0":"tea"}}"#), assert: { $0 = states[2] })"##))
            #expect(
                source.contains(##"try await store.send(Self.action(#"{"add":{"_0":"milk"}}"#)) { $0 = states[3] }"##))
            #expect(
                source.contains("// #3 .add(\"tea\"), sent by an effect made at PrismInspectorTests/Support.swift:"))
            #expect(source.contains("//   items[1]: + \"milk\""))
            #expect(source.contains("await store.finish()"))
            // The states: the one before the range, then one per action, in JSON that decodes.
            let states = source.components(separatedBy: "\n").filter { $0.hasPrefix("            #\"{\"account\"") }
            #expect(states.count == 4)
            let first = try #require(states.first).trimmingCharacters(in: .whitespaces)
            let json = String(first.dropFirst(2).dropLast(3))
            #expect(try JSONDecoder().decode(TodoState.self, from: Data(json.utf8)) == TodoState(count: 1))
            await page.close()
        }
    }

    @Test("the reducer comes from the configuration when set; effects still running end the test without waiting")
    func configuredReducerAndRunningEffects() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let inspector = try await startInspector(store) { $0.testReducer = "TodoReducer.live" }
        store.send(.wait(seconds: 60))
        let source = try inspector.testSource(from: 1, through: 1)
        #expect(source.contains("reducer: TodoReducer.live"))
        #expect(source.contains("store.skipInFlightEffects()") && !source.contains("store.finish()"))
        store.send(.finishWaiting)
        await inspector.stop()
    }

    @Test("ranges that cannot be written are refused with a typed error: a note inside, evicted, all skipped")
    func refusals() async throws {
        try await withTodoInspector(historyLimit: 4) { store, inspector in
            store.send(.increment)  // #1
            store.replaceState(with: TodoState(count: 10))  // #2, a note
            store.send(.increment)  // #3
            #expect(throws: PrismInspectorError.self) { try inspector.testSource(from: 1, through: 3) }
            do {
                _ = try inspector.testSource(from: 1, through: 3)
            } catch let error as PrismInspectorError {
                #expect(error.code == .cannotWriteTest && error.message.contains("#2 is a note"))
            }
            // A range that starts at a note starts from its state.
            let fromNote = try inspector.testSource(from: 2, through: 3)
            #expect(fromNote.contains(#""count":10"#) && fromNote.contains(#""count":11"#))

            store.send(.increment)  // #4
            store.send(.increment)  // #5: #1 is evicted
            #expect(throws: PrismInspectorError.self) { try inspector.testSource(from: 1, through: 5) }
            #expect(throws: PrismInspectorError.self) { try inspector.testSource(from: 5, through: 4) }

            let page = try await openPage(inspector, past: "actions")
            try await page.send(["type": "skip", "index": 5])
            _ = try await page.next("skipped")
            #expect(throws: PrismInspectorError.self) { try inspector.testSource(from: 5, through: 5) }
            let withoutSkipped = try inspector.testSource(from: 4, through: 5)
            #expect(withoutSkipped.contains("#4 .increment") && !withoutSkipped.contains("#5 .increment"))
            try await page.send(["type": "test", "index": 5, "through": 5])
            let error = try await page.next("error")
            #expect((error["message"] as? String)?.contains("skipped") == true)
            await page.close()
        }
    }

    @Test(
        "types that are not Codable, or a reducer made from a closure, give a test that compiles and fails saying why")
    func unwritableTypes() async throws {
        let store = makePlainStore()
        let inspector = try await PrismInspector.start(
            store, configuration: .init(batchInterval: .seconds(3_600), printsURL: false))
        store.send(.bump)
        let source = try inspector.testSource(from: 1, through: 1)
        #expect(source.contains("// #1 .bump"))
        #expect(
            source.contains(
                "Issue.record(#\"PrismInspector could not write this test: The state and action types are not Codable"))
        #expect(source.contains("testReducer"), "it says how to name the reducer")
        #expect(!source.contains("PrismTestStore("))
        await inspector.stop()
    }
}

@MainActor
@Suite("A title with line breaks and bidirectional characters stays in the written test's comment")
struct InspectorTestWriterHostileTitleTests {
    @Test("the header is one line whatever the title holds")
    func hostileTitle() async throws {
        let store = makePlainStore()
        let title = "Team\r}\rlet injected = 1\u{2028}enum Again {\n\u{202E}tfel"
        let inspector = try await PrismInspector.start(
            store, configuration: .init(batchInterval: .seconds(3_600), printsURL: false, title: title))
        store.send(.bump)
        let source = try inspector.testSource(from: 1, through: 1)
        let header = try #require(source.split(separator: "\n").first { $0.contains("Written by PrismInspector") })
        #expect(header.contains(#"of Team } let injected = 1 enum Again { \u{202e}tfel, "#))
        #expect(!source.unicodeScalars.contains { [0x0D, 0x2028, 0x202E].contains($0.value) })
        #expect(!source.split(separator: "\n").contains { $0.hasPrefix("let injected") })
        await inspector.stop()
    }
}

@Suite("Writing Swift for tests")
struct TestGeneratorTests {
    @Test("a raw string literal holds any text: quotes and hashes, backslashes, line breaks, control characters")
    func rawStrings() {
        #expect(TestGenerator.raw(#"{"a":"b"}"#) == ##"#"{"a":"b"}"#"##)
        #expect(TestGenerator.raw(##"say "#hi""##) == ###"##"say "#hi""##"###)
        #expect(TestGenerator.raw(##"a\#b"##) == ###"##"a\#b"##"###)
        #expect(TestGenerator.raw("one\ntwo\u{1}") == ##"#"one\#ntwo\#u{1}"#"##)
        #expect(TestGenerator.raw(#"\n stays"#) == ##"#"\n stays"#"##)
    }

    @Test(
        "a comment stays one line, cannot end a block comment, and shows bidirectional and control characters as escapes"
    )
    func comments() {
        #expect(TestGenerator.comment("a\nb */ c") == "a b * / c")
        #expect(TestGenerator.comment("a\rb\r\nc\u{85}d\u{2028}e\u{2029}f") == "a b  c d e f")
        #expect(TestGenerator.comment("x\u{202E}y\u{2066}z\u{7}\tw") == #"x\u{202e}y\u{2066}z\u{7}\#tw"#)
        #expect(TestGenerator.raw("\u{202E}") == ##"#"\#u{202e}"#"##)
    }

    @Test("dates and file names are written in UTC, as identifiers")
    func dates() {
        let date = Date(timeIntervalSince1970: 1_795_828_736)  // 2026-11-28T01:18:56Z
        #expect(TestGenerator.iso(date) == "2026-11-28T01:18:56Z")
        #expect(TestGenerator.iso(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(TestGenerator.iso(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(TestGenerator.stamp(date) == "20261128T011856")
    }

    @Test("a type name Swift code cannot write is not written")
    func names() {
        #expect(TestInput<Int, Int>.isNameable("MyApp.AppState"))
        #expect(!TestInput<Int, Int>.isNameable("MyApp.(unknown context at $1234).Hidden"))
        #expect(TestInput<Int, Int>.module(of: "MyApp.AppState") == "MyApp")
        #expect(TestInput<Int, Int>.module(of: "Swift.Int") == nil)
    }
}

/// A state with a shared value (held by reference in the history), for the test below.
struct ThemeState: Codable, Equatable, Sendable {
    @PrismShared(.inMemory("inspector-theme")) var theme = "light"
    var edits = 0
}

enum ThemeAction: Codable, Equatable, Sendable {
    case toggle
}

struct ThemeReducer: PrismReducer {
    func reduce(into state: inout ThemeState, action: ThemeAction) -> PrismEffect<ThemeAction> {
        state.theme = state.theme == "dark" ? "light" : "dark"
        state.edits += 1
        return .none
    }
}

@MainActor
@Suite("Tests written from sessions with shared values")
struct InspectorSharedValueTests {
    @Test("each state is written with its shared values as they were then, not as they are now")
    func sharedValuesAsTheyWere() async throws {
        let store = withDependencies {
            $0.prismSharedStorage = PrismSharedStorage()
        } operation: {
            PrismStore(initialState: ThemeState(), reducer: ThemeReducer())
        }
        let inspector = try await PrismInspector.start(store, configuration: .init(printsURL: false))
        store.send(.toggle)
        store.send(.toggle)
        store.send(.toggle)
        let recorded = inspector.debugger.snapshots.dropFirst()
        let source = try inspector.testSource(
            from: try #require(recorded.first?.index), through: try #require(recorded.last?.index))
        let themes = source.components(separatedBy: "\n")
            .filter { $0.contains(#""prismSharedKey":"inMemory:inspector-theme""#) }
            .map { line in line.contains(#""value":"dark""#) ? "dark" : "light" }
        #expect(themes == ["light", "dark", "light", "dark"])
        #expect(source.contains("expected.userInfo[.prismSharedDecoding] = PrismSharedDecoding.asWritten"))
        #expect(source.contains("import PrismStore"))
        await inspector.stop()
    }

    @Test("a store made with dependencies of its own gets a test that names them and does not compile until set")
    func dependencies() async throws {
        let store = PrismStore(initialState: TodoState(), reducer: TodoReducer()) {
            $0.uuid = .incrementing
        }
        let inspector = try await PrismInspector.start(store, configuration: .init(printsURL: false))
        store.send(.increment)
        let index = try #require(inspector.debugger.snapshots.last?.index)
        let source = try inspector.testSource(from: index, through: index)
        #expect(source.contains("#error(#\"The store was made with Dependencies.UUIDGenerator: set them"))
        await inspector.stop()

        // Configured, the test sets them with the expression given.
        let configured = PrismStore(initialState: TodoState(), reducer: TodoReducer()) {
            $0.uuid = .incrementing
        }
        let writer = try await PrismInspector.start(
            configured, configuration: .init(printsURL: false, testDependencies: "{ $0.uuid = .incrementing }"))
        configured.send(.increment)
        let last = try #require(writer.debugger.snapshots.last?.index)
        let written = try writer.testSource(from: last, through: last)
        #expect(written.contains("withDependencies: { $0.uuid = .incrementing }"))
        #expect(!written.contains("#error"))
        await writer.stop()

        // A store made without: nothing to set.
        let plain = PrismStore(initialState: TodoState(), reducer: TodoReducer())
        let third = try await PrismInspector.start(plain, configuration: .init(printsURL: false))
        plain.send(.increment)
        let only = try #require(third.debugger.snapshots.last?.index)
        let defaults = try third.testSource(from: only, through: only)
        #expect(defaults.contains("made without dependencies of its own") && !defaults.contains("#error"))
        await third.stop()
    }
}
