import Dispatch
import Foundation
import PrismSupport

/// Something with state to save before the process ends: a `PersistScheduler`.
protocol ExitFlushable: AnyObject, Sendable {
    /// Hands the change not yet handed to the writer over to it.
    @MainActor func submitPendingForExit()
    /// Waits, up to `deadline`, until what was handed over is written.
    func waitForWrites(until deadline: DispatchTime) -> Bool
}

/// Saves the latest state of every registered middleware when the process is about to end:
/// on `SIGTERM`, `SIGINT` or `SIGHUP`, and at `exit()` (or the return from `main`).
///
/// ## Signals
/// A signal handler can do next to nothing safely, so the handler only writes the signal's
/// number into a pipe (the self-pipe pattern). A thread of its own reads it, asks the main
/// actor to hand each middleware's pending change to its writer, waits for the writers (up to
/// the timeout), puts back the signal's previous disposition and sends the signal to the
/// process again: a process that would have died of `SIGTERM` still does, with the same status,
/// after saving. A signal that was ignored when the first middleware registered (`nohup`) is
/// left alone.
///
/// ## exit()
/// An `atexit` handler does the same on the thread that calls `exit()`. The pending change is
/// read there only when that is the main thread (where the store lives); otherwise what was
/// already handed to the writers is written.
final class ExitFlusher: Sendable {
    static let shared = ExitFlusher()

    /// The signals that end a process unless handled, and that a terminal or a service
    /// manager sends to stop one.
    static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    private struct Entry {
        weak var flushable: (any ExitFlushable)?
    }

    /// The registered middlewares and what is installed for them, behind the flusher's lock.
    private struct State {
        var entries: [Entry] = []
        var timeout = Duration.zero
        var signalsInstalled = false
        var exitHandlerInstalled = false
        var previousActions: [Int32: sigaction] = [:]
    }

    private let state = PrismLocked(State())

    /// Saves `flushable`'s latest state when the process ends, waiting up to `timeout`.
    func register(_ flushable: any ExitFlushable, timeout: Duration) {
        let (installSignals, installExitHandler) = state.withLock { state -> (Bool, Bool) in
            state.entries.removeAll { $0.flushable == nil }
            if !state.entries.contains(where: { $0.flushable === flushable }) {
                state.entries.append(Entry(flushable: flushable))
            }
            state.timeout = max(state.timeout, timeout)
            defer {
                state.signalsInstalled = true
                state.exitHandlerInstalled = true
            }
            return (!state.signalsInstalled, !state.exitHandlerInstalled)
        }
        if installExitHandler { atexit(prismExitFlushAtExit) }
        if installSignals && !installSignalHandlers() {
            // No pipe (too many open files, say): no saving on a signal for now, rather than a
            // crash; the next registration tries again.
            state.withLock { $0.signalsInstalled = false }
        }
    }

    /// Installs the signal handlers and the thread that acts on them; false if it could not.
    private func installSignalHandlers() -> Bool {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A handler never blocks: with the pipe full, the reader has a signal to act on already.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        exitSignalPipe = ends[1]
        let readEnd = ends[0]
        let reader = Thread { [self] in waitForSignals(readEnd: readEnd) }
        reader.name = "PrismPersistMiddleware.flushOnExit"
        reader.start()

        for number in Self.signals {
            var previous = sigaction()
            guard sigaction(number, nil, &previous) == 0, !Self.isIgnored(previous) else { continue }
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = prismExitSignalHandler
            #else
            action.__sigaction_handler.sa_handler = prismExitSignalHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            if sigaction(number, &action, nil) == 0 {
                state.withLock { $0.previousActions[number] = previous }
            }
        }
        return true
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Darwin)
        let handler = action.__sigaction_u.__sa_handler
        #else
        let handler = action.__sigaction_handler.sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private func waitForSignals(readEnd: Int32) {
        while true {
            var byte: UInt8 = 0
            let count = read(readEnd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return }
            let number = Int32(byte)
            flushAll(readingPending: .onMainActor)
            resend(number)
        }
    }

    /// Puts back the disposition `number` had before and sends it to the process again.
    private func resend(_ number: Int32) {
        var previous = state.withLock { $0.previousActions[number] } ?? sigaction()
        sigaction(number, &previous, nil)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        kill(getpid(), number)
    }

    /// Called by the `atexit` handler.
    func flushAtExit() {
        flushAll(readingPending: Thread.isMainThread ? .here : .never)
    }

    private enum PendingRead {
        /// Ask the main actor, from another thread.
        case onMainActor
        /// This is the main thread, inside `exit()`.
        case here
        /// The pending change is out of reach: write what the writers have.
        case never
    }

    private func flushAll(readingPending read: PendingRead) {
        let (flushables, timeout) = state.withLock { ($0.entries.compactMap(\.flushable), $0.timeout) }
        guard !flushables.isEmpty else { return }
        // Saturating: `.seconds(Int64.max)` waits as long as it takes instead of trapping at exit
        // (DispatchTime's `+` saturates in turn).
        let deadline = DispatchTime.now() + .nanoseconds(Int(max(0, DurationMath.nanoseconds(timeout))))
        switch read {
        case .onMainActor:
            let handedOver = DispatchSemaphore(value: 0)
            Task { @MainActor in
                for flushable in flushables { flushable.submitPendingForExit() }
                handedOver.signal()
            }
            // A main actor that does not answer (its thread blocked) keeps what it has.
            _ = handedOver.wait(timeout: deadline)
        case .here:
            MainActor.assumeIsolated {
                for flushable in flushables { flushable.submitPendingForExit() }
            }
        case .never:
            break
        }
        for flushable in flushables { _ = flushable.waitForWrites(until: deadline) }
    }
}

/// The write end of the pipe the signal handler writes to; set once, before any handler is
/// installed.
nonisolated(unsafe) private var exitSignalPipe: Int32 = -1

/// The signal handler: writes the signal's number into the pipe, nothing else (`write` is
/// async-signal-safe), keeping `errno` as it was.
private func prismExitSignalHandler(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(exitSignalPipe, &byte, 1)
    errno = saved
}

private func prismExitFlushAtExit() {
    ExitFlusher.shared.flushAtExit()
}
