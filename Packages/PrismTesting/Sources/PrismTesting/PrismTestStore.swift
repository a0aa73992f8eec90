import CustomDump
import IssueReporting
@_spi(PrismInternals) import PrismStore

/// A store for tests: send actions, then check the state, the actions effects send back, and
/// that every effect finished.
///
/// Two styles, on one type:
///
/// - **Light.** Plain ``send(_:fileID:filePath:line:column:)`` and ``waitForEffects(timeout:)``, then read ``state``. Only
///   what the test reads is checked. Good for quick tests of a reducer.
///
///   ```swift
///   let store = PrismTestStore(initialState: UserState(), reducer: UserReducer())
///   store.send(.fetchUsers)
///   #expect(store.state.isLoading)
///   try await store.waitForEffects()
///   #expect(!store.state.users.isEmpty)
///   ```
///
/// - **Exhaustive.** ``send(_:assert:fileID:filePath:line:column:)`` describes how the action
///   changes the state, ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_,_)`` each action
///   an effect sends back. A state change the closure did not describe, an action nobody
///   received, or an effect still running when the test ends, fails the test with a message
///   that says what and how to fix it. Use it for features with effects: it catches what the
///   light style lets through.
///
///   ```swift
///   let store = PrismTestStore(initialState: CounterState(), reducer: CounterReducer())
///   await store.send(.fetchRemoteCount) { $0.isLoading = true }
///   await store.receive(.remoteCountLoaded(42)) {
///       $0.isLoading = false
///       $0.count = 42
///   }
///   ```
///
/// By default (``PrismExhaustivity/automatic``) a test store is light until the first asserting
/// call; set ``exhaustivity`` to ``PrismExhaustivity/on`` or ``PrismExhaustivity/off`` to choose.
/// Failures are reported to Swift Testing and XCTest alike, at the line of the assertion.
@MainActor
public final class PrismTestStore<State: Equatable & Sendable, Action: Sendable> {
    /// How strictly the store checks what the test did not assert.
    public var exhaustivity: PrismExhaustivity = .automatic {
        didSet { checks.setExhaustive(isExhaustive) }
    }

    /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_,_)`` and
    /// ``finish(timeout:fileID:filePath:line:column:)`` wait by default: 10 seconds.
    ///
    /// Only a test that fails waits that long: an action is received as soon as it arrives. The
    /// margin is for machines under load (CI running many suites at once on two cores), where an
    /// effect can wait seconds for a thread; a test that waits on a feature's clock uses a
    /// `TestClock` instead, and never needs the margin.
    public var timeout: Duration = .seconds(10)

    /// The clock the store's own waits are measured on: how long ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_,_)``,
    /// ``finish(timeout:fileID:filePath:line:column:)`` and ``waitForEffects(timeout:)`` look
    /// for an action or for the effects to end before they fail.
    ///
    /// The continuous clock by default. These waits do not hold a feature back: an action that
    /// an effect sends is received as soon as it arrives, so with the feature's own clock a
    /// `TestClock` (its waits advanced by the test) no test waits on the wall clock. Set an
    /// `ImmediateClock` to make the timeouts themselves count turns instead of time: each look
    /// for the action advances it by a millisecond.
    public var timeoutClock: any Clock<Duration> = ContinuousClock()

    /// The store under test. Scope it, or pass it to code that takes a store.
    public let store: PrismStore<State, Action>

    private let recorder: TestStoreRecorder<State, Action>
    private let checks: EndOfTestChecks
    private var hasAsserted = false

    /// Creates a test store that runs `reducer`, with the dependencies `prepareDependencies`
    /// sets.
    ///
    /// The reducer and every effect it starts see these dependencies (see
    /// `PrismStore(initialState:reducer:withDependencies:)`); nothing leaks to other tests. A
    /// dependency the feature uses that the test did not set and that has no test value (a
    /// clock, a date, a UUID generator, an HTTP client) fails the test, naming it:
    ///
    /// ```swift
    /// let clock = PrismTestClock()
    /// let store = PrismTestStore(initialState: SearchState(), reducer: SearchFeature()) {
    ///     $0.continuousClock = clock
    /// }
    /// await store.send(.queryChanged("prism")) { $0.query = "prism" }
    /// await clock.advance(by: .milliseconds(300))
    /// await store.receive(.search("prism")) { ... }
    /// ```
    public init<R: PrismReducer>(
        initialState: State,
        reducer: R,
        withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where R.State == State, R.Action == Action {
        let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let checks = EndOfTestChecks(fileID: fileID, filePath: filePath, line: line, column: column)
        let recorder = TestStoreRecorder<State, Action>(checks: checks)
        self.checks = checks
        self.recorder = recorder
        self.store = PrismStore(
            initialState: initialState,
            reducer: PrismReduce<State, Action> { state, action in
                let before = state
                // Shared values are references, the same in `before` and `state`: note their
                // values before and after the action too.
                let (effect, sharedChanges) = PrismSharedTools.Tracking.track {
                    reducer.reduce(into: &state, action: action)
                }
                recorder.record(action: action, before: before, after: state, sharedChanges: sharedChanges)
                return effect
            },
            withDependencies: prepareDependencies
        )
        // Effects run on an executor that counts their work, so that PrismTestClock can wait
        // until they have settled before it moves time on.
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            store.tools.setEffectExecutor(PrismTestEffectExecutor())
        }
        store.unhandledEffectErrorHandler = { error in
            site.reportIssue(
                "An effect failed: \(error.description)"
            )
        }
    }

    /// Creates a test store that runs the closure `reduce`.
    ///
    /// ```swift
    /// let store = PrismTestStore(
    ///     initialState: CounterState(),
    ///     reduce: { state, action in
    ///         switch action {
    ///         case .increment: state.count += 1
    ///         case .decrement: state.count -= 1
    ///         }
    ///         return .none
    ///     }
    /// )
    /// ```
    public convenience init(
        initialState: State,
        reduce: @escaping @MainActor @Sendable (inout State, Action) -> PrismEffect<Action>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            initialState: initialState,
            reducer: PrismReduce(reduce),
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column
        )
    }

    deinit {
        checks.reportAtEnd()
    }

    /// The current state.
    public var state: State { store.state }

    // MARK: Light style

    /// Sends `action`, as `PrismStore.send(_:)` does. A light store checks nothing; an
    /// exhaustive one (``exhaustivity`` `.on`, or `.automatic` after the test's first assertion)
    /// checks that the action changed nothing, as `send(action) { _ in }` would: a change the
    /// test did not describe fails it, with a diff.
    ///
    /// Actions sent by its effects are recorded: assert them with ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_,_)``
    /// or leave them (a light test never has to).
    @discardableResult
    public func send(
        _ action: Action,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> PrismEffectTask {
        let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        guard isExhaustive else { return sendUnchecked(action) }
        return sendAsserting(
            action, assert: { _ in }, what: "sending \(action) without a closure (so: no change)", at: site)
    }

    /// Sends `action` and records what it does, checking nothing.
    private func sendUnchecked(_ action: Action) -> PrismEffectTask {
        recorder.capturesSentAction = true
        defer { recorder.capturesSentAction = false }
        let task = store.send(action)
        checks.track(task, startedBy: "\(action)")
        return task
    }

    /// Waits until every effect the test's sends started has finished, and the actions they
    /// sent have been reduced.
    ///
    /// - Throws: ``PrismTestStoreError`` with code ``PrismTestStoreError/Code/timedOut`` when
    ///   effects are still running after `timeout` (default: ``timeout``).
    public func waitForEffects(timeout: Duration? = nil) async throws {
        let limit = timeout ?? self.timeout
        guard await waitUntil(limit, { self.checks.runningTasks.isEmpty }) else {
            let running = checks.runningTasks
            throw PrismTestStoreError(
                code: .timedOut,
                message: """
                    \(running.count) effect(s) were still running after \(limit):
                    \(EndOfTestChecks.describe(running))
                    An effect that never ends (a timer, a stream) must be cancelled by the feature, \
                    or skipped with store.skipInFlightEffects().
                    """
            )
        }
    }

    // MARK: Exhaustive style

    /// Sends `action` and checks that it changes the state exactly as `updateStateToExpectedResult`
    /// describes, starting from the state before the action.
    ///
    /// ```swift
    /// await store.send(.increment) { $0.count = 1 }
    /// await store.send(.noop) { _ in }    // expects no change at all
    /// ```
    ///
    /// When the states differ the test fails with a diff (expected −, actual +). In
    /// ``PrismExhaustivity/off`` mode, only the properties the closure sets are compared.
    @discardableResult
    public func send(
        _ action: Action,
        assert updateStateToExpectedResult: (inout State) throws -> Void,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> PrismEffectTask {
        sendAsserting(
            action, assert: updateStateToExpectedResult, what: "sending \(action)",
            at: TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Sends `action` and checks its change against `updateStateToExpectedResult`, and that no
    /// received action was left unasserted before it.
    private func sendAsserting(
        _ action: Action,
        assert updateStateToExpectedResult: (inout State) throws -> Void,
        what: String,
        at site: TestCallSite
    ) -> PrismEffectTask {
        beginAssertion()
        if isExhaustive && !recorder.received.isEmpty {
            site.reportIssue(
                """
                Sent \(action) while \(recorder.received.count) received action(s) were not asserted:
                \(recorder.received.map { "  • \($0.action)" }.joined(separator: "\n"))

                Receive them first with `await store.receive(...)`, or call `store.skipReceivedActions()`.
                """
            )
            recorder.removeAllReceived()
        }
        recorder.sent = nil
        let task = sendUnchecked(action)
        guard let reduction = recorder.sent else {
            site.reportIssue(
                "The store did not reduce \(action) synchronously; was it sent while the store was reducing?"
            )
            return task
        }
        expect(
            reduction,
            matches: updateStateToExpectedResult,
            what: what,
            at: site
        )
        return task
    }

    /// Waits for the next action an effect sent back, checks that it is `expectedAction`, and
    /// that it changed the state as `updateStateToExpectedResult` describes (no change at all
    /// when the closure is omitted, in exhaustive mode).
    ///
    /// ```swift
    /// await store.receive(.remoteCountLoaded(42)) {
    ///     $0.isLoading = false
    ///     $0.count = 42
    /// }
    /// ```
    public func receive(
        _ expectedAction: Action,
        timeout: Duration? = nil,
        assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async where Action: Equatable {
        let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            matching: { $0 == expectedAction },
            description: "\(expectedAction)",
            expected: expectedAction,
            timeout: timeout,
            assert: updateStateToExpectedResult,
            at: site
        )
    }

    /// Waits for the next action an effect sent back, checks that `isMatching` accepts it, and
    /// that it changed the state as `updateStateToExpectedResult` describes.
    ///
    /// For actions that are not `Equatable`, or to match a case whatever its payload:
    ///
    /// ```swift
    /// await store.receive(
    ///     { if case .usersLoaded = $0 { true } else { false } },
    ///     assert: { $0.isLoading = false }
    /// )
    /// ```
    public func receive(
        _ isMatching: (Action) -> Bool,
        timeout: Duration? = nil,
        assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            matching: isMatching,
            description: "an action matching the predicate",
            expected: nil,
            timeout: timeout,
            assert: updateStateToExpectedResult,
            at: site
        )
    }

    /// Waits for an action of one case (a child feature's action, say) and checks how it
    /// changed the state, without comparing the action's payload.
    ///
    /// `toCaseValue` gets the payload back out of an action of that case, or nil for any other
    /// action: typically a key path to the action enum's optional property for the case.
    ///
    /// ```swift
    /// await store.receive(\.row) {
    ///     $0.rows[id: 1]?.ticks = 1
    /// }
    /// ```
    ///
    /// In exhaustive mode the next action received must be of that case; otherwise actions
    /// before the first of that case are skipped.
    public func receive<CaseValue>(
        _ toCaseValue: (Action) -> CaseValue?,
        timeout: Duration? = nil,
        assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            matching: { toCaseValue($0) != nil },
            description: "an action with a \(CaseValue.self) payload",
            expected: nil,
            timeout: timeout,
            assert: updateStateToExpectedResult,
            at: site
        )
    }

    /// Forgets every received action that was not asserted, so that the test need not.
    public func skipReceivedActions() {
        recorder.removeAllReceived()
    }

    /// Cancels every effect still running and forgets them, so that the test need not wait
    /// for them.
    public func skipInFlightEffects() {
        checks.cancelAndForgetTasks()
    }

    /// Waits for every effect to finish, then checks that every action they sent was received
    /// (in exhaustive mode). Fails the test when effects are still running after `timeout`.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = TestCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        beginAssertion()
        let limit = timeout ?? self.timeout
        if !(await waitUntil(limit, { self.checks.runningTasks.isEmpty })) {
            let running = checks.runningTasks
            site.reportIssue(
                """
                \(running.count) effect(s) were still running after \(limit):
                \(EndOfTestChecks.describe(running))

                An effect that never ends (a timer, a stream) must be cancelled by the feature, or \
                skipped with `store.skipInFlightEffects()`.
                """
            )
            return
        }
        if isExhaustive && !recorder.received.isEmpty {
            site.reportIssue(
                """
                The effects sent \(recorder.received.count) action(s) that the test did not receive:
                \(recorder.received.map { "  • \($0.action)" }.joined(separator: "\n"))

                Assert each with `await store.receive(...)`, or call `store.skipReceivedActions()`.
                """
            )
            recorder.removeAllReceived()
        }
    }

    // MARK: Plumbing

    private var isExhaustive: Bool {
        switch exhaustivity {
        case .on: return true
        case .off: return false
        case .automatic: return hasAsserted
        }
    }

    private func beginAssertion() {
        hasAsserted = true
        checks.setExhaustive(isExhaustive)
    }

    private func receive(
        matching isMatching: (Action) -> Bool,
        description: String,
        expected: Action?,
        timeout: Duration?,
        assert updateStateToExpectedResult: ((inout State) throws -> Void)?,
        at site: TestCallSite
    ) async {
        beginAssertion()
        let limit = timeout ?? self.timeout
        let exhaustive = isExhaustive
        let arrived = await waitUntil(limit) {
            exhaustive ? !self.recorder.received.isEmpty : self.recorder.received.contains { isMatching($0.action) }
        }
        guard arrived else {
            site.reportIssue(
                """
                Expected to receive \(description), but \(recorder.received.isEmpty ? "no action arrived" : "it did not arrive") \
                within \(limit). \(checks.runningTasks.count) effect(s) are still running.
                """
            )
            return
        }
        if !exhaustive {
            while let first = recorder.received.first, !isMatching(first.action) { _ = recorder.removeFirstReceived() }
        }
        let reduction = recorder.removeFirstReceived()
        guard isMatching(reduction.action) else {
            let detail =
                expected.flatMap { diff($0, reduction.action) }.map { "\n\n\($0)\n(Expected: −, Received: +)" } ?? ""
            site.reportIssue(
                """
                Received an unexpected action. Expected \(description), received \(reduction.action).\(detail)
                """
            )
            return
        }
        expect(
            reduction,
            matches: updateStateToExpectedResult ?? { _ in },
            what: "receiving \(reduction.action)",
            at: site
        )
    }

    private func expect(
        _ reduction: TestStoreRecorder<State, Action>.Reduction,
        matches updateStateToExpectedResult: (inout State) throws -> Void,
        what: String,
        at site: TestCallSite
    ) {
        // While the closure runs and the states are compared, each shared value the action
        // changed reads as the test expects it (starting from its value before the action, in an
        // exhaustive test) and compares with the value the action left.
        let difference: String? = PrismSharedTools.Tracking.asserting(
            reduction.sharedChanges,
            startingFromBefore: isExhaustive
        ) {
            var expected = isExhaustive ? reduction.before : reduction.after
            do {
                try updateStateToExpectedResult(&expected)
            } catch {
                site.reportIssue(error, "The assertion closure threw")
                return nil
            }
            guard expected != reduction.after else { return nil }
            // A shared value shows its expected value on both sides of the states' diff: its
            // difference is shown apart, by key.
            var parts: [String] = []
            let stateDifference = PrismSharedTools.Tracking.describingStates { diff(expected, reduction.after) }
            if let stateDifference { parts.append(stateDifference) }
            for shared in PrismSharedTools.Tracking.assertedDifferences() {
                let name = shared.id.map { "Shared value '\($0)'" } ?? "A shared value"
                let difference =
                    diff(shared.expected, shared.actual) ?? "expected: \(shared.expected)\nactual: \(shared.actual)"
                parts.append("\(name):\n\(difference)")
            }
            return parts.isEmpty ? "expected: \(expected)\nactual: \(reduction.after)" : parts.joined(separator: "\n\n")
        }
        guard let difference else { return }
        site.reportIssue(
            """
            The state after \(what) is not what the test describes:

            \(difference)

            (Expected: −, Actual: +)
            """
        )
    }

    /// Polls `condition` on the main actor until it holds or `limit` passes.
    private func waitUntil(_ limit: Duration, _ condition: @MainActor () -> Bool) async -> Bool {
        await waitUntil(limit, on: timeoutClock, condition)
    }

    /// Looks for `condition` (letting other tasks run first) until `limit` has passed on `clock`.
    private func waitUntil<C: Clock<Duration>>(
        _ limit: Duration,
        on clock: C,
        _ condition: @MainActor () -> Bool
    ) async -> Bool {
        let deadline = clock.now.advanced(by: limit)
        while !condition() {
            // Most actions arrive after a few turns of the executors: look again before waiting.
            for _ in 0..<20 where !condition() { await Task.yield() }
            if condition() { return true }
            if clock.now >= deadline { return false }
            try? await clock.sleep(for: .milliseconds(1))
        }
        return true
    }
}

/// Where a test store was called from: where an issue it finds is reported.
struct TestCallSite: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// Records `message` as an issue of the running test, at this place.
    func reportIssue(_ message: String) {
        IssueReporting.reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Records `error` as an issue of the running test, with `message`, at this place.
    func reportIssue(_ error: any Error, _ message: String) {
        IssueReporting.reportIssue(error, message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
