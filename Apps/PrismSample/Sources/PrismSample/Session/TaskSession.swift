import Foundation
import Prism

/// The app: one store, the features' scoped stores, the router, the history, and where it is
/// all saved. Every command and the interactive mode drive one of these.
///
/// ```swift
/// let session = try TaskSession(directory: folder, connection: SyncConnection(target: .demoServer, log: log))
/// let item = try session.add("Buy milk")
/// try session.complete(id: item.id)
/// try await session.close()   // saves what is not saved yet
/// ```
///
/// ## What is saved where
/// - `tasks.json` (`PrismDiskPersistence`): the store's whole state, saved by a
///   `PrismPersistMiddleware` after actions (atomically: a crash leaves the old file or the new),
///   and on the way out when the process is stopped by a signal (`flushOnExit()`).
/// - `history.json` (`PrismDiskPersistence`, saved by ``close()``): the session's timeline, so
///   that `undo` works across runs.
/// - the sync token: the keychain (``TokenVault``), never a file.
/// - `preferences.json` and `user.json`: the settings feature's shared values (`@PrismShared`),
///   each saved by its own key when it changes, and read by the other features that hold them
///   (the sync feature holds the user). A change made by another run of the app while this one
///   is open reaches this one too.
///
/// A file that cannot be read is moved aside by `PrismDiskPersistence` (to
/// `<name>.json.corrupt-<time>`), and opening the session fails with a ``SampleError`` that says
/// where it went: nothing is overwritten.
@MainActor
final class TaskSession {
    /// The key of the store's state: the file `tasks.json`.
    static let stateKey = "tasks"
    /// The key of the timeline: the file `history.json`.
    static let historyKey = "history"

    /// The folder the files are in.
    let directory: URL
    /// The app's store.
    let store: PrismStore<AppState, AppAction>
    /// The task-list feature's store: `store` scoped to `\.tasks` and `AppAction.tasks`.
    let tasks: PrismStore<TaskListState, TaskListAction>
    /// The sync feature's store: `store` scoped to `\.sync` and `AppAction.sync`.
    let sync: PrismStore<SyncState, SyncAction>
    /// The settings feature's store: `store` scoped to `\.settings` and `AppAction.settings`.
    let settings: PrismStore<SettingsState, SettingsAction>
    /// Where the shared values live (the process's; a test's in tests).
    let sharedStorage: PrismSharedStorage
    /// How many tasks are left: a derived store, which changes only when the count does.
    let remaining: PrismDerivedStore<AppState, Int>
    /// Undo/redo and time travel.
    let history: SessionHistory
    /// Which screen is showing (the interactive mode's `go` and `back`).
    let router = PrismRouter<Screen>()
    /// The connection the sync feature uses.
    let connection: SyncConnection
    /// The effects the open detail started (its timer); they end when the detail closes.
    private(set) var detailEffects: PrismEffectTask?

    private let disk: PrismDiskPersistence
    private let persistence: PrismPersistMiddleware<AppState, AppAction>
    private let openedTimeline: SavedTimeline

    /// Opens the session saved in `directory` (a new one when there is none).
    ///
    /// - Parameters:
    ///   - detailInterval: How often an open task detail's timer ticks.
    /// - Throws: ``SampleError`` when a saved file cannot be read; it names the file and where
    ///   it was moved.
    init(directory: URL, connection: SyncConnection, detailInterval: Duration = .seconds(1)) throws(SampleError) {
        let disk = PrismDiskPersistence(directory: directory)
        // The shared values' keys name files in this folder (see `.preferences`): states made
        // here, decoded or new, hold the values saved there.
        var state = try withDependencies { values in
            values.sampleDataDirectory = directory
        } operation: {
            Result { () throws(SampleError) -> AppState in
                // The shared values first, from their own files: the state decoded from
                // tasks.json then holds them (it names them by key), and they save as before.
                let fresh = AppState()
                return try Self.load(key: Self.stateKey, from: disk, naming: "task list") ?? fresh
            }
        }.get()
        @Dependency(\.prismSharedStorage) var sharedStorage
        if state.sync.status == .syncing {
            // Saved while a sync was under way (the process was stopped): it is not under way now.
            state.sync.status = .failed("interrupted")
        }
        let saved: SavedTimeline? = try Self.load(key: Self.historyKey, from: disk, naming: "history")
        let timeline: SavedTimeline
        if let saved, saved.isCurrent(state.tasks) {
            timeline = saved
        } else {
            timeline = SavedTimeline(startingAt: state.tasks, label: state.tasks.items.isEmpty ? "start" : "opened")
        }
        let history = SessionHistory(timeline: timeline)
        let persistence = PrismPersistMiddleware<AppState, AppAction>(
            strategy: disk,
            key: Self.stateKey,
            coalescingWindow: .milliseconds(200)
        )
        // Ctrl-C in the interactive mode, or a SIGTERM, inside a coalescing window: the last
        // changes are saved before the process ends.
        persistence.flushOnExit()
        let store = PrismStore(
            initialState: state,
            reducer: PrismCombineReducers {
                AppFeature(sync: SyncReducer(connection: connection), detailInterval: detailInterval)
                persistence
                history.middleware()
            }
        )

        self.directory = directory
        self.disk = disk
        self.persistence = persistence
        self.history = history
        self.openedTimeline = history.timeline
        self.connection = connection
        self.store = store
        self.tasks = store.scope(state: \.tasks, action: AppAction.tasks)
        self.sync = store.scope(state: \.sync, action: AppAction.sync)
        self.settings = store.scope(state: \.settings, action: AppAction.settings)
        self.sharedStorage = sharedStorage
        self.remaining = store.derive { $0.tasks.remainingCount }
    }

    /// Where the store's state is saved.
    var stateFile: URL { directory.appendingPathComponent("\(Self.stateKey).json") }
    /// Where the timeline is saved.
    var historyFile: URL { directory.appendingPathComponent("\(Self.historyKey).json") }

    // MARK: Tasks

    /// Adds a task and returns it.
    ///
    /// - Throws: ``SampleError`` when the title is empty.
    @discardableResult
    func add(_ title: String) throws(SampleError) -> TaskItem {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw SampleError("A task needs a title, as in: add \"Buy milk\".") }
        tasks.send(.add(title: title))
        return tasks.state.items[tasks.state.items.count - 1]
    }

    /// Marks task `id` done and returns it.
    @discardableResult
    func complete(id: Int) throws(SampleError) -> TaskItem {
        guard tasks.state.item(id: id) != nil else { throw .noSuchTask(id) }
        tasks.send(.item(id: id, action: .complete))
        return tasks.state.item(id: id)!
    }

    /// Removes task `id` and returns it.
    @discardableResult
    func remove(id: Int) throws(SampleError) -> TaskItem {
        guard let item = tasks.state.item(id: id) else { throw .noSuchTask(id) }
        tasks.send(.remove(id: id))
        return item
    }

    /// The tasks in the order the preferences say.
    var sortedTasks: [TaskItem] {
        settings.state.preferences.sortOrder.sorted(tasks.state.items)
    }

    // MARK: Settings

    /// Signs in as `name`.
    ///
    /// - Throws: ``SampleError`` when the name is empty.
    func signIn(_ name: String) throws(SampleError) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw SampleError("Sign in with a name, as in: signin Ada.") }
        settings.send(.signIn(name: name))
    }

    // MARK: History

    /// Undoes the last change of the task list and returns its label (`add "Buy milk"`).
    ///
    /// - Throws: ``SampleError`` when there is nothing to undo.
    @discardableResult
    func undo() throws(SampleError) -> String {
        guard let (tasks, undid) = history.undo() else { throw SampleError("Nothing to undo.") }
        store.send(.restoreTasks(tasks, reason: "undo"))
        return undid
    }

    /// Redoes the change undone last and returns its label.
    ///
    /// - Throws: ``SampleError`` when there is nothing to redo.
    @discardableResult
    func redo() throws(SampleError) -> String {
        guard let (tasks, redid) = history.redo() else { throw SampleError("Nothing to redo.") }
        store.send(.restoreTasks(tasks, reason: "redo"))
        return redid
    }

    /// Puts the task list back as it was at snapshot `index` of the history.
    ///
    /// - Throws: ``SampleError`` when there is no such snapshot.
    @discardableResult
    func travel(to index: Int) throws(SampleError) -> PrismTimeTravelDebugger<TaskListState>.Snapshot {
        guard let snapshot = history.travel(to: index) else {
            let range = history.debugger.snapshots.map(\.index)
            throw SampleError(
                "There is no moment \(index) in the history (there are \(range.first ?? 0) to \(range.last ?? 0)).")
        }
        store.send(.restoreTasks(snapshot.state, reason: "travel to \(index)"))
        return snapshot
    }

    // MARK: Sync

    /// Syncs the task list with the server and returns the sync feature's state afterwards.
    ///
    /// The sync runs as the sync feature's effect; this waits for it to finish.
    @discardableResult
    func syncNow() async -> SyncState {
        await sync.send(.start(tasks: tasks.state.items.elements)).finish()
        return sync.state
    }

    // MARK: Navigation

    /// Shows the screen named by `words` (`["task", "2"]`, `["settings"]`) and returns the
    /// screen in front, nil for the task list.
    ///
    /// Screens in the stack are pushed over the current ones; the settings are presented as a
    /// sheet. `go tasks` goes back to the root.
    @discardableResult
    func go(to words: [String]) throws(SampleError) -> Screen? {
        let target = try ScreenLinks.navigationState(for: words)
        for case .task(let id) in target.stack where tasks.state.item(id: id) == nil {
            throw .noSuchTask(id)
        }
        if target.isAtRoot {
            router.root()
        } else if let sheet = target.sheet {
            router.present(sheet)
        } else {
            router.sheet = nil
            for screen in target.stack where screen != router.frontmostRoute { router.push(screen) }
        }
        updateDetail()
        return router.frontmostRoute
    }

    /// Leaves the screen in front (a sheet first, else the top of the stack); false at the
    /// task list, where there is nothing to leave.
    func back() -> Bool {
        guard router.frontmostRoute != nil else { return false }
        router.dismiss()
        updateDetail()
        return true
    }

    /// Opens the detail of the task whose screen is in front, or closes the detail when no
    /// task's screen is: the detail feature (and its timer) lives as long as its screen.
    func updateDetail() {
        if case .task(let id) = router.frontmostRoute {
            if store.state.detail?.id != id { detailEffects = store.send(.openDetail(taskID: id)) }
        } else if store.state.detail != nil {
            store.send(.closeDetail)
        }
    }

    // MARK: Saving

    /// Saves what is not saved yet: the store's latest state (waiting for the middleware's
    /// write) and the timeline, if it changed.
    ///
    /// - Throws: ``SampleError`` when a file cannot be written; what was saved before is intact.
    func save() async throws(SampleError) {
        do {
            try await persistence.flush()
        } catch {
            throw SampleError("Could not save the task list to \(stateFile.path): \(error)")
        }
        do {
            try await sharedStorage.flush()
        } catch {
            throw SampleError("Could not save the settings in \(directory.path): \(error)")
        }
        let timeline = history.timeline
        guard timeline != openedTimeline else { return }
        do {
            try disk.save(timeline, key: Self.historyKey)
        } catch {
            throw SampleError("Could not save the history to \(historyFile.path): \(error)")
        }
    }

    /// Saves (see ``save()``) and stops the demo server if the session started one.
    func close() async throws(SampleError) {
        try await save()
        await connection.shutdown()
    }

    // MARK: Loading

    /// The value saved under `key`, nil when there is none, or a ``SampleError`` that names the
    /// file and says where it was moved when it cannot be read.
    private static func load<Value: Codable & Sendable>(
        key: String,
        from disk: PrismDiskPersistence,
        naming what: String
    ) throws(SampleError) -> Value? {
        do {
            return try disk.load(key: key)
        } catch let error as PrismPersistenceError {
            let file = (error.url ?? disk.directory.appendingPathComponent("\(key).json")).path
            guard let movedTo = error.movedAsideURL else {
                throw SampleError("The \(what) file \(file) could not be read: \(error.message) Nothing was changed.")
            }
            let reason = error.message.hasSuffix(".") ? error.message : error.message + "."
            throw SampleError(
                """
                The \(what) file \(file) could not be read: \(reason) \
                It was moved aside to \(movedTo.path), so nothing is lost; the next command starts \
                with an empty \(what). To get it back, repair that file and move it to \(file).
                """
            )
        } catch {
            throw SampleError("The \(what) file in \(disk.directory.path) could not be read: \(error)")
        }
    }
}
