import Testing

@testable import PrismHTTP

/// Every interleaving of a URLSession delegate that fills a stream's queue and a reader that drains
/// it, with `TransferPause` deciding when the task is suspended and resumed, against a task whose
/// suspends are counted (swift-corelibs-foundation) and one whose are not.
///
/// The two threads run as the channel runs them: each decision is taken under the lock, and the
/// command it returns is carried out in a later step, so that the other thread can run in between
/// (a resume can be decided while a suspend is still under way, and the reverse). A task that has
/// been told to suspend may still deliver one chunk that was already on its way. Every state the
/// two threads can reach is visited; a state in which neither can move is an end, and it must be
/// one the reader sees: the whole body read and ended, or the reader gone. Anything else is a
/// stream that stalled until its idle timeout.
@Suite("Pausing a URLSession transfer while the stream's queue is full: every interleaving")
struct TransferPauseTests {
    enum TaskKind: CaseIterable, Sendable {
        /// Each suspend needs its own resume (swift-corelibs-foundation).
        case countsSuspends
        /// A suspend of a suspended task, or a resume of a running one, does nothing.
        case togglesSuspended
    }

    /// What the delegate's thread does next.
    enum DelegateStep: Hashable {
        case receive
        case suspend
        case reportSuspend
        case resume
    }

    /// What the reader's thread does next.
    enum ReaderStep: Hashable {
        case read
        case resume
        case gone
    }

    /// Both threads, the queue, the task and the machine: one point of an interleaving.
    struct World: Hashable {
        var pause = TransferPause()
        var queued = 0
        var delivered = 0
        var read = 0
        var ended = false
        var suspends = 0
        var onItsWay = 0
        var delegate = DelegateStep.receive
        var reader = ReaderStep.read
    }

    struct Model {
        var kind: TaskKind
        var chunks: Int
        var highWater: Int
        /// Whether the reader may leave before the end, and the server may fail the body early.
        var leavesAndFails: Bool

        func isRunning(_ world: World) -> Bool { world.suspends == 0 }

        func suspend(_ world: inout World) {
            switch kind {
            case .countsSuspends: world.suspends += 1
            case .togglesSuspended: world.suspends = 1
            }
        }

        /// `world` after a resume of the task, and `then`: a resume of a running task does nothing.
        func resumed(_ world: World, then: (inout World) -> Void) -> World {
            var after = world
            after.suspends = max(0, after.suspends - 1)
            then(&after)
            return after
        }

        /// Every world one step of either thread leads to, named for a failure's trace.
        func successors(of world: World) -> [(String, World)] {
            var next: [(String, World)] = []
            // The delegate's thread.
            switch world.delegate {
            case .receive:
                if !world.ended && world.reader != .gone {
                    if world.delivered < chunks && (isRunning(world) || world.onItsWay > 0) {
                        var after = world
                        if !isRunning(after) { after.onItsWay -= 1 }
                        after.delivered += 1
                        after.queued += 1
                        if after.queued >= highWater, after.pause.filled() == .suspend {
                            after.delegate = .suspend
                        }
                        next.append(("chunk \(after.delivered) arrives, \(after.queued) queued", after))
                    }
                    // The transfer completes (or fails) only while the task runs.
                    if isRunning(world) && (world.delivered == chunks || leavesAndFails) {
                        var after = world
                        after.ended = true
                        after.pause.end()
                        next.append((world.delivered == chunks ? "the body ends" : "the transfer fails", after))
                    }
                }
            case .suspend:
                var after = world
                suspend(&after)
                after.onItsWay = after.delivered < chunks ? 1 : 0
                after.delegate = .reportSuspend
                next.append(("the delegate suspends the task", after))
            case .reportSuspend:
                var after = world
                let command = after.pause.suspendDone(queueFull: after.queued >= highWater)
                after.delegate = command == .resume ? .resume : .receive
                next.append(("the delegate reports its suspend (\(after.queued) queued)", after))
            case .resume:
                next.append(("the delegate resumes the task", resumed(world) { $0.delegate = .receive }))
            }
            // The reader's thread.
            switch world.reader {
            case .read:
                if world.queued > 0 {
                    var after = world
                    after.queued -= 1
                    after.read += 1
                    if after.queued < highWater, after.pause.drained() == .resume {
                        after.reader = .resume
                    }
                    next.append(("the reader takes chunk \(after.read), \(after.queued) queued", after))
                }
                if leavesAndFails {
                    var after = world
                    after.reader = .gone
                    after.queued = 0
                    after.pause.end()
                    next.append(("the reader leaves", after))
                }
            case .resume:
                next.append(("the reader resumes the task", resumed(world) { $0.reader = .read }))
            case .gone:
                break
            }
            return next
        }

        /// Whether a world where nothing can move is one the reader sees end.
        func isFinished(_ world: World) -> Bool {
            world.reader == .gone || (world.ended && world.queued == 0 && (world.read == chunks || leavesAndFails))
        }

        /// Visits every reachable world; returns the trace to the first one that stalls or
        /// breaks an invariant, nil when there is none.
        func firstFailure() -> [String]? {
            var seen: Set<World> = []
            var stack: [(World, [String])] = [(World(), [])]
            while let (world, trace) = stack.popLast() {
                guard seen.insert(world).inserted else { continue }
                // The task is never suspended twice by one pause plus one still being undone.
                if world.suspends > 2 { return trace + ["suspended \(world.suspends) times"] }
                let next = successors(of: world)
                if next.isEmpty && !isFinished(world) {
                    return trace + [
                        "stalled: \(world.read) of \(chunks) read, \(world.queued) queued, "
                            + "task suspended \(world.suspends) times, \(world.pause.phase)"
                    ]
                }
                for (step, after) in next { stack.append((after, trace + [step])) }
            }
            return nil
        }
    }

    @Test(
        "a stream never stalls, whatever the order of the suspend, the reads and the resumes",
        arguments: TaskKind.allCases)
    func neverStalls(kind: TaskKind) {
        for highWater in 1...3 {
            for chunks in 1...6 {
                for leavesAndFails in [false, true] {
                    let model = Model(kind: kind, chunks: chunks, highWater: highWater, leavesAndFails: leavesAndFails)
                    let failure = model.firstFailure()
                    #expect(
                        failure == nil,
                        "\(kind), high water \(highWater), \(chunks) chunks: \(failure?.joined(separator: "; ") ?? "")")
                }
            }
        }
    }

    @Test("the task is suspended once per pause, however many chunks arrive while it stops")
    func oneSuspendPerPause() {
        var pause = TransferPause()
        #expect(pause.filled() == .suspend)
        #expect(pause.filled() == nil)
        #expect(pause.suspendDone(queueFull: true) == nil)
        #expect(pause.filled() == nil)
        #expect(pause.drained() == .resume)
        #expect(pause.drained() == nil)
        #expect(pause.phase == .running)
    }

    @Test("a reader that drains the queue before the suspend is carried out gets the task resumed after it")
    func drainedBeforeTheSuspend() {
        var pause = TransferPause()
        #expect(pause.filled() == .suspend)
        // The reader's drain comes first: resuming now would do nothing, and be lost.
        #expect(pause.drained() == nil)
        #expect(pause.suspendDone(queueFull: false) == .resume)
        #expect(pause.phase == .running)
    }

    @Test("once the body ended or the reader left, the task is neither suspended nor resumed")
    func nothingAfterTheEnd() {
        var pause = TransferPause()
        #expect(pause.filled() == .suspend)
        pause.end()
        #expect(pause.suspendDone(queueFull: false) == nil)
        #expect(pause.drained() == nil)
        #expect(pause.filled() == nil)
    }
}
