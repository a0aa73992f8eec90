#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import NIOCore
import PrismSupport

/// One timer for many deadlines: the whole-response deadlines of the AsyncHTTPClient transport's
/// bodies.
///
/// A body that has not arrived with its head needs a deadline, and nearly every one is met:
/// the body arrives and the deadline is dropped. A timer of the event loop's own for each
/// (`scheduleTask`, then `cancel`) costs two hops to the event loop's thread, each a wake-up of
/// that thread, for every such body (12-26 % of the 1 KB GETs and POSTs of the load benchmarks at
/// concurrency 1 to 64). Here the deadlines wait in a heap under a lock, and one task of the event
/// loop waits for the earliest:
///
/// | event | the event loop's timer |
/// |---|---|
/// | a deadline later than the earliest (the usual case: one timeout for every request) | untouched |
/// | a deadline earlier than the earliest, or the first | moved to it (one hop) |
/// | a deadline dropped | untouched: the timer fires at most once for it, and finds nothing |
/// | the timer fires | the due actions run, off the lock; the timer moves to the next deadline |
///
/// A dropped deadline leaves its entry in the heap until the heap has more than twice as many
/// entries as live deadlines (and more than 64): then the heap is rebuilt from the live ones, so
/// its size follows the deadlines pending, not the requests made.
final class DeadlineWatchdog: Sendable {
    /// The transport's: on one loop of AsyncHTTPClient's default event loop group.
    static let shared = DeadlineWatchdog(on: HTTPClient.defaultEventLoopGroup.next())

    private let eventLoop: any EventLoop
    private let state = PrismLocked(State())

    private struct Entry {
        var deadline: NIODeadline
        var id: UInt64
    }

    private struct State {
        /// Every deadline not yet due, dropped ones included until the next rebuild: a min-heap
        /// by deadline.
        var heap: [Entry] = []
        /// The live deadlines' actions, by id.
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        /// When the event loop's timer fires, the timer, and its generation (a timer that fires
        /// after another replaced it finds its generation gone, and does nothing); nil when none
        /// is set.
        var timer: (deadline: NIODeadline, scheduled: Scheduled<Void>, generation: UInt64)?
        var generation: UInt64 = 0
    }

    init(on eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Runs `action` at `deadline` (on the event loop), unless ``drop(_:)`` is called first with
    /// the id returned.
    func add(_ deadline: NIODeadline, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID &+= 1
            state.actions[id] = action
            Self.push(Entry(deadline: deadline, id: id), onto: &state.heap)
            if let timer = state.timer, timer.deadline <= deadline { return id }
            state.timer?.scheduled.cancel()
            setTimer(at: deadline, in: &state)
            return id
        }
    }

    /// Drops the deadline `id`: its action will not run (unless it is running already).
    func drop(_ id: UInt64) {
        state.withLock { state in
            guard state.actions.removeValue(forKey: id) != nil else { return }
            if state.heap.count > 64 && state.heap.count > 2 * state.actions.count {
                Self.rebuild(&state)
            }
        }
    }

    /// The deadlines the heap holds, dropped ones included (for tests: it must not grow with the
    /// deadlines dropped).
    var heldEntries: Int { state.withLock { $0.heap.count } }

    private func setTimer(at deadline: NIODeadline, in state: inout State) {
        state.generation &+= 1
        let generation = state.generation
        let scheduled = eventLoop.scheduleTask(deadline: deadline) { [self] in fire(generation) }
        state.timer = (deadline, scheduled, generation)
    }

    /// Runs what is due and sets the timer for the next live deadline.
    private func fire(_ generation: UInt64) {
        let now = NIODeadline.now()
        let due: [@Sendable () -> Void] = state.withLock { state in
            guard state.timer?.generation == generation else { return [] }
            state.timer = nil
            var due: [@Sendable () -> Void] = []
            while let first = state.heap.first {
                guard let action = state.actions[first.id] else {
                    _ = Self.pop(from: &state.heap)
                    continue
                }
                guard first.deadline <= now else { break }
                _ = Self.pop(from: &state.heap)
                state.actions[first.id] = nil
                due.append(action)
            }
            if let next = state.heap.first { setTimer(at: next.deadline, in: &state) }
            return due
        }
        for action in due { action() }
    }

    private static func rebuild(_ state: inout State) {
        let live = state.heap.filter { state.actions[$0.id] != nil }
        state.heap = []
        state.heap.reserveCapacity(live.count)
        for entry in live { push(entry, onto: &state.heap) }
    }

    private static func push(_ entry: Entry, onto heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func pop(from heap: inout [Entry]) -> Entry {
        let first = heap[0]
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return first }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
#endif
