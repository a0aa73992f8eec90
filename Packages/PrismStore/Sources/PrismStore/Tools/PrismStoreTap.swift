/// What a tool that watches a store (PrismInspector) hears from it besides the recording:
/// every state replaced without an action, and every send that left effects running.
///
/// Exposed to Prism's own modules only (`@_spi(PrismInternals)`); not a stable API. Attach one
/// with `PrismStore._attach(recordingInto:tap:)`.
@_spi(PrismInternals)
@MainActor
public final class PrismStoreTap<State: Sendable, Action: Sendable> {
    let didReplaceState: (State) -> Void
    let didStartEffects: (PrismEffectTask) -> Void

    /// Creates a tap with the closures the store calls, on the main actor, while it works:
    /// they must not send to the store synchronously.
    ///
    /// - Parameters:
    ///   - didReplaceState: After the state was replaced without an action
    ///     (`replaceState(with:)`, a scoped store writing through): the new state.
    ///   - didStartEffects: After the effects of the action just reduced started, on behalf of
    ///     the task given (which may have been reported before: a send's task covers the
    ///     effects of every action it led to).
    public init(
        didReplaceState: @escaping (State) -> Void,
        didStartEffects: @escaping (PrismEffectTask) -> Void
    ) {
        self.didReplaceState = didReplaceState
        self.didStartEffects = didStartEffects
    }
}

/// An action a store recorded into a debugger for a tool (see `PrismStore._attach`): the
/// payload of the snapshot, which describes the action only when asked.
@usableFromInline
struct RecordedAction<Action: Sendable>: CustomStringConvertible, Sendable {
    @usableFromInline
    let action: Action
    /// Where the action came from, when a send or an effect noted it (see `SendTrace`).
    @usableFromInline
    let origin: ActionOrigin

    @inlinable
    init(action: Action, origin: ActionOrigin = .unknown) {
        self.action = action
        self.origin = origin
    }

    @usableFromInline
    var description: String { "\(action)" }
}

@_spi(PrismInternals)
extension PrismTimeTravelDebugger where State: Sendable {
    /// Records `state` reached by `action` as a store recording for a tool would (so that
    /// `_recordedAction(as:)` gives the action back): for tools that compute snapshots
    /// themselves, such as loading a session recording.
    public func _recordAction<Action: Sendable>(
        _ action: Action,
        state: State,
        secondsSinceReferenceDate: Double,
        reduceNanoseconds: Int64
    ) {
        record(
            state: state,
            payload: RecordedAction(action: action),
            secondsSinceReferenceDate: secondsSinceReferenceDate,
            reduceNanoseconds: reduceNanoseconds
        )
    }
}

@_spi(PrismInternals)
extension PrismTimeTravelDebugger.Snapshot {
    /// The action, when the snapshot was recorded by a store for a tool
    /// (`PrismStore._attach(recordingInto:tap:)`) and the action is an `Action`.
    public func _recordedAction<Action: Sendable>(as type: Action.Type) -> Action? {
        (payload as? RecordedAction<Action>)?.action
    }

    /// Where the recorded action was sent (`store.send`'s call site, or for an action an
    /// effect sent, where the effect was made), when it is known.
    public func _callSite<Action: Sendable>(as type: Action.Type) -> PrismCallSite? {
        (payload as? RecordedAction<Action>)?.origin.site
    }

    /// Whether an effect sent the recorded action (rather than a `send`), when the store
    /// recorded it for a tool that traces; false when not known.
    public func _isSentByEffect<Action: Sendable>(as type: Action.Type) -> Bool {
        (payload as? RecordedAction<Action>)?.origin.byEffect ?? false
    }
}

@_spi(PrismInternals)
extension PrismStore {
    /// Records every action the root reduces from now on for `debugger` (a snapshot of the
    /// state after it, whose action `_recordedAction(as:)` gives back, its time from a coarse
    /// clock), and tells `tap` about replaced states and effects. Replaces what was attached
    /// before; `_attach(recordingInto: nil, tap: nil)` detaches.
    ///
    /// A send writes into a log of `debugger.maxSnapshots` entries, a few nanoseconds for a
    /// small state; the log moves into `debugger` only when ``_moveRecording()`` is called.
    /// Call it before reading `debugger`.
    ///
    /// - Precondition: this is a root store (not scoped): the root is what reduces.
    public func _attach(recordingInto debugger: PrismTimeTravelDebugger<State>?, tap: PrismStoreTap<State, Action>?) {
        tappedRoot.setTap(tap, debugger: debugger)
    }

    /// Attaches like ``_attach(recordingInto:tap:)`` for `owner`, unless another owner is
    /// attached: then changes nothing and returns false. One tool at a time: a second one
    /// would take the first one's recording, and the first one's detaching would end the
    /// second's.
    public func _attach(
        owner: ObjectIdentifier,
        recordingInto debugger: PrismTimeTravelDebugger<State>,
        tap: PrismStoreTap<State, Action>
    ) -> Bool {
        if let current = tappedRoot.tapOwner, current != owner { return false }
        tappedRoot.setTap(tap, debugger: debugger, owner: owner)
        return true
    }

    /// Detaches what `owner` attached; does nothing if another owner (or none) is attached.
    public func _detach(owner: ObjectIdentifier) {
        guard tappedRoot.tapOwner == owner else { return }
        tappedRoot.setTap(nil, debugger: nil)
    }

    /// The owner of what is attached (see ``_attach(owner:recordingInto:tap:)``), if any.
    public var _attachedOwner: ObjectIdentifier? {
        tappedRoot.tapOwner
    }

    /// Moves what was recorded since the last call into the debugger given to
    /// ``_attach(recordingInto:tap:)``, oldest first. Returns how many actions were recorded
    /// but overwritten before this call could move them (more than the debugger keeps); their
    /// snapshot numbers are skipped.
    @discardableResult
    public func _moveRecording() -> Int {
        tappedRoot.recording?.moveLog() ?? 0
    }

    /// How many recorded actions ``_moveRecording()`` has not moved yet: the newest of them
    /// will be snapshot number `debugger._nextIndex + _recordingsNotMoved - 1`.
    public var _recordingsNotMoved: Int {
        guard let recording = tappedRoot.recording else { return 0 }
        return recording.total - recording.moved
    }

    /// Whether actions are recorded (false: paused, and counted in ``_actionsNotRecorded``).
    public var _isRecording: Bool {
        get { tappedRoot.recording?.isRecording ?? false }
        set {
            guard let recording = tappedRoot.recording else { return }
            recording.isRecording = newValue && recording.debugger != nil
        }
    }

    /// How many actions were reduced while recording was paused, since attaching or since the
    /// last ``_takeActionsNotRecorded()``.
    public var _actionsNotRecorded: Int { tappedRoot.recording?.skipped ?? 0 }

    /// Returns ``_actionsNotRecorded`` and starts counting again from zero.
    public func _takeActionsNotRecorded() -> Int {
        guard let recording = tappedRoot.recording else { return 0 }
        defer { recording.skipped = 0 }
        return recording.skipped
    }

    /// Whether each reduce is timed (two precise clock reads per send) and the duration
    /// recorded in the snapshot.
    public var _measuresReduceDuration: Bool {
        get { tappedRoot.recording?.measuresDuration ?? false }
        set { tappedRoot.recording?.measuresDuration = newValue }
    }

    // MARK: Locking

    /// Whether the attached tool locked the store (see ``_lock()``).
    public var _isLocked: Bool { tappedRoot.recording?.isLocked ?? false }

    /// Locks the store while a tool is attached: every action sent from then on (by the app,
    /// a scoped store or an effect) is held in order, not reduced, until ``_unlock(releasing:)``.
    /// A send of a held action returns a finished task. Past 100,000 held actions the store
    /// unlocks itself and reduces them (see ``_takeUnlockedByOverflow()``); detaching the tool
    /// reduces them too. Does nothing when no tool is attached.
    public func _lock() {
        tappedRoot.recording?.isLocked = true
    }

    /// Unlocks the store: the held actions are reduced in order, as if sent now (`releasing`),
    /// or dropped. Returns how many were held.
    @discardableResult
    public func _unlock(releasing: Bool) -> Int {
        tappedRoot.unlock(releasing: releasing)
    }

    /// How many actions the lock holds.
    public var _heldActions: Int { tappedRoot.recording?.held.count ?? 0 }

    /// Whether the store unlocked itself because too many actions were held, since the last
    /// call.
    public func _takeUnlockedByOverflow() -> Bool {
        guard let recording = tappedRoot.recording else { return false }
        defer { recording.unlockedByOverflow = false }
        return recording.unlockedByOverflow
    }

    /// Sends `action` past the lock (the tool's own send), noting `site` as its call site.
    @discardableResult
    public func _sendPastLock(
        _ action: Action,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        function: StaticString = #function
    ) -> PrismEffectTask {
        let root = tappedRoot
        if root.recording?.isLocked == true { root.recording?.passesLockOnce = !root.isSending }
        return send(action, fileID: fileID, line: line, function: function)
    }

    /// The root's reducer (with its middleware): for tools that compute states from recorded
    /// actions without running effects, such as loading a session recording.
    ///
    /// - Precondition: this is a root store.
    public var _reducer: (inout State, Action) -> PrismEffect<Action> {
        tappedRoot.reducer
    }

    /// Replaces the root's state without telling the middleware that asked (``PrismStoreContext``):
    /// for a tool that puts the store in a state the app did not reach by itself (a loaded
    /// recording, a jump in a debugger's history), which its middleware must not save or report
    /// as the app's. Observers are told, as for any change. Until the app reduces an action of
    /// its own, a persisting middleware that saves (a save pending from the app's last action)
    /// reads the state this replaced, not this one.
    ///
    /// - Precondition: this is a root store.
    public func _replaceStateUnheard(with state: State) {
        tappedRoot.replaceStateForTool(state)
    }

    /// How a tool recomputes states from recorded actions (loading a session recording): the
    /// root's reducer with every middleware silent, its effects dropped. However the reducer was
    /// built, no middleware hears a replayed action and no effect runs.
    ///
    /// - Precondition: this is a root store.
    public var _replay: (inout State, Action) -> Void {
        let root = tappedRoot
        return { state, action in root.replay(&state, action) }
    }

    /// The type of the reducer the root store was made with (`PrismStore(initialState:reducer:)`),
    /// or nil for a store made with a closure: for a tool that writes tests of the store.
    public var _reducerType: Any.Type? { tappedRoot.reducerType }

    /// The types of the dependency values the root store was made with
    /// (`PrismStore(initialState:reducer:withDependencies:)`), as Swift names them, or nil for a
    /// store made without: for a tool that writes tests of the store, which must set them too.
    public var _dependencyOverrides: [String]? { tappedRoot.dependencyOverrides }

    /// The current state, read without observing it (a tool reading the state must not make
    /// the next send pay for telling observers).
    public var _currentState: State {
        core.currentState
    }

    /// Whether this store owns its state (it was not made by scoping another store).
    public var _isRoot: Bool {
        rootCore != nil
    }

    private var tappedRoot: RootCore<State, Action> {
        guard let root = rootCore else {
            preconditionFailure(
                "Attach tools that watch a store (PrismInspector) to the root store, not a scoped store.")
        }
        return root
    }
}
