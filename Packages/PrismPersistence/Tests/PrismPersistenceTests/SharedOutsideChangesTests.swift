import Foundation
import Observation
import PrismPersistence
import Testing

/// Persisted shared values written by someone else: another process (a real child process), or
/// another storage of this process. Real files, a real UserDefaults suite.
extension SharedPersistenceTests {
    @Test(
        "another process writes the file while this one holds it: holders and observers see its values, nothing is written back"
    )
    func secondProcessWrites() async throws {
        try await withTemporaryDirectory { directory in
            let (store, storage) = makeStore(.file("settings", directory: directory))
            let notified = LockedBox(false)
            withObservationTracking {
                _ = store.state.settings
            } onChange: {
                notified.mutate { $0 = true }
            }

            let child = try await TestHelper.run(["shared-writes", directory.path, "settings", "dark", "20"])
            #expect(child.result == "wrote 20", "\(child.output)\(child.errors)")
            let written = try fileIdentity(directory.appendingPathComponent("settings.json"))

            try await eventually { store.state.settings == Settings(theme: "dark", fontSize: 20) }
            #expect(notified.wrappedValue, "observers of the value were not told")

            // No echo: after more than a coalescing window, the file is still the child's.
            try await Task.sleep(for: .milliseconds(800))
            try await storage.flush()
            #expect(try fileIdentity(directory.appendingPathComponent("settings.json")) == written)

            // A change here after the outside ones is saved as usual, over them.
            store.send(.setFontSize(40))
            try await expectSaved(Settings(theme: "dark", fontSize: 40), in: directory, flushing: storage)
        }
    }

    @Test("this process and another write the file at once: the holder ends with what the file holds")
    func bothProcessesWrite() async throws {
        try await withTemporaryDirectory { directory in
            let (store, storage) = makeStore(
                PrismPersistedKey<Settings>.file("settings", directory: directory).coalescingWindow(.milliseconds(50)))
            async let child = TestHelper.run(["shared-writes", directory.path, "settings", "child", "30"])
            for round in 1...30 {
                store.send(.setTheme("parent-\(round)"))
                try await Task.sleep(for: .milliseconds(15))
            }
            let finished = try await child
            // (The child's own last value may be one of ours: it hears our saves too.)
            #expect(finished.result?.hasPrefix("wrote ") == true, "\(finished.output)\(finished.errors)")
            try await storage.flush()
            // Whoever wrote last, the holder and the file agree once the last change is heard.
            try await eventually {
                let saved = try? savedSettings(in: directory)
                return saved == store.state.settings
            }
        }
    }

    @Test("two storages of one process hold the same file: each sees the other's changes")
    func twoStoragesOfOneProcess() async throws {
        try await withTemporaryDirectory { directory in
            let firstStorage = PrismSharedStorage()
            let secondStorage = PrismSharedStorage()
            let first = makeStore(.file("settings", directory: directory), in: firstStorage)
            let second = makeStore(.file("settings", directory: directory), in: secondStorage)

            first.send(.setTheme("dark"))
            try await firstStorage.flush()
            try await eventually { second.state.settings.theme == "dark" }

            second.send(.setFontSize(30))
            try await secondStorage.flush()
            try await eventually { first.state.settings == Settings(theme: "dark", fontSize: 30) }
            #expect(second.state.settings == Settings(theme: "dark", fontSize: 30))
        }
    }

    @Test("another process writes the defaults key: the holder sees the new value")
    func secondProcessWritesDefaults() async throws {
        try await withDefaultsSuite { suite in
            let (store, _) = makeStore(.defaults("settings", suiteName: suite))
            #expect(store.state.settings == Self.defaultSettings)

            let child = try await TestHelper.run(["defaults-save", suite, "settings", "dark", "22"])
            #expect(child.result == "saved", "\(child.output)\(child.errors)")
            try await eventually { store.state.settings == Settings(theme: "dark", fontSize: 22) }
        }
    }

    @Test("an unreadable file or a removal from outside: reported, moved aside, and the holders keep their value")
    func outsideDamageKeepsTheValue() async throws {
        try await withTemporaryDirectory { directory in
            let (store, storage, reported) = makeReportingStore(.file("settings", directory: directory))
            store.send(.setTheme("dark"))
            try await storage.flush()

            // Someone replaces the file with garbage, the way a save does (a rename into place).
            let file = directory.appendingPathComponent("settings.json")
            let garbage = directory.appendingPathComponent("garbage.tmp")
            try Data("{ not json".utf8).write(to: garbage)
            #expect(rename(garbage.path, file.path) == 0)
            try await eventually { !reported.wrappedValue.isEmpty }
            let error = try #require(reported.wrappedValue.first)
            #expect(error.code == .corruptFile)
            let movedAside = try #require(error.movedAsideURL)
            #expect(try String(contentsOf: movedAside, encoding: .utf8) == "{ not json")
            #expect(store.state.settings == Settings(theme: "dark", fontSize: 14))

            // Someone removes it: the value stays, and the next change saves it again.
            try? FileManager.default.removeItem(at: file)
            try await Task.sleep(for: .milliseconds(100))
            #expect(store.state.settings == Settings(theme: "dark", fontSize: 14))
            store.send(.setFontSize(16))
            try await expectSaved(Settings(theme: "dark", fontSize: 16), in: directory, flushing: storage)
        }
    }
}

/// The inode and modification time of the file at `url`: another write (an atomic one renames
/// a new file into place) changes the first.
func fileIdentity(_ url: URL) throws -> String {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return "\(attributes[.systemFileNumber] ?? "-") \(attributes[.modificationDate] ?? "-")"
}
