import IssueReporting
@_spi(PrismInternals) import PrismStore
import PrismSupport

/// What the test store's reducer saw: the state around the action the test sent, and every
/// action received from effects, in order, with the state around it.
@MainActor
final class TestStoreRecorder<State: Sendable, Action: Sendable> {
    struct Reduction {
        let action: Action
        let before: State
        let after: State
        /// The shared values the action changed, with their values before and after it.
        let sharedChanges: [PrismSharedTools.Change]
    }

    /// Set by the test store around its own `send`: the next reduction is the sent action.
    var capturesSentAction = false
    var sent: Reduction?
    var received: [Reduction] = []
    let checks: EndOfTestChecks

    init(checks: EndOfTestChecks) {
        self.checks = checks
    }

    func record(action: Action, before: State, after: State, sharedChanges: [PrismSharedTools.Change]) {
        let reduction = Reduction(action: action, before: before, after: after, sharedChanges: sharedChanges)
        if capturesSentAction {
            capturesSentAction = false
            sent = reduction
        } else {
            received.append(reduction)
            checks.setUnreceived(received.map { "\($0.action)" })
        }
    }

    func removeFirstReceived() -> Reduction {
        defer { checks.setUnreceived(received.map { "\($0.action)" }) }
        return received.removeFirst()
    }

    func removeAllReceived() {
        received.removeAll()
        checks.setUnreceived([])
    }
}

/// What the test store checks when it goes away, readable from its (nonisolated) deinit.
final class EndOfTestChecks: Sendable {
    private struct State {
        var exhaustive = false
        var unreceived: [String] = []
        var tasks: [TrackedTask] = []
    }

    /// The effects of one sent action, and that action, to name it when they outlive the test.
    struct TrackedTask {
        let task: PrismEffectTask
        let action: String
    }

    private let state = PrismLocked(State())
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    func setExhaustive(_ exhaustive: Bool) { state.withLock { $0.exhaustive = exhaustive } }
    func setUnreceived(_ unreceived: [String]) { state.withLock { $0.unreceived = unreceived } }
    func track(_ task: PrismEffectTask, startedBy action: String) {
        state.withLock { state in
            state.tasks.removeAll { $0.task.isFinished }
            if !task.isFinished { state.tasks.append(TrackedTask(task: task, action: action)) }
        }
    }

    var runningTasks: [TrackedTask] { state.withLock { state in state.tasks.filter { !$0.task.isFinished } } }

    /// The actions whose effects are still running, one per line, for failure messages.
    static func describe(_ running: [TrackedTask]) -> String {
        running.map { "  • started by \($0.action)" }.joined(separator: "\n")
    }

    /// Blocks until every tracked task has ended, or `limit` has passed, checking every
    /// 100 microseconds. (The store goes away in `deinit`, which cannot wait asynchronously; the
    /// tasks run on other threads.)
    private func waitForRunningTasks(upTo limit: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !runningTasks.isEmpty, clock.now < deadline {
            usleep(100)
        }
    }

    /// Forgets running tasks after cancelling them.
    func cancelAndForgetTasks() {
        let tasks = state.withLock { state -> [TrackedTask] in
            defer { state.tasks = [] }
            return state.tasks
        }
        for tracked in tasks { tracked.task.cancel() }
    }

    /// How long the store's end waits for effects that are still running to end on their own:
    /// an effect that has sent its last action ends a few instructions later, but on a busy
    /// machine its thread may not run them for a few scheduler slices. Short, because the wait
    /// blocks the thread the store goes away on (the main actor's, often), and every test whose
    /// effect really is still running pays it before its failure.
    static let endGrace: Duration = .milliseconds(100)

    /// Reports what an exhaustive test left unasserted, then cancels what still runs.
    ///
    /// An effect still running is first given ``endGrace`` to end: one that has sent its last
    /// action (the test received it) is only returning, and is not reported; one that waits on
    /// anything else is.
    func reportAtEnd() {
        let exhaustive = state.withLock { $0.exhaustive }
        if exhaustive { waitForRunningTasks(upTo: Self.endGrace) }
        let (unreceived, running) = state.withLock { state in
            (state.unreceived, state.tasks.filter { !$0.task.isFinished })
        }
        if exhaustive && !unreceived.isEmpty {
            reportIssue(
                """
                The test store received \(unreceived.count) action(s) that the test did not assert:
                \(unreceived.map { "  • \($0)" }.joined(separator: "\n"))

                Assert each with `await store.receive(...)`, or call `store.skipReceivedActions()`, \
                or set `store.exhaustivity = .off`.
                """,
                fileID: fileID,
                filePath: filePath,
                line: line,
                column: column
            )
        }
        if exhaustive && !running.isEmpty {
            reportIssue(
                """
                \(running.count) effect(s) were still running when the test store went away:
                \(Self.describe(running))

                Wait for them with `await store.finish()`, cancel them from the feature (for example \
                with `.cancel(id:)`), or call `store.skipInFlightEffects()`.
                """,
                fileID: fileID,
                filePath: filePath,
                line: line,
                column: column
            )
        }
        for tracked in running { tracked.task.cancel() }
    }
}
