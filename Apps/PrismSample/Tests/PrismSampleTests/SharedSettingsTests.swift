import Foundation
import Prism
import PrismTestSupport
import PrismTesting
import Testing

@testable import prism_sample

/// The settings feature's shared values, asserted like any state: the user it signs in is the
/// user the sync feature holds, and the test's files are its own.
@MainActor
@Suite("Shared settings")
struct SharedSettingsTests {
    static func appFeature() -> AppFeature {
        let connection = SyncConnection(
            target: .server(URL(string: "http://127.0.0.1:9")!), vault: nil, log: { _ in })
        return AppFeature(sync: SyncReducer(connection: connection), detailInterval: .seconds(1))
    }

    @Test("signing in is one change, seen by the sync feature, and recorded by the next sync")
    func signInIsShared() async throws {
        let store = PrismTestStore(initialState: AppState(), reducer: Self.appFeature())
        await store.send(.settings(.signIn(name: "Ada"))) {
            $0.settings.user = SignedInUser(name: "Ada")
        }
        // One value: the sync feature's state holds it too.
        #expect(store.state.sync.user == SignedInUser(name: "Ada"))

        let report = SyncReport(serverURL: "http://127.0.0.1:9", revision: 1, uploaded: true, taskCount: 0)
        await store.send(.sync(.finished(report))) {
            $0.sync.status = .synced
            $0.sync.lastSuccess = report
            $0.sync.syncedAs = "Ada"
        }
        #expect(store.state.sync.summary.hasPrefix("Synced (as Ada):"))
    }

    @Test("the sort order changes the list's order, not the list")
    func sortOrder() async throws {
        let store = PrismTestStore(initialState: AppState(), reducer: Self.appFeature())
        await store.send(.tasks(.add(title: "pears"))) {
            $0.tasks.items.append(TaskItem(id: 1, title: "pears"))
            $0.tasks.nextID = 2
        }
        await store.send(.tasks(.add(title: "Apples"))) {
            $0.tasks.items.append(TaskItem(id: 2, title: "Apples"))
            $0.tasks.nextID = 3
        }
        await store.send(.settings(.setSortOrder(.title))) {
            $0.settings.preferences.sortOrder = .title
        }
        let sorted = store.state.settings.preferences.sortOrder.sorted(store.state.tasks.items)
        #expect(sorted.map(\.title) == ["Apples", "pears"])
        #expect(store.state.tasks.items.map(\.title) == ["pears", "Apples"])
    }

    @Test("another process changes the settings file during a test: the store has its value, and the test goes on")
    func secondProcessDuringATest() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("prism-sample-shared-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Real files in `folder`, as the app keeps them (not the test's own temporary storage).
        let storage = PrismSharedStorage()
        let state = withDependencies {
            $0.prismSharedStorage = storage
            $0.sampleDataDirectory = folder
        } operation: {
            AppState()
        }
        let store = PrismTestStore(initialState: state, reducer: Self.appFeature())
        await store.send(.settings(.setTheme(.color))) {
            $0.settings.preferences.theme = .color
        }
        try await storage.flush()

        let output = try await Self.runSample(["settings", "--sort", "title", "--data-dir", folder.path])
        #expect(output.contains("Theme:        color"), "the other process did not load this one's theme:\n\(output)")
        #expect(output.contains("Sort order:   title"), "\(output)")

        try await eventually { store.state.settings.preferences.sortOrder == .title }
        #expect(store.state.settings.preferences == Preferences(theme: .color, sortOrder: .title))
        // The outside change is no action's: nothing to assert for it, and the next send is
        // checked as usual.
        await store.send(.settings(.signIn(name: "Ada"))) {
            $0.settings.user = SignedInUser(name: "Ada")
        }
    }

    /// Runs `prism-sample` (built beside the tests) with `arguments` and returns what it printed.
    static func runSample(_ arguments: [String]) async throws -> String {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        let binary = try #require(
            folders.map { $0.appendingPathComponent("prism-sample") }.first {
                FileManager.default.isExecutableFile(atPath: $0.path)
            },
            "prism-sample was not found beside the tests in \(folders.map(\.path))"
        )
        return try await offTheCooperativePool {
            let process = ChildProcess()
            process.executableURL = binary
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
