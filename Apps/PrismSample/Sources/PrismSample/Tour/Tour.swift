import Foundation
import Observation
import Prism
import PrismInspector
import PrismTestServer

/// The scripted tour that `make run` (and `prism-sample tour`) shows: every part of Prism at
/// work on the task list, each step printing what it did.
///
/// It needs no set-up: its files go to a fresh temporary folder (removed at the end unless
/// `--keep-files`), and it starts the demo server on 127.0.0.1 itself. Without a Secret Service
/// (no keyring), the keychain step says so and the tour goes on.
@MainActor
final class Tour {
    /// Where the tour's files go.
    let directory: URL
    /// The demo server, in this process.
    let server: PrismTestServer
    /// The session the tour drives.
    let session: TaskSession
    /// The tour's keychain entry, removed at the end.
    let vault = TokenVault(service: "prism-sample-tour")
    /// The sync token, when the keychain is there.
    var token: String?
    private var step = 0
    /// How often an open detail's timer ticks in the tour (a second in the app).
    static let detailInterval = Duration.milliseconds(50)

    private init(directory: URL, server: PrismTestServer) throws(SampleError) {
        self.directory = directory
        self.server = server
        let connection = SyncConnection(target: .server(server.baseURL), vault: vault, log: { Console.line("  " + $0) })
        self.session = try TaskSession(
            directory: directory, connection: connection, detailInterval: Self.detailInterval)
    }

    /// Runs the whole tour.
    ///
    /// - Parameter keepFiles: Whether to keep the temporary folder (its path is printed).
    static func run(keepFiles: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("prism-sample-tour-\(UUID().uuidString.prefix(8))", isDirectory: true)
        let server: PrismTestServer
        do {
            server = try await PrismTestServer.start(host: "127.0.0.1", port: 0)
        } catch {
            throw SampleError("Could not start the demo server on 127.0.0.1: \(error)")
        }
        Console.line("Prism sample: a tour of a task list built with Prism")
        Console.line("Files: \(directory.path)   Demo server: \(server.baseURL.absoluteString)")
        do {
            let tour = try Tour(directory: directory, server: server)
            // The tour's store in a browser while the tour runs (`interactive --inspect` keeps one open).
            let inspector = try await PrismInspector.start(
                tour.session.store, configuration: SampleInspector.configuration)
            Console.line("Inspector: \(inspector.url.absoluteString)   (interactive --inspect keeps one open)")
            try await tour.runSteps()
            await inspector.stop()
            try await tour.finish(keepFiles: keepFiles)
        } catch {
            try? await server.shutdown()
            if !keepFiles { try? FileManager.default.removeItem(at: directory) }
            throw error
        }
        try await server.shutdown()
    }

    private func runSteps() async throws {
        try showStore()
        try showScopedFeatures()
        try await showChildFeatures()
        await showPresenting()
        try showRouter()
        try await showPersistence()
        try await showSharedValues()
        await showKeychain()
        await showSyncWithRetries()
        try await showCaching()
        await showGraphQL()
        try await showNormalizedCache()
        try showUndoRedo()
        try showTimeTravel()
    }

    // MARK: Printing

    /// Starts a step: a blank line and a numbered title.
    func heading(_ title: String) {
        step += 1
        Console.line()
        Console.line("== \(step). \(title)")
    }

    /// A line of Swift the step runs, then what came of it.
    func code(_ swift: String, _ outcome: String) {
        Console.line("  \(swift)")
        Console.line("    -> \(outcome)")
    }

    /// A line of explanation.
    func note(_ text: String) {
        Console.line("  " + text)
    }

    private var taskCount: String {
        Self.count(session.store.state.tasks.items.count, "task")
    }

    /// `1 task`, `2 tasks`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    // MARK: Steps

    private func showStore() throws {
        heading("A store holds the state; only actions change it (PrismStore, PrismReducer)")
        for title in ["Buy milk", "Write the report", "Call Ada"] {
            session.store.send(.tasks(.add(title: title)))
            code("store.send(.tasks(.add(title: \"\(title)\")))", taskCount)
        }
        note("send is synchronous: when it returns, the reducer has run and the state is new.")
    }

    private func showScopedFeatures() throws {
        heading("Features are reducers on their part of the state, with scoped stores")
        note("let tasks = store.scope(state: \\.tasks, action: AppAction.tasks)  // a TaskListState store")
        let changes = ChangeCounter()
        withObservationTracking {
            _ = session.remaining.value
        } onChange: {
            changes.increment()
        }
        session.tasks.send(.item(id: 1, action: .complete))
        let first = session.store.state.tasks.items[0]
        code(
            "tasks.send(.item(id: 1, action: .complete))", "the app's state: #1 \(first.title), done = \(first.isDone)")
        note("The action went up as AppAction.tasks(...); AppFeature's PrismScope ran TaskListFeature on state.tasks,")
        note("whose forEach ran TaskItemFeature on task #1 alone.")
        code("store.derive { $0.tasks.remainingCount }.value", "\(session.remaining.value) left")
        note("An observer of that derived store was notified \(changes.count) time(s): the store is Observable.")
        code("store.scope(state: \\.sync, action: AppAction.sync).state.summary", session.sync.state.summary)
    }

    private func showRouter() throws {
        heading("Navigation between screens (PrismRouter, deep links)")
        let router = session.router
        router.push(.task(id: 2))
        code("router.push(.task(id: 2))", path)
        Console.lines(Render.screen(of: session).dropFirst().map { "       " + $0 })
        router.present(.settings)
        code("router.present(.settings)", path + "  (topRoute: \(router.topRoute?.name ?? "-"))")
        router.dismiss()
        code("router.dismiss()", path)
        try session.go(to: ["prism-sample://history"])
        code("open the deep link prism-sample://history", path)
        router.root()
        code("router.root()", path)
    }

    private var path: String {
        Render.screen(of: session)[0]
    }

    private func showPersistence() async throws {
        heading("Persistence to disk (PrismPersistMiddleware, PrismDiskPersistence)")
        try await session.save()
        let size = (try? FileManager.default.attributesOfItem(atPath: session.stateFile.path)[.size]) as? Int ?? 0
        code(
            "try await persistence.flush()", "\(session.stateFile.lastPathComponent): \(size) bytes, written atomically"
        )
        let reopened = try TaskSession(
            directory: directory, connection: SyncConnection(target: .demoServer, vault: nil, log: { _ in }))
        let titles = reopened.tasks.state.items.map { "#\($0.id)\($0.isDone ? " (done)" : "")" }
        code("TaskSession(directory: sameFolder)", "restored \(titles.joined(separator: ", "))")

        let broken = directory.appendingPathComponent("broken", isDirectory: true)
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("{ this is not JSON".utf8).write(to: broken.appendingPathComponent("tasks.json"))
        do {
            _ = try TaskSession(
                directory: broken, connection: SyncConnection(target: .demoServer, vault: nil, log: { _ in }))
        } catch {
            let backups = ((try? FileManager.default.contentsOfDirectory(atPath: broken.path)) ?? []).filter {
                !$0.hasPrefix(".")
            }
            code(
                "TaskSession(directory: folderWithACorruptFile)", "refused, and the file was kept: \(backups.sorted())")
            note("What the commands say then:")
            note("  " + error.message)
        }
    }
}
