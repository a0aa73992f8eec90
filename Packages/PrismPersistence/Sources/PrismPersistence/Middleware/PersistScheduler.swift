import PrismStore

/// Decides when `PrismPersistMiddleware` saves: the first change at once, then at most one
/// save of the latest state per window.
///
/// Lives on the main actor with the store, so a send takes no lock and allocates nothing: it
/// notes that there is a change and, only if no window is open, hands the state to the writer
/// at once and opens one. A window is one task that sleeps for the window and, if there were
/// changes meanwhile, hands the latest state to the writer and sleeps again; after a quiet
/// window it ends, and the next change is saved at once again.
///
/// The latest state comes from one of two places. Attached to its store (the middleware finds
/// it on its first actions, `look(for:)`), the scheduler reads the store's state when the window
/// ends, and a send only sets a flag. Otherwise (before that, or run by a reducer that changes
/// the state's type, such as `ifLet`) it keeps the state of every send; keeping it is a retain,
/// but it also means the reducer's next change to a collection of the state copies that
/// collection first.
///
/// `record` and `attach` are nonisolated, for a shared value's backing, which hears about changes
/// in code the compiler does not know to be on the main actor (a property wrapper's accessor):
/// they are called on the main actor all the same (by contract), and the fields they touch are
/// the main actor's (`nonisolated(unsafe)`), as `MainActor.assumeIsolated` would cost more than
/// the rest of a send.
@MainActor
@usableFromInline
final class PersistScheduler<State: Codable & Sendable> {
    /// The latest state not yet handed to the writer, when not attached to a store.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var latest: State?

    /// Whether there is a change the writer has not had.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var isDirty = false

    /// Whether the latest state is read from the store (see `attach(_:)`) rather than kept.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var readsStore = false

    /// Whether the middleware still looks for its store (`look(for:)`): on its first actions.
    private var isLooking = true
    /// How many more actions it looks on: the first may find no store published yet (see
    /// `PrismStoreContext.current(for:)`), the second finds it unless a reducer in between
    /// changed the state's type.
    private var looksLeft = 3

    /// Whether a window is open: a change now waits for its end. Read by the tests too.
    private(set) nonisolated(unsafe) var isWindowOpen = false
    private nonisolated(unsafe) var readState: (@MainActor () -> State?)?
    nonisolated let writer: PersistWriter<State>
    private nonisolated let window: Duration
    /// What the window is measured on: the continuous clock, or a test's clock.
    private nonisolated let clock: any Clock<Duration>

    nonisolated init(writer: PersistWriter<State>, window: Duration, clock: any Clock<Duration> = ContinuousClock()) {
        self.writer = writer
        self.window = window
        self.clock = clock
    }

    /// Reads the latest state with `read` from now on, instead of keeping each state sent. On
    /// the main actor, or before any change.
    nonisolated func attach(_ read: @escaping @MainActor () -> State?) {
        readState = read
        readsStore = true
        latest = nil
    }

    /// The state after an action, given by the store's reducer (the middleware's `run`): once
    /// attached, a flag check and `record`'s, as before the middleware looked for its store.
    @inlinable
    func recordFromStore(_ state: State) {
        if !readsStore { lookThenKeep(state) }
        if !isDirty { becomeDirty(state) }
    }

    /// `recordFromStore` before the scheduler reads the store: looks for it (on the first
    /// actions), and keeps `state` unless it found it.
    @usableFromInline
    func lookThenKeep(_ state: State) {
        if isLooking { look(for: state) }
        if !readsStore { latest = state }
    }

    /// Looks for the store that runs the middleware, which gave it `state`: found, the
    /// scheduler reads that store's state from now on, and records a state the app replaced.
    private func look(for state: State) {
        guard let store = PrismStoreContext.current(for: state) else {
            looksLeft -= 1
            isLooking = looksLeft > 0
            return
        }
        isLooking = false
        attach(store.read)
        store.onStateReplaced { [weak self] in self?.record($0) }
    }

    /// The state after an action: the whole cost of persistence on the send path. On the main
    /// actor.
    @inlinable
    nonisolated func record(_ state: State) {
        if !readsStore { latest = state }
        if !isDirty { becomeDirty(state) }
    }

    @usableFromInline
    nonisolated func becomeDirty(_ state: State) {
        guard !isWindowOpen else {
            isDirty = true
            return
        }
        // The first change: saved at once.
        isWindowOpen = true
        latest = nil
        writer.submit(state)
        Task { @MainActor in
            while true {
                do {
                    try await clock.sleep(for: window)
                } catch {
                    // Nothing cancels this task; if something did, save now rather than wait.
                }
                guard isDirty else {
                    isWindowOpen = false
                    return
                }
                submitLatest()
            }
        }
    }

    /// Takes the change the writer has not had, if any.
    private func takeLatest() -> State? {
        guard isDirty else { return nil }
        isDirty = false
        let state = readsStore ? readState?() : latest
        latest = nil
        return state
    }

    func submitLatest() {
        if let state = takeLatest() { writer.submit(state) }
    }

    func flush() async throws {
        try await writer.flush(takeLatest())
    }
}
