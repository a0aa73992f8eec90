@_spi(PrismInternals) import PrismEffects
import PrismSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The root's side of `PrismStoreTools.attach(recordingInto:listener:)`: logging every reduce for a tool
// that watches the store (PrismInspector), at a cost of a few nanoseconds per send.
//
// A send writes the action, the state after it and the time into a preallocated log, in code
// specialized for the store's types. Nothing else happens until somebody looks: then the log
// moves into the tool's `PrismTimeTravelDebugger` (`moveLog()`), oldest first. The log holds
// as many entries as the debugger keeps snapshots, so an entry the log overwrote before
// anybody looked is one the debugger would have evicted too.

/// The root store's tools part: what a tool attached (its listener, its debugger, the log of
/// reduced actions, its lock). The root holds one while a tool is attached, and nothing of it
/// otherwise.
@MainActor
@usableFromInline
final class RootTools<State: Sendable, Action: Sendable> {
    /// Who hears the store's events for the tool.
    let listener: ((PrismStoreTools<State, Action>.Event) -> Void)?
    /// Who attached the tool, when it was attached with an owner: only that owner detaches
    /// it, and no other owner attaches over it.
    let owner: ObjectIdentifier?
    /// Where the log moves when somebody looks.
    let debugger: PrismTimeTravelDebugger<State>?
    /// Whether reduced actions are logged (false while the tool paused recording).
    @usableFromInline
    @exclusivity(unchecked)
    var isRecording: Bool
    /// Actions reduced while recording was paused.
    @usableFromInline
    @exclusivity(unchecked)
    var skipped = 0
    /// Whether each reduce is timed (two precise clock reads).
    @usableFromInline
    @exclusivity(unchecked)
    var measuresDuration = false
    /// What turns the coarse clock into seconds since the reference date.
    @usableFromInline
    let clockBase: Double
    /// The time given to logged actions, and how many more may use it (see `refreshStamp()`).
    @usableFromInline
    @exclusivity(unchecked)
    var stamp: Double = 0
    /// How many more actions may use `stamp`, and whether a job that ends it is scheduled.
    @usableFromInline
    let stampCountdown = StampCountdown()
    /// The action log: `capacity` slots, the first `min(total, capacity)` of them initialized,
    /// the next write at `next`. Only the main actor touches it (and `deinit`).
    @usableFromInline
    nonisolated(unsafe) let log: UnsafeMutablePointer<ActionLogEntry<State, Action>>?
    @usableFromInline
    let capacity: Int
    @usableFromInline
    @exclusivity(unchecked)
    var next = 0
    /// Actions logged since the tool attached.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var total = 0
    /// `total` at the last move of the log into the debugger.
    var moved = 0

    /// Whether the tool locked the store: actions are held, not reduced, until it unlocks.
    @usableFromInline
    @exclusivity(unchecked)
    var isLocked = false
    /// Whether the next action reduces although the store is locked (the tool's own send).
    @usableFromInline
    @exclusivity(unchecked)
    var passesLockOnce = false
    /// The actions held while locked, oldest first.
    @usableFromInline
    @exclusivity(unchecked)
    var held: [(action: Action, origin: ActionOrigin)] = []
    /// The most actions held: one more unlocks the store, reducing those held first.
    @usableFromInline
    static var maxHeld: Int { 100_000 }
    /// Whether the store unlocked itself because too many actions were held (until the tool
    /// reads it with `takeOverflow()`).
    var unlockedByOverflow = false
    /// The app's state while the tool shows another (`RootCore.replaceStateForTool`): what
    /// storage reads until the app reduces an action of its own.
    @usableFromInline
    @exclusivity(unchecked)
    var appState: State? {
        didSet { showsToolState = appState != nil }
    }
    /// `appState != nil`, the one check a recorded reduce makes.
    @usableFromInline
    @exclusivity(unchecked)
    var showsToolState = false

    init(
        listener: ((PrismStoreTools<State, Action>.Event) -> Void)?,
        debugger: PrismTimeTravelDebugger<State>?,
        owner: ObjectIdentifier?
    ) {
        self.listener = listener
        self.owner = owner
        self.debugger = debugger
        self.isRecording = debugger != nil
        self.clockBase = Date.now.timeIntervalSinceReferenceDate - CoarseClock.seconds()
        self.capacity = debugger?.maxSnapshots ?? 0
        self.log = debugger != nil ? .allocate(capacity: capacity) : nil
    }

    deinit {
        if let log {
            log.deinitialize(count: min(total, capacity))
            log.deallocate()
        }
    }

    /// Logs `action` and `state` after it, or counts it while recording is paused.
    @inlinable
    @inline(__always)
    func log(_ action: Action, state: State, nanoseconds: Int64, origin: ActionOrigin) {
        guard isRecording, let log else {
            skipped &+= 1
            return
        }
        stampCountdown.remaining &-= 1
        if stampCountdown.remaining < 0 { refreshStamp() }
        let entry: ActionLogEntry<State, Action> = (
            action, state, stamp, nanoseconds, origin, SharedJournalState.position
        )
        let slot = log + next
        if total < capacity {
            slot.initialize(to: entry)
        } else {
            slot.pointee = entry
        }
        total &+= 1
        next = next + 1 == capacity ? 0 : next + 1
    }

    /// Reads the clock for the actions logged from now until the end of this main-actor turn
    /// (or the next 64 actions, whichever comes first): a clock read costs more than the rest
    /// of logging, and the actions of one turn happen together.
    @usableFromInline
    func refreshStamp() {
        stamp = clockBase + CoarseClock.seconds()
        let countdown = stampCountdown
        countdown.remaining = 63
        guard !countdown.expires else { return }
        countdown.expires = true
        // The job holds the countdown, not the recording: a weak reference would give the
        // recording a side table for good (every retain of it in the send path would then take
        // the slow path, twice the cost of an unattached send), and a strong one would keep a
        // store's log, and the states in it, alive after the store until the job ran.
        Task { @MainActor in
            // The next action reads the clock again.
            countdown.remaining = 0
            countdown.expires = false
        }
    }

    /// Ends the lock and returns what it held.
    @usableFromInline
    func takeHeld() -> [(action: Action, origin: ActionOrigin)] {
        isLocked = false
        passesLockOnce = false
        defer { held = [] }
        return held
    }

    /// Moves what was logged since the last move into the debugger, oldest first, and returns
    /// how many entries were overwritten before they could move (their snapshot numbers are
    /// skipped, so that numbers still count actions).
    func moveLog() -> Int {
        guard let log, let debugger else { return 0 }
        let pending = total - moved
        let moving = min(pending, capacity)
        let lost = pending - moving
        if lost > 0 { debugger.skipIndices(lost) }
        var slot = next - moving
        if slot < 0 { slot += capacity }
        for _ in 0..<moving {
            let entry = log[slot]
            debugger.record(
                state: entry.state,
                payload: RecordedAction(action: entry.action, origin: entry.origin),
                secondsSinceReferenceDate: entry.secondsSinceReferenceDate,
                reduceNanoseconds: entry.reduceNanoseconds,
                sharedPosition: entry.sharedPosition
            )
            slot = slot + 1 == capacity ? 0 : slot + 1
        }
        moved = total
        return lost
    }
}

extension RootCore {
    /// `reduce` while a tool is attached: reduces (observed or not), timing the reducer while
    /// the tool asks for durations, then logs.
    ///
    /// Specialized for the store's types (inlinable) but not inlined into every send.
    @inlinable
    @inline(never)
    func reduceRecorded(_ action: Action, into tools: RootTools<State, Action>) -> PrismEffect<Action> {
        let origin = trace.take()
        if tools.isLocked && hold(action, origin: origin, in: tools) { return .none }
        // The app acts on the state shown: from here on, that is the app's state.
        if tools.showsToolState { tools.appState = nil }
        if tools.measuresDuration { return reduceTimed(action, origin: origin, into: tools) }
        let effect = reduceUnrecorded(action)
        tools.log(action, state: statePointer.pointee, nanoseconds: -1, origin: origin)
        return effect
    }

    /// Holds `action` while the tool locked the store, unless it is the tool's own send; when
    /// the store holds too many, unlocks it: the held actions are queued, then `action`.
    /// Returns whether `action` must not be reduced now.
    @usableFromInline
    @inline(never)
    func hold(_ action: Action, origin: ActionOrigin, in tools: RootTools<State, Action>) -> Bool {
        if tools.passesLockOnce {
            tools.passesLockOnce = false
            return false
        }
        tools.held.append((action, origin))
        if tools.held.count > RootTools<State, Action>.maxHeld {
            tools.unlockedByOverflow = true
            release(tools.takeHeld())
        }
        return true
    }

    /// `reduceRecorded` while the tool asks for durations.
    @inlinable
    @inline(never)
    func reduceTimed(
        _ action: Action,
        origin: ActionOrigin,
        into tools: RootTools<State, Action>
    ) -> PrismEffect<Action> {
        let start = ContinuousClock.now
        let effect = reduceUnrecorded(action)
        let elapsed = ContinuousClock.now - start
        tools.log(
            action, state: statePointer.pointee, nanoseconds: DurationMath.nanoseconds(elapsed), origin: origin)
        return effect
    }

    /// What `reduceRecorded` times: the reducer, and the observers' notifications if any.
    @inlinable
    @inline(__always)
    func reduceUnrecorded(_ action: Action) -> PrismEffect<Action> {
        if observation.isLookedAt { return reduceObserved(action) }
        let effect = reducer(&statePointer.pointee, action)
        version &+= 1
        return effect
    }

    /// Attaches a tool (replacing the one attached before), or detaches with two nils.
    func setTap(
        _ listener: ((PrismStoreTools<State, Action>.Event) -> Void)?,
        debugger: PrismTimeTravelDebugger<State>?,
        owner: ObjectIdentifier? = nil
    ) {
        // What a tool held is the app's: it goes on when the tool goes.
        let held = tools?.takeHeld() ?? []
        tools =
            listener != nil || debugger != nil
            ? RootTools(listener: listener, debugger: debugger, owner: owner) : nil
        trace.isOn = tools != nil || trace.aroundSend != nil
        trace.origin = .unknown
        needsObservation = observation.isLookedAt || tools != nil
        release(held)
    }

    /// Unlocks the store: the held actions are reduced in order (`releasing`) or dropped.
    /// Returns how many there were.
    func unlock(releasing: Bool) -> Int {
        guard let tools, tools.isLocked else { return 0 }
        let held = tools.takeHeld()
        if releasing { release(held) }
        return held.count
    }

    /// Tells the tool, if any, that the effects of the action just reduced run under `task`.
    func reportEffects(_ task: PrismEffectTask) {
        if let tools, !task.isFinished { tools.listener?(.effectsStarted(task)) }
    }
}

/// What a root store was made with, for a tool that writes tests.
@usableFromInline
struct MadeWith {
    /// The type of the reducer the store was made with, when made with one (a written test
    /// names it).
    @usableFromInline
    var reducerType: Any.Type?
    /// The types of the dependency values the store was made with
    /// (`PrismStore(initialState:reducer:withDependencies:)`), nil when made without: a written
    /// test says which it must set.
    var dependencyOverrides: [String]?

    @usableFromInline
    init() {}
}

/// The countdown of `RootTools.refreshStamp()`: main actor only.
@usableFromInline
final class StampCountdown: @unchecked Sendable {
    @usableFromInline
    @exclusivity(unchecked)
    var remaining = 0
    var expires = false

    init() {}
}

/// One reduced action in the root's log: the action, the state after it, when (seconds since
/// the reference date), how long its reduce took (nanoseconds, -1 when not timed), where it came
/// from, and where the shared values' journal was (`PrismSharedTools.Journal`).
@usableFromInline
typealias ActionLogEntry<State, Action> = (
    action: Action, state: State, secondsSinceReferenceDate: Double, reduceNanoseconds: Int64,
    origin: ActionOrigin, sharedPosition: Int
)

/// A monotonic clock that is cheap to read (a few nanoseconds, where a precise clock costs tens)
/// and coarse (a few milliseconds on Linux): good enough to say when an action happened.
@usableFromInline
enum CoarseClock {
    /// Seconds since an arbitrary start.
    @inlinable
    static func seconds() -> Double {
        #if canImport(Darwin)
        return Double(clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW_APPROX)) * 1e-9
        #elseif canImport(Glibc) || canImport(Musl)
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
        #else
        return DurationMath.seconds(ContinuousClock.now - coarseClockEpoch)
        #endif
    }
}

#if !canImport(Darwin) && !canImport(Glibc) && !canImport(Musl)
@usableFromInline
let coarseClockEpoch = ContinuousClock.now
#endif
