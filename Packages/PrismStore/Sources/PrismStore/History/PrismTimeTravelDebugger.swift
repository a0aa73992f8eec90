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
        public var action: String { payload.description }
        /// When the snapshot was recorded.
        public var timestamp: Date { Date(timeIntervalSinceReferenceDate: secondsSinceReferenceDate) }
        /// The state after the action.
        public let state: State
        /// What the recorder kept of the action, which describes it when asked: the action in
        /// a wrapper (the middleware, tools), or its description
        /// (``PrismTimeTravelDebugger/record(state:action:)``). An existential rather than a
        /// closure, so that recording a small action allocates nothing.
        let payload: any CustomStringConvertible & Sendable
        /// How long the action's reduce took, in nanoseconds, when the recorder measured it.
        let reduceNanoseconds: Int64
        /// ``timestamp``, kept as a number: `Date` is a type of another library whose layout
        /// is not known here, and copying a snapshot that holds one costs a call per field.
        let secondsSinceReferenceDate: Double
        /// Where the shared values' journal was when the state was reached
        /// (``PrismSharedTools.Journal``), while a tool journals; 0 otherwise.
        let sharedPosition: Int

        @usableFromInline
        init(
            index: Int,
            secondsSinceReferenceDate: Double,
            state: State,
            payload: any CustomStringConvertible & Sendable,
            reduceNanoseconds: Int64,
            sharedPosition: Int
        ) {
            self.index = index
            self.secondsSinceReferenceDate = secondsSinceReferenceDate
            self.state = state
            self.payload = payload
            self.reduceNanoseconds = reduceNanoseconds
            self.sharedPosition = sharedPosition
        }
    }

    /// The most snapshots kept; older ones are evicted.
    public let maxSnapshots: Int

    // Internal and inlinable where recording touches them: a debugger records on every send,
    // and code specialized for the state costs a few nanoseconds where generic code costs
    // hundreds.
    @usableFromInline
    @exclusivity(unchecked)
    var buffer: SnapshotRing<Snapshot>
    /// Position of the current snapshot in `buffer`, or nil when nothing was recorded.
    @usableFromInline
    @exclusivity(unchecked)
    var position: Int?
    @usableFromInline
    @exclusivity(unchecked)
    var nextIndex = 0
    @usableFromInline
    let registrar = StateRegistrar()
    /// Whether somebody read the debugger since it last told its observers about a change:
    /// while nobody did, recording skips the registrar (about 40 ns).
    @usableFromInline
    @exclusivity(unchecked)
    var isObserved = false

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
        record(state: state, payload: action, secondsSinceReferenceDate: Date().timeIntervalSinceReferenceDate)
    }

    /// Records `state` with a payload that describes the action only when
    /// ``Snapshot/action`` is read.
    @inlinable
    func record(
        state: State,
        payload: some CustomStringConvertible & Sendable,
        secondsSinceReferenceDate: Double,
        reduceNanoseconds: Int64 = -1,
        sharedPosition: Int? = nil
    ) {
        let sharedPosition = sharedPosition ?? SharedJournalState.position
        mutate {
            if let position, position < buffer.count - 1 { dropSnapshots(after: position) }
            buffer.append(
                Snapshot(
                    index: nextIndex,
                    secondsSinceReferenceDate: secondsSinceReferenceDate,
                    state: state,
                    payload: payload,
                    reduceNanoseconds: reduceNanoseconds,
                    sharedPosition: sharedPosition
                )
            )
            nextIndex += 1
            position = buffer.count - 1
        }
    }

    /// Every snapshot kept, oldest first.
    public var snapshots: [Snapshot] {
        observe()
        return buffer.elements
    }

    /// The snapshot the debugger is at, or nil when nothing was recorded.
    public var current: Snapshot? {
        observe()
        return position.map { buffer[$0] }
    }

    /// The ``Snapshot/index`` of the current snapshot, or nil when nothing was recorded.
    public var currentIndex: Int? { current?.index }

    /// Whether there is an older snapshot to go back to.
    public var canGoBack: Bool {
        observe()
        return (position ?? 0) > 0
    }

    /// Whether there is a newer snapshot to go forward to (after going back).
    public var canGoForward: Bool {
        observe()
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
        guard let target = offset(of: index) else { return nil }
        mutate { position = target }
        return buffer[target]
    }

    /// Drops every snapshot.
    public func clear() {
        mutate {
            buffer.removeAll()
            position = nil
        }
    }

    /// Where the snapshot numbered `index` is in `buffer`. Numbers grow with every recording
    /// but need not be consecutive (recording after going back drops the numbers ahead), so
    /// this searches.
    func offset(of index: Int) -> Int? {
        let low = firstOffset(numberedAtLeast: index)
        return low < buffer.count && buffer[low].index == index ? low : nil
    }

    /// The position in `buffer` of the first snapshot numbered `index` or more.
    func firstOffset(numberedAtLeast index: Int) -> Int {
        var low = 0
        var high = buffer.count
        while low < high {
            let middle = (low + high) / 2
            if buffer[middle].index < index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Leaves `count` snapshot numbers unused: actions a store recorded that never reached
    /// the debugger (see `RootTools.moveLog()`).
    func skipIndices(_ count: Int) {
        nextIndex += count
    }

    /// Drops the snapshots after `position` in `buffer` (recording after going back).
    @usableFromInline
    func dropSnapshots(after position: Int) {
        buffer.removeLast(buffer.count - position - 1)
    }

    /// Records that the caller read the debugger: its observers hear about the next change.
    private func observe() {
        registrar.accessState()
        isObserved = true
    }

    /// Runs `body`, telling the observers (if anybody read since the last change).
    @inlinable
    func mutate(_ body: () -> Void) {
        guard isObserved else { return body() }
        // An observer that reads again while told observes from here, like any `Observable`.
        isObserved = false
        registrar.withStateMutation(body)
    }

    private func move(by offset: Int) -> Snapshot {
        guard let position else {
            preconditionFailure(
                "PrismTimeTravelDebugger has no snapshot: record(state:action:) one before moving through history.")
        }
        let target = min(max(position + offset, 0), buffer.count - 1)
        if target != position {
            mutate { self.position = target }
        }
        return buffer[target]
    }
}

extension PrismTimeTravelDebugger.Snapshot: Sendable where State: Sendable {}

/// An action the middleware recorded, described by the middleware's `describe` when read.
@usableFromInline
struct DescribedAction<Action: Sendable>: CustomStringConvertible, Sendable {
    @usableFromInline
    let action: Action
    @usableFromInline
    let describe: @Sendable (Action) -> String

    @inlinable
    init(action: Action, describe: @escaping @Sendable (Action) -> String) {
        self.action = action
        self.describe = describe
    }

    @usableFromInline
    var description: String { describe(action) }
}

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
    @inlinable
    public func middleware<Action: Sendable>(
        describing describe: @escaping @Sendable (Action) -> String = { "\($0)" }
    ) -> PrismSideEffect<State, Action> {
        PrismSideEffect { [weak self] state, action in
            self?.record(
                state: state,
                payload: DescribedAction(action: action, describe: describe),
                secondsSinceReferenceDate: Date().timeIntervalSinceReferenceDate
            )
            return .none
        }
    }
}
