import Observation
@_spi(PrismInternals) import PrismEffects

/// The store that owns the state: runs the reducer, starts effects, and notifies observers.
///
/// ## Send
/// `send` reduces the action, then every action the reducer asked to send immediately
/// (`.send`, `.sequence`, leading parts of `.concatenate`), in order, before it returns. A
/// send that arrives while the store is reducing (from middleware, from an observer, from a
/// `.send` effect) is queued behind the current work and reduced before the outer `send`
/// returns, never in the middle of another action. Actions from asynchronous effects arrive
/// through the runtime's mailbox on the main actor, in the order they were sent.
///
/// ## Observation
/// Nobody looking costs nothing: while nobody has read the state since the last change, a
/// send reduces in place and touches no registrar. Once somebody has read it, the next
/// changing send notifies the registrar exactly once (and, for `Equatable` state, a send that
/// changed nothing notifies nobody).
@usableFromInline
final class RootCore<State: Sendable, Action: Sendable>: StoreCore<State, Action> {
    /// The state lives behind a pointer so that the reducer's `inout` access is not a
    /// dynamically checked access to a class property (exclusivity checks cost ~10 ns).
    /// Only the main actor touches it, and never while the reducer holds it.
    @usableFromInline
    nonisolated(unsafe) let statePointer: UnsafeMutablePointer<State>

    @usableFromInline
    var state: State {
        get { statePointer.pointee }
        set { statePointer.pointee = newValue }
    }
    /// Counts changes; caches of scoped and derived stores are valid for one version.
    @usableFromInline
    @exclusivity(unchecked)
    var version: UInt64 = 1
    @usableFromInline
    let reducer: (inout State, Action) -> PrismEffect<Action>
    private let effectRuntime = PrismEffectRuntime<Action>()
    /// `==` when the state is `Equatable`: lets a send that changed nothing notify nobody.
    @usableFromInline
    let stateEquality: ((State, State) -> Bool)?

    /// Whether somebody read the root's state since the last change it was told about.
    @usableFromInline
    var isObserved = false
    private var watchers: [WeakWatcher<State>] = []
    private var watchersAtLastSweep = 0
    /// Watchers that registered while observers were being told about a change (an observer
    /// that re-tracks in its `onChange`): their baseline becomes the new state.
    private var isNotifying = false
    private var registeredWhileNotifying: [Watcher<State>] = []
    /// Whether a scoped or derived store is watching (see `Watcher`).
    @usableFromInline
    var hasWatchers = false
    /// `isObserved || hasWatchers`: the one flag the fast path checks.
    @usableFromInline
    @exclusivity(unchecked)
    var needsObservation = false

    /// Whether the store is reducing; a send that arrives meanwhile is queued.
    @usableFromInline
    @exclusivity(unchecked)
    var isSending = false
    /// Whether `queue` holds actions; checked before the fast path returns.
    @usableFromInline
    @exclusivity(unchecked)
    var hasQueuedActions = false
    private var queue: [(action: Action, task: PrismEffectTask?)] = []
    private var queueHead = 0

    @usableFromInline
    init(
        initialState: State,
        reducer: @escaping (inout State, Action) -> PrismEffect<Action>,
        equality: ((State, State) -> Bool)?
    ) {
        self.statePointer = .allocate(capacity: 1)
        self.statePointer.initialize(to: initialState)
        self.reducer = reducer
        self.stateEquality = equality
        super.init()
        effectRuntime.setDeliver { [weak self] action, task in
            self?.receive(action, task: task)
        }
    }

    deinit {
        effectRuntime.cancelAll()
        statePointer.deinitialize(count: 1)
        statePointer.deallocate()
    }

    override func cancelEffects<ID: Hashable & Sendable>(id: ID) {
        effectRuntime.cancel(id: id)
    }

    override var unhandledEffectErrorHandler: (@Sendable (PrismEffectError) -> Void)? {
        get { effectRuntime.unhandledErrorHandler }
        set { effectRuntime.unhandledErrorHandler = newValue }
    }

    override var observedState: State { observedRootState }

    /// The state, recorded as read: the next change notifies the registrar.
    @inlinable
    var observedRootState: State {
        registrar.accessState()
        if !isObserved {
            isObserved = true
            needsObservation = true
        }
        return statePointer.pointee
    }

    override var currentState: State { state }

    // MARK: Sending

    /// Sends `action`. Inlined into the caller and specialized for its types: while nobody
    /// is looking and the effect is `.none`, a send is two flag checks, the reducer and a
    /// counter. Anything else leaves the inlined path for `complete(_:)`.
    @inlinable
    func send(_ action: Action) -> PrismEffectTask {
        if isSending {
            return enqueueReentrant(action)
        }
        isSending = true
        let effect = reduce(action)
        if effect.isNone && !hasQueuedActions {
            isSending = false
            return PrismEffectTask()
        }
        return complete(effect)
    }

    /// Applies `action` to the state and notifies whoever is looking.
    @inlinable
    func reduce(_ action: Action) -> PrismEffect<Action> {
        if !needsObservation {
            let effect = reducer(&statePointer.pointee, action)
            version &+= 1
            return effect
        }
        guard !hasWatchers, let stateEquality else {
            return reduceObservedGenerally(action)
        }
        // Somebody read the root's state: notify them once if the state changed.
        var next = statePointer.pointee
        let effect = reducer(&next, action)
        if stateEquality(statePointer.pointee, next) {
            statePointer.pointee = next
            return effect
        }
        isObserved = false
        needsObservation = false
        registrar.willSetState()
        statePointer.pointee = next
        version &+= 1
        registrar.didSetState()
        return effect
    }

    /// A send made while the store is reducing: reduced after the current action.
    @usableFromInline
    func enqueueReentrant(_ action: Action) -> PrismEffectTask {
        let task = PrismEffectTask._withGroup()
        queue.append((action, task))
        hasQueuedActions = true
        return task
    }

    /// Starts `effect`, reduces the actions queued meanwhile, and ends the send.
    @usableFromInline
    func complete(_ effect: PrismEffect<Action>) -> PrismEffectTask {
        var task = PrismEffectTask()
        finish(effect, task: &task)
        return task
    }

    /// An action an effect sent, on behalf of the effects in `task`.
    private func receive(_ action: Action, task: PrismEffectTask) {
        if isSending {
            enqueueImmediate(action, for: task)
            return
        }
        isSending = true
        var task = task
        finish(reduce(action), task: &task)
    }

    /// Starts the effect of the action just reduced on behalf of `task`, reduces what was
    /// queued meanwhile, and ends the send.
    private func finish(_ effect: PrismEffect<Action>, task: inout PrismEffectTask) {
        defer { isSending = false }
        if !effect.isNone {
            effectRuntime.start(effect, task: &task) { enqueueImmediate($0, for: nil) }
        }
        drainQueue(task: &task)
    }

    private func enqueueImmediate(_ action: Action, for task: PrismEffectTask?) {
        queue.append((action, task))
        hasQueuedActions = true
    }

    /// Reduces every queued action, in order, each on behalf of its own task or of `task`.
    private func drainQueue(task: inout PrismEffectTask) {
        while queueHead < queue.count {
            let (next, explicitTask) = queue[queueHead]
            queueHead += 1
            let effect = reduce(next)
            guard !effect.isNone else { continue }
            if let explicitTask {
                // Queued sends and mailbox deliveries carry a task with a group already, so
                // starting effects adds to it and never replaces it.
                var covering = explicitTask
                effectRuntime.start(effect, task: &covering) { enqueueImmediate($0, for: explicitTask) }
            } else {
                effectRuntime.start(effect, task: &task) { enqueueImmediate($0, for: nil) }
            }
        }
        if queueHead > 0 {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
        hasQueuedActions = false
    }

    // MARK: Observation

    /// `reduce` when scoped or derived stores are watching, or the state is not `Equatable`.
    @usableFromInline
    func reduceObservedGenerally(_ action: Action) -> PrismEffect<Action> {
        if !hasWatchers && stateEquality == nil {
            // Only the root is observed and it cannot tell whether it changed: notify around
            // an in-place reduce.
            isObserved = false
            needsObservation = false
            isNotifying = true
            registrar.willSetState()
            isNotifying = false
            let effect = reducer(&statePointer.pointee, action)
            version &+= 1
            rebaseWatchersRegisteredWhileNotifying()
            registrar.didSetState()
            return effect
        }
        var next = state
        let effect = reducer(&next, action)
        commit(next)
        return effect
    }

    override func replaceState(_ newState: State) {
        if needsObservation {
            commit(newState)
        } else {
            state = newState
            version &+= 1
        }
    }

    /// Makes `next` the state, notifying (around the assignment) the registrar if the root
    /// is observed and every watcher whose value changed.
    private func commit(_ next: State) {
        if let stateEquality, stateEquality(state, next) {
            state = next
            return
        }
        let nextVersion = version &+ 1
        let notifyRoot = isObserved
        isObserved = false
        var notifiedWatchers: [Watcher<State>] = []
        if hasWatchers {
            var kept: [WeakWatcher<State>] = []
            for entry in watchers {
                guard let watcher = entry.watcher else { continue }
                if watcher.hasChanged(in: next, version: nextVersion) {
                    watcher.isRegistered = false
                    notifiedWatchers.append(watcher)
                } else {
                    kept.append(entry)
                }
            }
            watchers = kept
            watchersAtLastSweep = kept.count
            hasWatchers = !kept.isEmpty
        }
        needsObservation = hasWatchers
        isNotifying = true
        if notifyRoot { registrar.willSetState() }
        for watcher in notifiedWatchers { watcher.registrar.willSetState() }
        state = next
        version = nextVersion
        isNotifying = false
        rebaseWatchersRegisteredWhileNotifying()
        if notifyRoot { registrar.didSetState() }
        for watcher in notifiedWatchers { watcher.registrar.didSetState() }
    }

    /// An observer that re-tracked while being told about a change read the old value; like
    /// any `Observable`, it hears about the next change, not about the one it was told of.
    private func rebaseWatchersRegisteredWhileNotifying() {
        guard !registeredWhileNotifying.isEmpty else { return }
        let rebased = registeredWhileNotifying
        registeredWhileNotifying = []
        for watcher in rebased { watcher.rebase(on: state, version: version) }
    }

    func register(_ watcher: Watcher<State>) {
        if isNotifying { registeredWhileNotifying.append(watcher) }
        watchers.append(WeakWatcher(watcher: watcher))
        hasWatchers = true
        needsObservation = true
        if watchers.count > 64 && watchers.count > 2 * watchersAtLastSweep {
            watchers.removeAll { $0.watcher == nil }
            watchersAtLastSweep = watchers.count
        }
    }

    // MARK: Scoping

    override func makeReader<Value>(
        _ project: @escaping (State) -> Value,
        isEqual: ((Value, Value) -> Bool)?,
        registrar: ObservationRegistrar
    ) -> () -> Value {
        let watcher = ProjectionWatcher(root: self, project: project, isEqual: isEqual, registrar: registrar)
        return { watcher.read() }
    }

    override func scope<ChildState: Sendable, ChildAction: Sendable>(
        state toChildState: @escaping (State) -> ChildState,
        write: ((inout State, ChildState) -> Void)?
    ) -> StoreCore<ChildState, ChildAction> {
        ScopedCore<State, Action, ChildState, ChildAction>(root: self, toState: toChildState, write: write)
    }
}
