import Foundation
import Prism
import PrismInspector

/// A long run of the app's live features at a fixed action rate (`prism-sample soak`,
/// `make soak`): what a user who never stops would do, with everything that lives long kept
/// open, so that memory, descriptors, threads or tasks that leak with each action show as a
/// line that climbs.
///
/// One step per tick, `rate` ticks a second, in this cycle:
///
/// | Step | What | What it exercises |
/// | --- | --- | --- |
/// | add, complete, remove | the task list (40 tasks at most) | the store, `forEach`, the persisting middleware (`tasks.json`), the history middleware |
/// | open, close | a task's detail: `go task <id>`, `back` | the router, `ifLet`, the detail's timer effect (every 100 ms), cancelled on close |
/// | undo, redo | the session's history | `PrismUndoRedoStack`, `PrismTimeTravelDebugger` (100 snapshots) |
/// | search | one letter typed into `TaskSearchFeature` | a debounced effect (cancelled by the next letter), `GET /tasks` |
/// | push | `TaskPushFeature` uploads the list; before every fourth, the server is told to fail the next request | `PUT /tasks` retried with backoff, the feed's next event |
/// | sort | the settings' sort order changed | a `@PrismShared` value saved to `preferences.json` |
/// | mutation | GraphQL `addTask` | GraphQL over HTTP; the long-lived `taskAdded` subscription's next event |
/// | counter | a GraphQL subscription of 3 events, read to its end | a subscription opened and completed on the shared WebSocket |
///
/// Open for the whole run: `TaskFeedFeature` following `GET /tasks/events` (Server-Sent
/// Events), `RevisionWatchFeature` polling every second, the `taskAdded` subscription, and the
/// inspector when asked for. Network steps run beside the ticks; one that would start while 8
/// are still running is skipped (and counted), so a slow server cannot pile work up.
@MainActor
final class Soak {
    /// What to run.
    struct Plan: Sendable {
        var duration: Duration
        var rate: Int
        /// Stop after this many actions, if the duration has not ended the run first; nil for no
        /// limit. (A test asks for a count, which a loaded machine reaches late but whole.)
        var actions: Int? = nil
        var countersFile: URL?
        var inspect: Bool
        /// How long to wait for an inspector page before starting; nil not to wait.
        var pageWait: Duration?
        /// How long the network steps still running at the end get to finish before one is
        /// called stuck (a retried push takes about 1 s). A test on a loaded machine gives more.
        var stepGrace: Duration = .seconds(10)
    }

    /// What the run did and what went wrong.
    struct Report: Sendable {
        var counters: SoakCounters
        var elapsed: Duration
        var problems: [String]

        /// A few lines for a person.
        var summary: String {
            let seconds = max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, 1e-9)
            func rate(_ value: Int) -> String { String(format: "%.1f/s", Double(value) / seconds) }
            let counts = counters
            return """
                Soaked for \(Int(seconds.rounded())) s: \(counts.actionsTotal) actions (\(rate(counts.actionsTotal))), \
                \(counts.requestsTotal) HTTP exchanges (\(rate(counts.requestsTotal))), \
                \(counts.pushesTotal) pushes (\(counts.injectedFailuresTotal) with a failure injected, \
                \(counts.serverFailuresTotal) failed attempts retried), \
                \(counts.feedRevisionsTotal) Server-Sent Events, \(counts.watchChecksTotal) revision checks, \
                \(counts.graphQLEventsTotal) GraphQL events on \(counts.graphQLSubscriptionsTotal) subscriptions, \
                \(counts.skippedTotal) network steps skipped; \(problems.count) problem(s).
                """
        }
    }

    private let plan: Plan
    private let directory: URL
    private let target: SyncConnection.Target
    private let timeout: Duration
    private let tally = RequestTally()
    private var counters = SoakCounters()
    private var problems: [String] = []
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextTaskNumber = 0
    /// Push steps started (skipped ones not counted).
    private var pushes = 0
    /// The last search's effect (each cancels the one before it).
    private var lastSearch: PrismEffectTask?

    /// How many network steps may run at once before new ones are skipped.
    static let maximumRunning = 8
    /// How many tasks the list holds at most.
    static let maximumTasks = 40

    private let vault: TokenVault?

    /// A soak of the session in `directory` against `target`, each request attempt given
    /// `timeout`, the sync token kept in `vault` (none when nil).
    init(
        plan: Plan, directory: URL, target: SyncConnection.Target, timeout: Duration, vault: TokenVault? = TokenVault()
    ) {
        self.vault = vault
        self.plan = plan
        self.directory = directory
        self.target = target
        self.timeout = timeout
    }

    /// Runs the soak, stops everything, saves, and checks what was saved.
    func run() async throws -> Report {
        let tally = self.tally
        let connection = SyncConnection(target: target, timeout: timeout, vault: vault, log: { tally.record($0) })
        let session = try TaskSession(directory: directory, connection: connection, detailInterval: .milliseconds(100))
        let client: TaskSyncClient
        do {
            client = try await connection.connect()
        } catch {
            try? await session.close()
            throw SampleError("Could not reach the server: \(SyncConnection.describe(error))")
        }
        let api = TaskAPI.live(server: client.server, client: client.adapter, options: client.options)
        let graphQL = SoakGraphQL(server: client.server)

        let inspector =
            plan.inspect
            ? try await PrismInspector.start(session.store, configuration: SampleInspector.configuration) : nil
        if let inspector {
            Console.line("Inspector: \(inspector.url.absoluteString)")
            Console.flush()
            if let wait = plan.pageWait {
                let deadline = ContinuousClock.now + wait
                while inspector.connectedPages == 0, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                guard inspector.connectedPages > 0 else {
                    await inspector.stop()
                    try? await session.close()
                    throw SampleError("No inspector page connected within \(wait).")
                }
            }
        }

        let feed = PrismStore(initialState: TaskFeedFeature.State(), reducer: TaskFeedFeature()) { $0.taskAPI = api }
        let watch = PrismStore(
            initialState: RevisionWatchFeature.State(), reducer: RevisionWatchFeature(interval: .seconds(1))
        ) { $0.taskAPI = api }
        let search = PrismStore(initialState: TaskSearchFeature.State(), reducer: TaskSearchFeature()) {
            $0.taskAPI = api
        }
        let push = PrismStore(initialState: TaskPushFeature.State(), reducer: TaskPushFeature()) { $0.taskAPI = api }
        feed.send(.start)
        watch.send(.start)
        let taskAdded = graphQL.followTaskAdded { [weak self] in
            self?.counters.graphQLEventsTotal += 1
        } failed: { [weak self] error in
            self?.problems.append("The taskAdded subscription failed: \(error)")
        }
        counters.graphQLSubscriptionsTotal += 1

        Console.line(
            "Soaking for \(plan.duration)" + (plan.actions.map { " or \($0) actions" } ?? "")
                + " at \(plan.rate) actions/s"
                + (plan.countersFile.map { ", counters in \($0.path)" } ?? "") + ".")
        Console.flush()

        let start = ContinuousClock.now
        let end = start + plan.duration
        let tick = Duration.seconds(1) / plan.rate
        var next = start
        var step = 0
        var lastWrite = start
        while ContinuousClock.now < end, plan.actions.map({ step < $0 }) ?? true {
            perform(step: step, session: session, search: search, push: push, client: client, graphQL: graphQL)
            step += 1
            let now = ContinuousClock.now
            if now - lastWrite >= .seconds(1) {
                observe(session: session, feed: feed, watch: watch, inspector: inspector.map { $0.connectedPages })
                writeCounters()
                lastWrite = now
            }
            next += tick
            if next > now {
                try? await Task.sleep(until: next, clock: .continuous)
            } else if now - next > .seconds(1) {
                next = now  // fell behind (a pause): the rate resumes rather than bursting
            }
        }
        let elapsed = ContinuousClock.now - start

        // Stop what lives long, let what runs finish, and check what is left.
        if let inspector, plan.pageWait != nil, inspector.connectedPages == 0 {
            problems.append("The inspector page was no longer connected at the end.")
        }
        taskAdded.cancel()
        // The server sends its current revision as soon as the feed connects, so a feed that
        // works has one. On a loaded machine connecting can take longer than a short run: wait
        // for it, within `stepGrace`, rather than race it (a feed with none by then is a problem).
        let feedGrace = ContinuousClock.now + plan.stepGrace
        while feed.state.isFollowing, feed.state.received == 0, ContinuousClock.now < feedGrace {
            try? await Task.sleep(for: .milliseconds(20))
        }
        await feed.send(.stop).finish()
        await watch.send(.stop).finish()
        // Network steps get `stepGrace` (10 s) to end; one still running then is stuck, and a
        // problem.
        let grace = ContinuousClock.now + plan.stepGrace
        while !running.isEmpty, ContinuousClock.now < grace { try? await Task.sleep(for: .milliseconds(20)) }
        if !running.isEmpty {
            problems.append(
                "\(running.count) network step(s) had not ended \(plan.stepGrace) after the run; cancelled.")
            for task in running.values { task.cancel() }
            for task in running.values { await task.value }
        }
        await lastSearch?.finish()
        _ = session.back()
        observe(session: session, feed: feed, watch: watch, inspector: inspector.map { $0.connectedPages })
        if let failure = feed.state.failure { problems.append("The Server-Sent Events feed failed: \(failure)") }
        if let failure = watch.state.failure { problems.append("The revision watch failed: \(failure)") }
        if let failure = search.state.failure { problems.append("A search failed: \(failure)") }
        if let failure = push.state.failure { problems.append("A push failed: \(failure)") }
        if counters.actionsTotal > 200, counters.feedRevisionsTotal == 0 {
            problems.append("The Server-Sent Events feed received no revision.")
        }
        await inspector?.stop()
        do {
            try await session.close()
        } catch {
            problems.append("Could not save at the end: \(error)")
        }
        checkSaved(session.tasks.state)
        counters.running = running.count
        writeCounters()
        return Report(counters: counters, elapsed: elapsed, problems: problems)
    }

    // MARK: Steps

    private func perform(
        step: Int, session: TaskSession, search: PrismStore<TaskSearchFeature.State, TaskSearchFeature.Action>,
        push: PrismStore<TaskPushFeature.State, TaskPushFeature.Action>, client: TaskSyncClient, graphQL: SoakGraphQL
    ) {
        counters.actionsTotal += 1
        let items = session.tasks.state.items
        switch step % 12 {
        case 0, 6:
            if items.count >= Self.maximumTasks, let first = items.first {
                _ = try? session.remove(id: first.id)
            } else {
                _ = try? session.add("Soak \(step)")
            }
        case 1:
            if let open = items.first(where: { !$0.isDone }) { _ = try? session.complete(id: open.id) }
        case 2:
            if let item = items.last { _ = try? session.go(to: ["task", String(item.id)]) }
        case 3:
            _ = session.back()
        case 4:
            _ = try? session.undo()
        case 5:
            _ = try? session.redo()
        case 7:
            let letters = "aeiostu"
            let letter = letters[letters.index(letters.startIndex, offsetBy: step / 12 % letters.count)]
            lastSearch = search.send(.queryChanged(String(letter)))
        case 8:
            let tasks = items.map(RemoteTask.init)
            // Every fourth push that runs has a failure injected: counted on pushes started, so
            // that skipped steps (a loaded machine) cannot skip every injection.
            let injects = (pushes + 1) % 4 == 0
            let started = startNetworkStep { [weak self] in
                if injects {
                    try? await client.failNext(1)
                    self?.counters.injectedFailuresTotal += 1
                }
                await push.send(.push(tasks)).finish()
                self?.counters.pushesTotal += 1
            }
            if started { pushes += 1 }
        case 9:
            let order = SortOrder.allCases[step / 12 % SortOrder.allCases.count]
            session.settings.send(.setSortOrder(order))
        case 10:
            startNetworkStep { [weak self] in
                do {
                    try await graphQL.addTask(title: "Soak \(step)")
                } catch {
                    self?.problems.append("GraphQL addTask failed: \(error)")
                }
            }
        default:
            startNetworkStep { [weak self] in
                self?.counters.graphQLSubscriptionsTotal += 1
                do {
                    let events = try await graphQL.count(to: 3)
                    self?.counters.graphQLEventsTotal += events
                    if events != 3 { self?.problems.append("A counter subscription gave \(events) events, not 3.") }
                } catch {
                    self?.problems.append("A counter subscription failed: \(error)")
                }
            }
        }
    }

    /// Starts `body` beside the ticks, unless ``maximumRunning`` steps are running already.
    /// Starts `body` unless `maximumRunning` steps are running; whether it started.
    @discardableResult
    private func startNetworkStep(_ body: @escaping @MainActor () async -> Void) -> Bool {
        guard running.count < Self.maximumRunning else {
            counters.skippedTotal += 1
            return false
        }
        nextTaskNumber += 1
        let number = nextTaskNumber
        running[number] = Task { [weak self] in
            await body()
            self?.running[number] = nil
        }
        return true
    }

    // MARK: Counters

    private func observe(
        session: TaskSession, feed: PrismStore<TaskFeedFeature.State, TaskFeedFeature.Action>,
        watch: PrismStore<RevisionWatchFeature.State, RevisionWatchFeature.Action>, inspector pages: Int?
    ) {
        counters.tasks = session.tasks.state.items.count
        counters.historySnapshots = session.history.debugger.snapshots.count
        counters.detailOpen = session.store.state.detail == nil ? 0 : 1
        counters.running = running.count
        counters.inspectorPages = pages ?? 0
        counters.feedRevisionsTotal = feed.state.received
        counters.watchChecksTotal = watch.state.checks
        let requests = tally.counts
        counters.requestsTotal = requests.exchanges
        counters.serverFailuresTotal = requests.serverFailures
        if counters.problems != problems.count {
            for problem in problems.dropFirst(counters.problems) { Console.line("soak: \(problem)") }
            counters.problems = problems.count
        }
    }

    private func writeCounters() {
        guard let file = plan.countersFile else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try encoder.encode(counters).write(to: file, options: .atomic)
        } catch {
            problems.append("Could not write the counters to \(file.path): \(error)")
        }
    }

    /// Reads `tasks.json` back, as the next run would, and compares it with the store's list.
    private func checkSaved(_ tasks: TaskListState) {
        do {
            let saved: AppState? = try PrismDiskPersistence(directory: directory).load(key: TaskSession.stateKey)
            if saved?.tasks != tasks {
                problems.append(
                    "The saved list (\(saved?.tasks.items.count ?? 0) tasks) is not the list the store ended with "
                        + "(\(tasks.items.count) tasks).")
            }
        } catch {
            problems.append("The saved list could not be read back: \(error)")
        }
    }
}

/// What `prism-sample soak` writes to its counters file every second: totals (`*_total`, which
/// grow with the run) and what is open now (which should not).
struct SoakCounters: Codable, Sendable, Equatable {
    var actionsTotal = 0
    var requestsTotal = 0
    var pushesTotal = 0
    var injectedFailuresTotal = 0
    var serverFailuresTotal = 0
    var feedRevisionsTotal = 0
    var watchChecksTotal = 0
    var graphQLEventsTotal = 0
    var graphQLSubscriptionsTotal = 0
    var skippedTotal = 0
    var problems = 0
    /// Tasks in the list now.
    var tasks = 0
    /// Snapshots the history holds.
    var historySnapshots = 0
    /// 1 while a task's detail (and its timer) is open.
    var detailOpen = 0
    /// Network steps running.
    var running = 0
    /// Inspector pages connected.
    var inspectorPages = 0

    enum CodingKeys: String, CodingKey {
        case actionsTotal = "actions_total"
        case requestsTotal = "requests_total"
        case pushesTotal = "pushes_total"
        case injectedFailuresTotal = "injected_failures_total"
        case serverFailuresTotal = "server_failures_total"
        case feedRevisionsTotal = "feed_revisions_total"
        case watchChecksTotal = "watch_checks_total"
        case graphQLEventsTotal = "graphql_events_total"
        case graphQLSubscriptionsTotal = "graphql_subscriptions_total"
        case skippedTotal = "skipped_total"
        case problems = "problems_total"
        case tasks
        case historySnapshots = "history_snapshots"
        case detailOpen = "detail_open"
        case running = "network_steps_running"
        case inspectorPages = "inspector_pages"
    }
}

/// Counts the HTTP exchanges `LoggingTransport` reports, and the failed attempts among them
/// (5xx answers, which the retry policy retries), from any thread.
final class RequestTally: @unchecked Sendable {
    // @unchecked: every access to `values` holds `lock`.
    private let lock = NSLock()
    private var values = (exchanges: 0, serverFailures: 0)

    func record(_ line: String) {
        guard line.contains(" -> ") else { return }  // the connection's other notes
        let failed = line.range(of: #": 5\d\d "#, options: .regularExpression) != nil
        lock.lock()
        values.exchanges += 1
        if failed { values.serverFailures += 1 }
        lock.unlock()
    }

    var counts: (exchanges: Int, serverFailures: Int) {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
