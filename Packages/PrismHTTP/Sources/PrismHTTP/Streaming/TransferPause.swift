/// Whether a transfer that cannot wait (a URLSession task, whose delegate is handed every chunk it
/// receives) is paused while its stream's queue is full, and when to tell it to stop and go on.
///
/// The channel's lock guards this value; the commands it returns are carried out after the lock is
/// released, by two threads: the delegate's (which fills the queue and suspends) and the reader's
/// (which drains it and resumes). A resume that overtakes its suspend is lost, since resuming a
/// running task does nothing, and the task then stays suspended for good (the stream ends with
/// `timedOut`). So a resume is only ever decided after the suspend has been carried out: the
/// delegate reports it (``suspendDone(queueFull:)``), and checks again whether the reader made
/// room meanwhile.
///
/// | phase | the queue fills | the suspend was carried out | the queue drains | the body ends, or the reader leaves |
/// |---|---|---|---|---|
/// | running | **suspend**, suspending | - | - | over |
/// | suspending | - (a chunk already on its way: no second suspend) | still full: suspended; drained meanwhile: **resume**, running | - (the check after suspending resumes) | over |
/// | suspended | - (a chunk already on its way) | - | **resume**, running | over |
/// | over | - | - | - | - |
///
/// The task is suspended at most once per pause: swift-corelibs-foundation counts suspends, so
/// each one would need its own resume. When a pause ends while the next begins (the reader's
/// resume still under way as a chunk already on its way fills the queue again), the two commands
/// can be carried out in either order; with counted suspends the counts balance (two suspends,
/// then the two resumes the next drains decide), and with uncounted ones the worst case is a task
/// that runs while its queue is full, until the reader drains it: never one that stalls.
/// `TransferPauseTests` walks every interleaving of both threads against both kinds of task.
struct TransferPause: Hashable, Sendable {
    enum Phase: Hashable, Sendable {
        case running
        /// Told to suspend; the suspend is not carried out yet.
        case suspending
        case suspended
        /// The body ended or the reader left: nothing is suspended or resumed any more.
        case over
    }

    enum Command: Equatable, Sendable {
        case suspend
        case resume
    }

    private(set) var phase = Phase.running

    /// The queue reached its high water.
    mutating func filled() -> Command? {
        guard phase == .running else { return nil }
        phase = .suspending
        return .suspend
    }

    /// The suspend that ``filled()`` asked for was carried out; `queueFull` is whether the queue
    /// is still at its high water.
    mutating func suspendDone(queueFull: Bool) -> Command? {
        guard phase == .suspending else { return nil }
        if queueFull {
            phase = .suspended
            return nil
        }
        phase = .running
        return .resume
    }

    /// The reader took the queue below its high water.
    mutating func drained() -> Command? {
        guard phase == .suspended else { return nil }
        phase = .running
        return .resume
    }

    /// The body ended, or the reader left (the transfer is cancelled, suspended or not).
    mutating func end() {
        phase = .over
    }
}
