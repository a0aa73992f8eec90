/// The one door through which a tool reaches a store: PrismInspector records, locks, replays and
/// steers the store through it, PrismTesting sets where the store's effects run. Get it with
/// `store.tools`.
///
/// Exposed to Prism's own modules only (`@_spi(PrismInternals)`); not a stable API. Everything a
/// tool may do to a store is here, in one place, and nothing of it passes through the store's
/// reducer: what the app's reducers and combinators are made of cannot change what a tool does.
///
/// - Attaching: ``attach(owner:recordingInto:listener:)`` records every action the root reduces
///   into a debugger, and makes `listener` hear the store's ``Event``s. One tool at a time.
/// - Recording: ``moveRecording()``, ``isRecording``, ``measuresReduceDuration``.
/// - Locking: ``lock()`` holds every action sent until ``unlock(releasing:)``.
/// - States the app did not reach by itself: ``replay``, ``replaceStateUnheard(with:)``.
/// - What a tool that writes tests needs: ``reducerType``, ``dependencyOverrides``.
/// - The debugger a tool records into, and what the store recorded of each action:
///   ``history(_:)``.
///
/// Members marked "root" must be called on a root store's tools, not a scoped store's: the root
/// is what reduces.
@_spi(PrismInternals)
@MainActor
public struct PrismStoreTools<State: Sendable, Action: Sendable> {
    @usableFromInline
    let store: PrismStore<State, Action>

    @usableFromInline
    init(store: PrismStore<State, Action>) {
        self.store = store
    }

    /// What the store tells the listener of the attached tool, on the main actor, while it works.
    /// A listener must not send to the store synchronously. (A middleware hears the app's
    /// replacements through `PrismStoreContext` instead.)
    public enum Event {
        /// The state was replaced without an action, by the app (`replaceState(with:)`, a scoped
        /// store writing through; `byTool` false) or by a tool (``replaceStateUnheard(with:)``,
        /// true): the new state.
        case stateReplaced(State, byTool: Bool)
        /// The effects of the action just reduced started, on behalf of the task given (which may
        /// have been reported before: a send's task covers the effects of every action it led to).
        case effectsStarted(PrismEffectTask)
    }

    // MARK: Instruments

    /// Runs every send made through this store's tree (the root and every store scoped from it)
    /// inside `aroundSend`, with the action sent, and every effect task the root starts inside
    /// `aroundEffect`: what an instrument that traces needs (PrismTelemetry's
    /// `PrismStoreTracing`). An effect task starts within the send that started it, so it
    /// inherits the task-local values `aroundSend` set (a span's context). Root. Replaces the
    /// send wrapper set before; effect wrappers add up.
    public func instrument(
        aroundSend: @escaping @MainActor (_ action: Any, _ send: () -> PrismEffectTask) -> PrismEffectTask,
        aroundEffect: @escaping @Sendable (_ body: @Sendable () async -> Void) async -> Void
    ) {
        let root = self.root
        root.trace.aroundSend = aroundSend
        root.trace.isOn = true
        root.addEffectContext(aroundEffect)
    }

    // MARK: Attaching

    /// Records every action the root reduces from now on for `debugger` (a snapshot of the
    /// state after it, whose action ``History/action(of:)`` gives back, its time from a coarse
    /// clock), and tells `listener` the store's events. Replaces what was attached before;
    /// `attach(recordingInto: nil, listener: nil)` detaches. Root.
    ///
    /// A send writes into a log of `debugger.maxSnapshots` entries, a few nanoseconds for a
    /// small state; the log moves into `debugger` only when ``moveRecording()`` is called.
    /// Call it before reading `debugger`.
    public func attach(
        recordingInto debugger: PrismTimeTravelDebugger<State>?,
        listener: ((Event) -> Void)?
    ) {
        root.setTap(listener, debugger: debugger)
    }

    /// Attaches like ``attach(recordingInto:listener:)`` for `owner`, unless another owner is
    /// attached: then changes nothing and returns false. One tool at a time: a second one would
    /// take the first one's recording, and the first one's detaching would end the second's.
    public func attach(
        owner: ObjectIdentifier,
        recordingInto debugger: PrismTimeTravelDebugger<State>,
        listener: @escaping (Event) -> Void
    ) -> Bool {
        if let current = root.tools?.owner, current != owner { return false }
        root.setTap(listener, debugger: debugger, owner: owner)
        return true
    }

    /// Detaches what `owner` attached; does nothing if another owner (or none) is attached.
    public func detach(owner: ObjectIdentifier) {
        guard root.tools?.owner == owner else { return }
        root.setTap(nil, debugger: nil)
    }

    /// The owner of what is attached (see ``attach(owner:recordingInto:listener:)``), if any.
    public var attachedOwner: ObjectIdentifier? {
        root.tools?.owner
    }

    // MARK: Recording

    /// Moves what was recorded since the last call into the debugger given to
    /// ``attach(recordingInto:listener:)``, oldest first. Returns how many actions were recorded
    /// but overwritten before this call could move them (more than the debugger keeps); their
    /// snapshot numbers are skipped.
    @discardableResult
    public func moveRecording() -> Int {
        root.tools?.moveLog() ?? 0
    }

    /// How many recorded actions ``moveRecording()`` has not moved yet: the newest of them
    /// will be snapshot number `history(debugger).nextIndex + recordingsNotMoved - 1`.
    public var recordingsNotMoved: Int {
        guard let recording = root.tools else { return 0 }
        return recording.total - recording.moved
    }

    /// Whether actions are recorded (false: paused, and counted in ``actionsNotRecorded``).
    public var isRecording: Bool {
        get { root.tools?.isRecording ?? false }
        nonmutating set {
            guard let recording = root.tools else { return }
            recording.isRecording = newValue && recording.debugger != nil
        }
    }

    /// How many actions were reduced while recording was paused, since attaching or since the
    /// last ``takeActionsNotRecorded()``.
    public var actionsNotRecorded: Int { root.tools?.skipped ?? 0 }

    /// Returns ``actionsNotRecorded`` and starts counting again from zero.
    public func takeActionsNotRecorded() -> Int {
        guard let recording = root.tools else { return 0 }
        defer { recording.skipped = 0 }
        return recording.skipped
    }

    /// Whether each reduce is timed (two precise clock reads per send) and the duration
    /// recorded in the snapshot.
    public var measuresReduceDuration: Bool {
        get { root.tools?.measuresDuration ?? false }
        nonmutating set { root.tools?.measuresDuration = newValue }
    }

    // MARK: Locking

    /// Whether the attached tool locked the store (see ``lock()``).
    public var isLocked: Bool { root.tools?.isLocked ?? false }

    /// Locks the store while a tool is attached: every action sent from then on (by the app,
    /// a scoped store or an effect) is held in order, not reduced, until ``unlock(releasing:)``.
    /// A send of a held action returns a finished task. Past 100,000 held actions the store
    /// unlocks itself and reduces them (see ``takeUnlockedByOverflow()``); detaching the tool
    /// reduces them too. Does nothing when no tool is attached.
    public func lock() {
        root.tools?.isLocked = true
    }

    /// Unlocks the store: the held actions are reduced in order, as if sent now (`releasing`),
    /// or dropped. Returns how many were held.
    @discardableResult
    public func unlock(releasing: Bool) -> Int {
        root.unlock(releasing: releasing)
    }

    /// How many actions the lock holds.
    public var heldActions: Int { root.tools?.held.count ?? 0 }

    /// Whether the store unlocked itself because too many actions were held, since the last
    /// call.
    public func takeUnlockedByOverflow() -> Bool {
        guard let recording = root.tools else { return false }
        defer { recording.unlockedByOverflow = false }
        return recording.unlockedByOverflow
    }

    /// Sends `action` past the lock (the tool's own send), noting its call site.
    @discardableResult
    public func sendPastLock(
        _ action: Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        function: StaticString = #function
    ) -> PrismEffectTask {
        let root = self.root
        if root.tools?.isLocked == true { root.tools?.passesLockOnce = !root.isSending }
        return store.send(action, fileID: fileID, line: line, function: function)
    }

    /// Sends `action` without noting a call site: the baseline the trace's benchmark compares
    /// `send` with. Any store.
    @inlinable
    @discardableResult
    public func sendUntraced(_ action: Action) -> PrismEffectTask {
        store.sendAction(action)
    }

    // MARK: States the app did not reach by itself

    /// The root's reducer (with its middleware): for tools that compute states from recorded
    /// actions without running effects, such as loading a session recording. Root.
    public var reducer: (inout State, Action) -> PrismEffect<Action> {
        root.reducer
    }

    /// Replaces the root's state without telling the middleware that asked (`PrismStoreContext`):
    /// for a tool that puts the store in a state the app did not reach by itself (a loaded
    /// recording, a jump in a debugger's history), which its middleware must not save or report
    /// as the app's. Observers are told, as for any change. Until the app reduces an action of
    /// its own, a persisting middleware that saves (a save pending from the app's last action)
    /// reads the state this replaced, not this one. Root.
    public func replaceStateUnheard(with state: State) {
        root.replaceStateForTool(state)
    }

    /// How a tool recomputes states from recorded actions (loading a session recording): the
    /// root's reducer with every middleware silent, its effects dropped. However the reducer was
    /// built, no middleware hears a replayed action and no effect runs. Root.
    public var replay: (inout State, Action) -> Void {
        let root = self.root
        return { state, action in root.replay(&state, action) }
    }

    /// The current state, read without observing it (a tool reading the state must not make
    /// the next send pay for telling observers). Any store.
    public var currentState: State {
        store.core.currentState
    }

    /// Whether this store owns its state (it was not made by scoping another store).
    public var isRoot: Bool {
        store.rootCore != nil
    }

    // MARK: For a tool that writes tests

    /// The type of the reducer the root store was made with (`PrismStore(initialState:reducer:)`),
    /// or nil for a store made with a closure. Root.
    public var reducerType: Any.Type? { root.madeWith.reducerType }

    /// The types of the dependency values the root store was made with
    /// (`PrismStore(initialState:reducer:withDependencies:)`), as Swift names them, or nil for a
    /// store made without: a test of the store must set them too. Root.
    public var dependencyOverrides: [String]? { root.madeWith.dependencyOverrides }

    /// Starts the effect tasks of this root store with a preference for `executor`: their jobs,
    /// and their child tasks', run there. PrismTestStore's executor counts them, so that its test
    /// clock can wait until they have settled. A scoped store ignores it.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public func setEffectExecutor(_ executor: (any TaskExecutor)?) {
        store.rootCore?.setEffectExecutor(executor)
    }

    private var root: RootCore<State, Action> {
        guard let root = store.rootCore else {
            preconditionFailure(
                "Attach tools that watch a store (PrismInspector) to the root store, not a scoped store.")
        }
        return root
    }
}

extension PrismStore {
    /// The door through which a tool (PrismInspector, PrismTesting) reaches this store; see
    /// ``PrismStoreTools``. Not a stable API.
    @_spi(PrismInternals)
    public var tools: PrismStoreTools<State, Action> {
        PrismStoreTools(store: self)
    }
}
