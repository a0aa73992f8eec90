import Observation

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Records a snapshot of the state at every action, and moves back and forth through them.
///
/// ```swift
/// let debugger = PrismTimeTravelDebugger<AppState>(maxSnapshots: 100)
///
/// // Record a snapshot after each action (or attach `debugger.middleware()` to the store):
/// debugger.record(state: store.state, action: "\(action)")
///
/// // Navigate through history
/// if debugger.canGoBack {
///     let snapshot = debugger.goBack()
///     store.replaceState(with: snapshot.state)
/// }
/// ```
///
/// History is bounded: past `maxSnapshots`, the oldest snapshot is evicted, so memory grows with
/// `maxSnapshots`, never with the number of actions. Recording after going back drops the
/// snapshots ahead of the current one, like an editor's history.
///
/// Each ``Snapshot/index`` is the snapshot's number in the recording: it stays the same when
/// older snapshots are evicted, so a list of them keeps its labels; ``goTo(index:)`` takes it.
///
/// The debugger is `Observable`: a debugging view that shows ``snapshots`` or ``currentIndex``
/// updates as actions are recorded.
@MainActor
public final class PrismTimeTravelDebugger<State>: Observable {
    /// One recorded moment: the state after an action.
    public struct Snapshot {
        /// The snapshot's number in the recording (0 for the first one ever recorded).
        public let index: Int
        /// A description of the action that led to this state.
        ///
        /// Made when it is read, not when the action is recorded (`"\(action)"` reflects on
        /// the action).
        public var action: String { describeAction() }
        /// When the snapshot was recorded.
        public let timestamp: Date
        /// The state after the action.
        public let state: State
        private let describeAction: @Sendable () -> String

        init(index: Int, timestamp: Date, state: State, describeAction: @escaping @Sendable () -> String) {
            self.index = index
            self.timestamp = timestamp
            self.state = state
            self.describeAction = describeAction
        }
    }

    /// The most snapshots kept; older ones are evicted.
    public let maxSnapshots: Int

    private var buffer: SnapshotRing<Snapshot>
    /// Position of the current snapshot in `buffer`, or nil when nothing was recorded.
    private var position: Int?
    private var nextIndex = 0
    private let registrar = ObservationRegistrar()

    /// Creates a debugger that keeps at most `maxSnapshots` snapshots.
    ///
    /// - Precondition: `maxSnapshots` is at least 1.
    public init(maxSnapshots: Int = 100) {
        precondition(
            maxSnapshots >= 1, "PrismTimeTravelDebugger needs room for at least one snapshot (maxSnapshots >= 1).")
        self.maxSnapshots = maxSnapshots
        self.buffer = SnapshotRing(capacity: maxSnapshots)
    }

    /// Records `state`, reached by `action`, as the newest snapshot and makes it current.
    ///
    /// Snapshots ahead of the current one (after going back) are dropped first; the oldest is
    /// evicted when the debugger is full.
    public func record(state: State, action: String) {
        record(state: state) { action }
    }

    /// Records `state` with an action description made only when ``Snapshot/action`` is read.
    func record(state: State, describeAction: @escaping @Sendable () -> String) {
        registrar.withStateMutation {
            if let position { buffer.removeLast(buffer.count - position - 1) }
            buffer.append(Snapshot(index: nextIndex, timestamp: Date(), state: state, describeAction: describeAction))
            nextIndex += 1
            position = buffer.count - 1
        }
    }

    /// Every snapshot kept, oldest first.
    public var snapshots: [Snapshot] {
        registrar.accessState()
        return buffer.elements
    }

    /// The snapshot the debugger is at, or nil when nothing was recorded.
    public var current: Snapshot? {
        registrar.accessState()
        return position.map { buffer[$0] }
    }

    /// The ``Snapshot/index`` of the current snapshot, or nil when nothing was recorded.
    public var currentIndex: Int? { current?.index }

    /// Whether there is an older snapshot to go back to.
    public var canGoBack: Bool {
        registrar.accessState()
        return (position ?? 0) > 0
    }

    /// Whether there is a newer snapshot to go forward to (after going back).
    public var canGoForward: Bool {
        registrar.accessState()
        guard let position else { return false }
        return position < buffer.count - 1
    }

    /// Moves to the previous snapshot and returns it.
    ///
    /// When ``canGoBack`` is false the debugger stays where it is and returns the current
    /// snapshot: check it first, as in the example above.
    ///
    /// - Precondition: at least one snapshot was recorded.
    @discardableResult
    public func goBack() -> Snapshot {
        move(by: -1)
    }

    /// Moves to the next snapshot and returns it.
    ///
    /// When ``canGoForward`` is false the debugger stays where it is and returns the current
    /// snapshot.
    ///
    /// - Precondition: at least one snapshot was recorded.
    @discardableResult
    public func goForward() -> Snapshot {
        move(by: 1)
    }

    /// Moves to the snapshot numbered `index` (its ``Snapshot/index``) and returns it, or
    /// returns nil and stays put when no kept snapshot has that number (never recorded, or
    /// evicted).
    @discardableResult
    public func goTo(index: Int) -> Snapshot? {
        guard let first = buffer.first?.index else { return nil }
        let target = index - first
        guard target >= 0, target < buffer.count else { return nil }
        registrar.withStateMutation { position = target }
        return buffer[target]
    }

    /// Drops every snapshot.
    public func clear() {
        registrar.withStateMutation {
            buffer.removeAll()
            position = nil
        }
    }

    private func move(by offset: Int) -> Snapshot {
        guard let position else {
            preconditionFailure(
                "PrismTimeTravelDebugger has no snapshot: record(state:action:) one before moving through history.")
        }
        let target = min(max(position + offset, 0), buffer.count - 1)
        if target != position {
            registrar.withStateMutation { self.position = target }
        }
        return buffer[target]
    }
}

extension PrismTimeTravelDebugger.Snapshot: Sendable where State: Sendable {}

extension PrismTimeTravelDebugger where State: Sendable {
    /// Middleware that records a snapshot after every action, so that you need not call
    /// ``record(state:action:)`` yourself.
    ///
    /// ```swift
    /// let debugger = PrismTimeTravelDebugger<AppState>(maxSnapshots: 100)
    /// let store = PrismStore(initialState: AppState(), reducer: AppReducer(), middleware: debugger.middleware())
    /// ```
    ///
    /// Jumping with ``goBack()`` and `store.replaceState(with:)` records nothing (no action ran).
    ///
    /// `describe` runs when a snapshot's ``Snapshot/action`` is read, not at every action.
    public func middleware<Action: Sendable>(
        describing describe: @escaping @Sendable (Action) -> String = { "\($0)" }
    ) -> PrismSideEffect<State, Action> {
        PrismSideEffect { [weak self] state, action in
            self?.record(state: state) { describe(action) }
            return .none
        }
    }
}
