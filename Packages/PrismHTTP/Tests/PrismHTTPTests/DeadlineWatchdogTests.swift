#if AsyncHTTPClient && os(Linux)
import NIOCore
import NIOPosix
import PrismSupport
import Testing

@testable import PrismHTTP

/// The one timer behind the AsyncHTTPClient transport's body deadlines. Each test asserts an
/// order, never a duration: a deadline far off (an hour) cannot fire during a test, and a
/// deadline dropped before an earlier-due one is awaited shows it never ran, because the
/// watchdog runs due actions in deadline order.
// A watchdog that failed to move its timer to an earlier deadline would leave a test waiting
// for the hour-long one: the time limit turns that into a failure.
@Suite("DeadlineWatchdog: one timer for many deadlines", .timeLimit(.minutes(1)))
struct DeadlineWatchdogTests {
    /// What ran, in order.
    final class Log: Sendable {
        private let names = PrismLocked<[String]>([])
        func append(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.value }
    }

    /// Adds a deadline at `deadline` that logs `name`, and returns its id.
    static func add(_ watchdog: DeadlineWatchdog, _ log: Log, _ name: String, at deadline: NIODeadline) -> UInt64 {
        watchdog.add(deadline) { log.append(name) }
    }

    /// Waits until `watchdog` runs a deadline at `deadline`: every deadline due before it has
    /// run by then.
    static func waitPast(_ watchdog: DeadlineWatchdog, _ deadline: NIODeadline) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = watchdog.add(deadline) { done.resume() }
        }
    }

    // Every deadline of a test is counted from one `base`, so that however long the machine
    // takes between two calls, their order is the one written.

    @Test("deadlines run in the order they fall due, whatever the order they were added in")
    func order() async {
        let watchdog = DeadlineWatchdog(on: MultiThreadedEventLoopGroup.singleton.next())
        let log = Log()
        let base = NIODeadline.now()
        _ = Self.add(watchdog, log, "later", at: base + .milliseconds(60))
        _ = Self.add(watchdog, log, "never", at: base + .hours(1))
        _ = Self.add(watchdog, log, "sooner", at: base + .milliseconds(20))
        await Self.waitPast(watchdog, base + .milliseconds(100))
        #expect(log.all == ["sooner", "later"])
    }

    @Test("a deadline earlier than every other moves the timer to it")
    func earlierDeadlineMovesTheTimer() async {
        let watchdog = DeadlineWatchdog(on: MultiThreadedEventLoopGroup.singleton.next())
        let log = Log()
        let base = NIODeadline.now()
        let far = Self.add(watchdog, log, "far", at: base + .hours(1))
        // The timer waits for the hour; this deadline must not wait for it.
        await Self.waitPast(watchdog, base + .milliseconds(20))
        #expect(log.all.isEmpty)
        watchdog.drop(far)
    }

    @Test("a dropped deadline never runs, and the ones after it still do")
    func dropped() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let watchdog = DeadlineWatchdog(on: loop)
        let log = Log()
        let base = NIODeadline.now()
        // Added and dropped in one task of the watchdog's own event loop, where the timer runs:
        // however late this task runs, the deadline cannot fall due between the two.
        try await loop.submit {
            let first = Self.add(watchdog, log, "dropped", at: base + .milliseconds(20))
            _ = Self.add(watchdog, log, "kept", at: base + .milliseconds(40))
            watchdog.drop(first)
        }.get()
        await Self.waitPast(watchdog, base + .milliseconds(60))
        #expect(log.all == ["kept"])
    }

    @Test("deadlines met and dropped do not pile up: the heap follows the deadlines pending")
    func droppedDeadlinesDoNotPileUp() {
        let watchdog = DeadlineWatchdog(on: MultiThreadedEventLoopGroup.singleton.next())
        let log = Log()
        // As a transport's bodies do: every deadline an hour off, each dropped when its body
        // arrives, while ten stay pending.
        var pending: [UInt64] = []
        for index in 0..<10_000 {
            pending.append(Self.add(watchdog, log, "body \(index)", at: .now() + .hours(1)))
            if pending.count > 10 { watchdog.drop(pending.removeFirst()) }
        }
        #expect(watchdog.heldEntries <= 2 * 64)
        for id in pending { watchdog.drop(id) }
        #expect(log.all.isEmpty)
    }

    @Test("dropping an id twice, or one that already ran, changes nothing")
    func droppingTwice() async {
        let watchdog = DeadlineWatchdog(on: MultiThreadedEventLoopGroup.singleton.next())
        let log = Log()
        let base = NIODeadline.now()
        let ran = Self.add(watchdog, log, "ran", at: base + .milliseconds(10))
        await Self.waitPast(watchdog, base + .milliseconds(20))
        watchdog.drop(ran)
        watchdog.drop(ran)
        let later = NIODeadline.now()
        let kept = Self.add(watchdog, log, "kept", at: later + .milliseconds(10))
        await Self.waitPast(watchdog, later + .milliseconds(20))
        #expect(log.all == ["ran", "kept"])
        watchdog.drop(kept)
    }
}
#endif
