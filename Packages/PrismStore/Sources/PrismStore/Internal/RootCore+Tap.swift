@_spi(PrismInternals) import PrismEffects

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The root's side of `PrismStore._attach(recordingInto:tap:)`: logging every reduce for a tool
// that watches the store (PrismInspector), at a cost of a few nanoseconds per send.
//
// A send writes the action, the state after it and the time into a preallocated log, in code
// specialized for the store's types. Nothing else happens until somebody looks: then the log
// moves into the tool's `PrismTimeTravelDebugger` (`moveTapLog()`), oldest first. The log holds
// as many entries as the debugger keeps snapshots, so an entry the log overwrote before
// anybody looked is one the debugger would have evicted too.
extension RootCore {
    /// `reduce` while a tool is attached: reduces (observed or not), timing the reducer while
    /// the tool asks for durations, then logs.
    ///
    /// Specialized for the store's types (inlinable) but not inlined into every send.
    @inlinable
    @inline(never)
    func reduceTapped(_ action: Action) -> PrismEffect<Action> {
        if tapMeasuresDuration { return reduceTimed(action) }
        let effect = reduceUntapped(action)
        logTapped(action, nanoseconds: -1)
        return effect
    }

    /// `reduceTapped` while the tool asks for durations.
    @inlinable
    @inline(never)
    func reduceTimed(_ action: Action) -> PrismEffect<Action> {
        let start = ContinuousClock.now
        let effect = reduceUntapped(action)
        let elapsed = (ContinuousClock.now - start).components
        logTapped(action, nanoseconds: elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        return effect
    }

    /// What `reduceTapped` times: the reducer, and the observers' notifications if any.
    @inlinable
    @inline(__always)
    func reduceUntapped(_ action: Action) -> PrismEffect<Action> {
        if isObserved || hasWatchers { return reduceObserved(action) }
        let effect = reducer(&statePointer.pointee, action)
        version &+= 1
        return effect
    }

    /// Logs `action` and the state after it, or counts it while recording is paused.
    @inlinable
    @inline(__always)
    func logTapped(_ action: Action, nanoseconds: Int64) {
        guard tapRecording, let log = tapLog else {
            tapSkipped &+= 1
            return
        }
        tapStampRemaining &-= 1
        if tapStampRemaining < 0 { refreshTapStamp() }
        let entry = ActionLogEntry(
            action: action,
            state: statePointer.pointee,
            secondsSinceReferenceDate: tapStamp,
            reduceNanoseconds: nanoseconds
        )
        let slot = log + tapNext
        if tapTotal < tapCapacity {
            slot.initialize(to: entry)
        } else {
            slot.pointee = entry
        }
        tapTotal &+= 1
        tapNext = tapNext + 1 == tapCapacity ? 0 : tapNext + 1
    }

    /// Reads the clock for the actions logged from now until the end of this main-actor turn
    /// (or the next 64 actions, whichever comes first): a clock read costs more than the rest
    /// of logging, and the actions of one turn happen together.
    @usableFromInline
    func refreshTapStamp() {
        tapStamp = tapClockBase + CoarseClock.seconds()
        tapStampRemaining = 63
        guard !tapStampExpires else { return }
        tapStampExpires = true
        Task { @MainActor [weak self] in
            guard let self else { return }
            // The next action reads the clock again.
            self.tapStampRemaining = 0
            self.tapStampExpires = false
        }
    }

    func setTap(_ newTap: PrismStoreTap<State, Action>?, debugger: PrismTimeTravelDebugger<State>?) {
        releaseTapLog()
        tap = newTap
        tapDebugger = debugger
        tapRecording = debugger != nil
        tapSkipped = 0
        tapMeasuresDuration = false
        tapClockBase = Date.now.timeIntervalSinceReferenceDate - CoarseClock.seconds()
        tapStampRemaining = 0
        if let debugger {
            tapCapacity = debugger.maxSnapshots
            tapLog = .allocate(capacity: tapCapacity)
        }
        hasTap = newTap != nil || debugger != nil
        needsObservation = isObserved || hasWatchers || hasTap
    }

    /// Moves what was logged since the last move into the debugger, oldest first, and returns
    /// how many entries were overwritten before they could move (their snapshot numbers are
    /// skipped, so that numbers still count actions).
    func moveTapLog() -> Int {
        guard let log = tapLog, let debugger = tapDebugger else { return 0 }
        let pending = tapTotal - tapMoved
        let moving = min(pending, tapCapacity)
        let lost = pending - moving
        if lost > 0 { debugger.skipIndices(lost) }
        var slot = tapNext - moving
        if slot < 0 { slot += tapCapacity }
        for _ in 0..<moving {
            let entry = log[slot]
            debugger.record(
                state: entry.state,
                payload: RecordedAction(action: entry.action),
                secondsSinceReferenceDate: entry.secondsSinceReferenceDate,
                reduceNanoseconds: entry.reduceNanoseconds
            )
            slot = slot + 1 == tapCapacity ? 0 : slot + 1
        }
        tapMoved = tapTotal
        return lost
    }

    func releaseTapLog() {
        guard let log = tapLog else { return }
        log.deinitialize(count: min(tapTotal, tapCapacity))
        log.deallocate()
        tapLog = nil
        tapCapacity = 0
        tapNext = 0
        tapTotal = 0
        tapMoved = 0
    }

    /// Tells the tool, if any, that the effects of the action just reduced run under `task`.
    func reportEffects(_ task: PrismEffectTask) {
        if hasTap, !task.isFinished { tap?.didStartEffects(task) }
    }
}

/// One reduced action in the root's log.
@usableFromInline
struct ActionLogEntry<State, Action> {
    @usableFromInline
    var action: Action
    @usableFromInline
    var state: State
    @usableFromInline
    var secondsSinceReferenceDate: Double
    @usableFromInline
    var reduceNanoseconds: Int64

    @inlinable
    init(action: Action, state: State, secondsSinceReferenceDate: Double, reduceNanoseconds: Int64) {
        self.action = action
        self.state = state
        self.secondsSinceReferenceDate = secondsSinceReferenceDate
        self.reduceNanoseconds = reduceNanoseconds
    }
}

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
        let elapsed = (ContinuousClock.now - coarseClockEpoch).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
        #endif
    }
}

#if !canImport(Darwin) && !canImport(Glibc) && !canImport(Musl)
@usableFromInline
let coarseClockEpoch = ContinuousClock.now
#endif
