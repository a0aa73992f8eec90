import Observation
@_spi(PrismInternals) import PrismEffects
import PrismSupport

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
/// The reducer always changes the state in place: the store never copies the state to
/// compare it, so a send that changes one element of a large collection costs the same as
/// one that changes a counter, observed or not.
/// - Nobody looking costs nothing: while nobody has read the state since the last change, a
///   send reduces and touches no registrar.
/// - A reader of the whole state (`store.state`) is told once about the next send that runs
///   the reducer, whether or not that send changed the state (its `willSet` comes before the
///   reducer runs, like any `Observable`'s).
/// - A reader of a part (a member through `store.member`, a scoped store, a derived value) is
///   a `Watcher`: after each send the root compares the part it read with the part now, and
///   tells it only when that part changed (always, for a part that is not `Equatable`). The
///   cost is one projection and one `==` of that part per send, while somebody looks.
@usableFromInline
final class RootCore<State: Sendable, Action: Sendable>: StoreCore {
    @usableFromInline
    let registrar = StateRegistrar()
    @usableFromInline
    let reads = StoreReads()

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
    /// The type of the reducer the store was made with, when made with one (a tool that writes
    /// tests names it).
    @usableFromInline
    var reducerType: Any.Type?
    /// The types of the dependency values the store was made with
    /// (`PrismStore(initialState:reducer:withDependencies:)`), nil when made without: a tool
    /// that writes tests says which a test must set.
    var dependencyOverrides: [String]?
    private let effectRuntime = PrismEffectRuntime<Action>()

    /// Whether somebody read the root's state since the last change it was told about.
    @usableFromInline
    @exclusivity(unchecked)
    var isObserved = false
    /// The registered watchers, held strongly; each one's owner holds it too, so one that
    /// only this list references has no owner left and is dropped (see `checkWatchers`).
    @exclusivity(unchecked) private(set) var watchers: [Watcher] = []
    @exclusivity(unchecked) private var watchersAtLastSweep = 0
    /// Scratch for `checkWatchers`: kept to spare an allocation per send.
    @exclusivity(unchecked) private var changedWatchers: [Watcher] = []
    /// Whether a scoped or derived store is watching (see `Watcher`).
    @usableFromInline
    @exclusivity(unchecked)
    var hasWatchers = false
    /// `isObserved || hasWatchers || recording != nil`: the one flag the fast path checks.
    @usableFromInline
    @exclusivity(unchecked)
    var needsObservation = false

    /// What a tool that watches every reduce (PrismInspector) attached, while one is: its log
    /// and its hooks, in one object (see RootCore+Tap.swift). Checked after `needsObservation`.
    @usableFromInline
    @exclusivity(unchecked)
    var recording: StoreRecording<State, Action>?
    /// The call site of the send under way, while a tool traces (see `SendTrace`).
    @usableFromInline
    let trace = SendTrace()
    /// Who attached `recording`, when it was attached with an owner: only that owner detaches
    /// it, and no other owner attaches over it.
    var tapOwner: ObjectIdentifier?

    /// What marks the reducer as running for shared values (`SharedReduceMarker`), so that
    /// their reads in it skip Observation: set when the first shared value was made before
    /// this store (its state holds them); a store made earlier reads them at full price.
    @usableFromInline
    let marksShared = SharedReads.areInUse
    /// `marksShared`, or the store has not reduced an action yet (its first publishes it to the
    /// reducers that ask for it, `PrismStoreContext`): whether a reduce takes `reduceMarked`.
    @usableFromInline
    @exclusivity(unchecked)
    var marksReduces = true
    /// `SharedReduceMarker.shared`, which lives as long as the process: not retained per use.
    @usableFromInline
    unowned(unsafe) let reduceMarker = SharedReduceMarker.shared

    /// Whether the store is reducing; a send that arrives meanwhile is queued.
    @usableFromInline
    @exclusivity(unchecked)
    var isSending = false
    /// Whether `queue` holds actions; checked before the fast path returns.
    @usableFromInline
    @exclusivity(unchecked)
    var hasQueuedActions = false
    /// Queued actions, each with the task it is reduced on behalf of (nil: the send's) and,
    /// while a tool traces, where it came from.
    private var queue: [(action: Action, task: PrismEffectTask?, origin: ActionOrigin)] = []
    private var queueHead = 0

    /// What reducers that asked for this store were given (`PrismStoreContext`), and who hears
    /// the app replace the state.
    private var madeLink: StoreLink<State>?
    private var replacementListeners: [@MainActor (State) -> Void] = []

    @usableFromInline
    init(
        initialState: State,
        reducer: @escaping (inout State, Action) -> PrismEffect<Action>
    ) {
        self.statePointer = .allocate(capacity: 1)
        self.statePointer.initialize(to: initialState)
        self.reducer = reducer
        effectRuntime.setDeliver { [weak self] action, task, site in
            self?.receive(action, task: task, site: site)
        }
    }

    deinit {
        effectRuntime.cancelAll()
        statePointer.deinitialize(count: 1)
        statePointer.deallocate()
    }

    @usableFromInline
    func cancelEffects<ID: Hashable & Sendable>(id: ID) {
        effectRuntime.cancel(id: id)
    }

    /// Runs every effect task of this store inside `context` (see `PrismStore+Dependencies`).
    func setEffectContext(_ context: @escaping PrismEffectRuntime<Action>.TaskContext) {
        effectRuntime.setTaskContext(context)
    }

    /// Starts this store's effect tasks with a preference for `executor` (see
    /// `PrismStoreTools.setEffectExecutor(_:)`).
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func setEffectExecutor(_ executor: (any TaskExecutor)?) {
        effectRuntime.setTaskExecutor(executor)
    }

    @usableFromInline
    var unhandledEffectErrorHandler: (@Sendable (PrismEffectError) -> Void)? {
        get { effectRuntime.unhandledErrorHandler }
        set { effectRuntime.unhandledErrorHandler = newValue }
    }

    @usableFromInline
    var observedState: State { observedRootState }

    @usableFromInline
    var root: RootCore<State, Action>? { self }

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

    @usableFromInline
    var currentState: State { state }

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
        if marksReduces || reduceMarker.linkWanted { return reduceMarked(action) }
        return reduceUnmarked(action)
    }

    /// `reduce` with the marks a reducer may look for: that a reducer runs, for shared values
    /// (`marksShared`), and this store's link, on its first action and while a reducer asks for
    /// its store (`PrismStoreContext`). After the outermost reduce that published a link, nobody
    /// asks any more until somebody asks again.
    @usableFromInline
    @inline(never)
    func reduceMarked(_ action: Action) -> PrismEffect<Action> {
        marksReduces = marksShared
        let publishes = reduceMarker.linkWanted || madeLink == nil
        let outerLink = reduceMarker.link
        if publishes { reduceMarker.link = link }
        let effect: PrismEffect<Action>
        if marksShared {
            let outer = reduceMarker.begin()
            effect = reduceUnmarked(action)
            reduceMarker.end(outer)
        } else {
            effect = reduceUnmarked(action)
        }
        if publishes {
            reduceMarker.link = outerLink
            if outerLink == nil { reduceMarker.linkWanted = false }
        }
        return effect
    }

    /// This store as a reducer sees it (`PrismStoreContext`), made the first time one asks.
    private var link: StoreLink<State> {
        if let made = madeLink { return made }
        let made = StoreLink<State>(
            read: { [weak self] in self?.stateForStorage() },
            listen: { [weak self] body in self?.replacementListeners.append(body) }
        )
        madeLink = made
        return made
    }

    @inlinable
    func reduceUnmarked(_ action: Action) -> PrismEffect<Action> {
        if !needsObservation {
            let effect = reducer(&statePointer.pointee, action)
            version &+= 1
            return effect
        }
        if let recording {
            return reduceRecorded(action, into: recording)
        }
        if hasWatchers {
            return reduceObserved(action)
        }
        // Only readers of the whole state are looking: tell them around the reducer.
        isObserved = false
        needsObservation = false
        registrar.willSetState()
        let effect = reducer(&statePointer.pointee, action)
        version &+= 1
        // A reader that read again while told observes from here, like any `Observable`'s;
        // one that read a scoped store registered a watcher, checked now.
        if hasWatchers { checkWatchers() }
        needsObservation = isObserved || hasWatchers || recording != nil
        registrar.didSetState()
        return effect
    }

    /// A send made while the store is reducing: reduced after the current action.
    @usableFromInline
    func enqueueReentrant(_ action: Action) -> PrismEffectTask {
        let task = effectRuntime.taskWithGroup()
        queue.append((action, task, trace.isOn ? trace.take() : .unknown))
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

    /// An action an effect sent, on behalf of the effects in `task`; `site`: where that effect
    /// was made, noted for a tool that traces.
    private func receive(_ action: Action, task: PrismEffectTask, site: PrismCallSite?) {
        if isSending {
            enqueueImmediate(action, for: task, origin: ActionOrigin(site: site, byEffect: true))
            return
        }
        if trace.isOn { trace.origin = ActionOrigin(site: site, byEffect: true) }
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
            reportEffects(task)
        }
        drainQueue(task: &task)
    }

    /// Queues an action an effect sent (`origin`: immediately, from no known site, unless given).
    private func enqueueImmediate(
        _ action: Action,
        for task: PrismEffectTask?,
        origin: ActionOrigin = ActionOrigin(site: nil, byEffect: true)
    ) {
        queue.append((action, task, origin))
        hasQueuedActions = true
    }

    /// Queues actions a tool held (see `StoreRecording.isLocked`), in order, to be reduced on
    /// behalf of the send under way; reduces them now if no send is under way.
    func release(_ held: [(action: Action, origin: ActionOrigin)]) {
        guard !held.isEmpty else { return }
        for (action, origin) in held { queue.append((action, nil, origin)) }
        hasQueuedActions = true
        guard !isSending else { return }
        isSending = true
        var task = PrismEffectTask()
        finish(.none, task: &task)
    }

    /// Reduces every queued action, in order, each on behalf of its own task or of `task`.
    private func drainQueue(task: inout PrismEffectTask) {
        while queueHead < queue.count {
            let (next, explicitTask, origin) = queue[queueHead]
            queueHead += 1
            if trace.isOn { trace.origin = origin }
            let effect = reduce(next)
            guard !effect.isNone else { continue }
            if let explicitTask {
                // Queued sends and mailbox deliveries carry a task with a group already, so
                // starting effects adds to it and never replaces it.
                var covering = explicitTask
                effectRuntime.start(effect, task: &covering) { enqueueImmediate($0, for: explicitTask) }
                reportEffects(covering)
            } else {
                effectRuntime.start(effect, task: &task) { enqueueImmediate($0, for: nil) }
                reportEffects(task)
            }
        }
        if queueHead > 0 {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
        hasQueuedActions = false
    }

    // MARK: Observation

    /// `reduce` while somebody is looking: in place, between the root's `willSet` and
    /// `didSet`, then a check of every watcher.
    @inlinable
    func reduceObserved(_ action: Action) -> PrismEffect<Action> {
        var effect: PrismEffect<Action> = .none
        mutateObserved { effect = reducer(&$0, action) }
        return effect
    }

    /// Applies `action` to `state` for a tool that recomputes states (loading a recording,
    /// skipping an action): the reducer runs with every middleware silent (`Replaying`), and
    /// its effect is dropped. However the reducer was built, no replayed action reaches a
    /// middleware's `run`, so none is saved, logged or reported.
    func replay(_ state: inout State, _ action: Action) {
        let outer = Replaying.isActive
        Replaying.isActive = true
        defer { Replaying.isActive = outer }
        _ = reducer(&state, action)
    }

    /// The state as the app's own actions (and undo, redo) left it: what a persisting
    /// middleware saves. The current state, except while a tool shows one the app did not
    /// reach by itself (`replaceStateForTool`): then the state the tool replaced.
    func stateForStorage() -> State {
        recording?.appState ?? statePointer.pointee
    }

    /// Puts the store in `newState` for a tool (a loaded recording, a jump, a skip): observers
    /// are told, the reducer's middleware is not, and `stateForStorage()` keeps the app's state
    /// until the app reduces an action of its own.
    func replaceStateForTool(_ newState: State) {
        if let recording, recording.appState == nil { recording.appState = statePointer.pointee }
        mutate { $0 = newState }
        recording?.listener?(.stateReplaced(statePointer.pointee, byTool: true))
    }

    @usableFromInline
    func replaceState(_ newState: State) {
        mutate { $0 = newState }
        appReplacedState()
    }

    /// After the app replaced the state (``replaceState(_:)``, a scoped store writing through):
    /// from here on the state is the app's, and the middleware that asked hear it
    /// (`PrismStoreContext.onStateReplaced`).
    func appReplacedState() {
        recording?.appState = nil
        recording?.listener?(.stateReplaced(statePointer.pointee, byTool: false))
        for listener in replacementListeners { listener(statePointer.pointee) }
    }

    /// Changes the state in place, notifying whoever is looking.
    func mutate(_ body: (inout State) -> Void) {
        if isObserved || hasWatchers {
            mutateObserved(body)
        } else {
            body(&statePointer.pointee)
            version &+= 1
        }
    }

    /// Runs `body` on the state in place. A reader of the whole state hears `willSet` before
    /// and `didSet` after; each watcher whose part changed hears both after.
    @inlinable
    func mutateObserved(_ body: (inout State) -> Void) {
        let notifyRoot = isObserved
        if notifyRoot {
            // An observer that re-reads in its `onChange` observes again from here: it read
            // the state as it was and hears about the next change, like any `Observable`.
            isObserved = false
            registrar.willSetState()
        }
        body(&statePointer.pointee)
        version &+= 1
        if hasWatchers { checkWatchers() }
        needsObservation = isObserved || hasWatchers || recording != nil
        if notifyRoot { registrar.didSetState() }
    }

    /// Tells every watcher whose part of the state changed, once (it stays listed, unregistered,
    /// until it is read again); drops the watchers nobody read since they were told and those
    /// whose owner is gone. Rewrites `watchers` only when one of them leaves.
    @usableFromInline
    func checkWatchers() {
        if watchers.count == 1 {
            checkOnlyWatcher()
            return
        }
        // The list of the changed, reused from send to send (taken out, so that a check run by
        // an observer while this one notifies gets a list of its own).
        var changed = changedWatchers
        changedWatchers = []
        defer {
            changed.removeAll(keepingCapacity: true)
            changedWatchers = changed
        }
        var leaving = false
        var index = 0
        // By index: a projection is user code, and must not see the list borrowed.
        while index < watchers.count {
            if !watchers[index].isRegistered || isKnownUniquelyReferenced(&watchers[index]) {
                watchers[index].isRegistered = false
                watchers[index].isListed = false
                leaving = true
            } else {
                let watcher = watchers[index]
                if watcher.hasChanged(watcher, self) {
                    watcher.isRegistered = false
                    changed.append(watcher)
                }
            }
            index += 1
        }
        if leaving {
            watchers.removeAll { !$0.isListed }
            watchersAtLastSweep = watchers.count
            hasWatchers = !watchers.isEmpty
        }
        // Observers that read again while being told register anew, with the state as it is
        // now.
        for watcher in changed { watcher.willSetState() }
        for watcher in changed { watcher.didSetState() }
    }

    /// `checkWatchers` for the common case of one watcher (a view reading one member, or one
    /// scoped store), without the list of the changed.
    @usableFromInline
    func checkOnlyWatcher() {
        if !watchers[0].isRegistered || isKnownUniquelyReferenced(&watchers[0]) {
            let watcher = watchers.removeLast()
            watcher.isRegistered = false
            watcher.isListed = false
            watchersAtLastSweep = 0
            hasWatchers = false
            return
        }
        let watcher = watchers[0]
        guard watcher.hasChanged(watcher, self) else { return }
        watcher.isRegistered = false
        // An observer that reads again while told registers anew.
        watcher.willSetState()
        watcher.didSetState()
    }

    /// Lists `watcher`, registered (see `Watcher`).
    @usableFromInline
    func register(_ watcher: Watcher) {
        watcher.isListed = true
        watchers.append(watcher)
        hasWatchers = true
        needsObservation = true
        if watchers.count > 64 && watchers.count > 2 * watchersAtLastSweep {
            // Many reads and no send: drop the watchers nobody owns or read any more.
            for index in watchers.indices
            where !watchers[index].isRegistered || isKnownUniquelyReferenced(&watchers[index]) {
                watchers[index].isRegistered = false
                watchers[index].isListed = false
            }
            watchers.removeAll { !$0.isListed }
            watchersAtLastSweep = watchers.count
        }
    }

    // MARK: Members

    /// The watchers of members read through `store.member`, by key path (see `MemberWatcher`).
    @usableFromInline
    @exclusivity(unchecked)
    var memberWatchers: [AnyKeyPath: Watcher] = [:]
    /// The key path of the last member read and its watcher: a view re-reads the member it
    /// read after each change, found by identity without hashing the key path.
    @usableFromInline
    @exclusivity(unchecked)
    var lastMemberKeyPath: AnyKeyPath?
    @usableFromInline
    @exclusivity(unchecked)
    var lastMemberWatcher: Watcher?

    /// `state[keyPath: keyPath]`, recorded as read of that member only: its observers hear
    /// about the next change of that member (of anything, when it is not `Equatable`).
    ///
    /// Inlined into `PrismStore`'s member subscript and specialized for the member's type.
    @inlinable
    func observedMember<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        let watcher: MemberWatcher<State, Action, Value>
        if lastMemberKeyPath === keyPath, let last = lastMemberWatcher {
            watcher = unsafeDowncast(last, to: MemberWatcher<State, Action, Value>.self)
        } else {
            watcher = memberWatcher(keyPath)
        }
        watcher.accessState()
        return watcher.read(root: self)
    }

    /// The watcher of the member at `keyPath`, made the first time.
    @inlinable
    func memberWatcher<Value>(_ keyPath: KeyPath<State, Value>) -> MemberWatcher<State, Action, Value> {
        let watcher: MemberWatcher<State, Action, Value>
        if let existing = memberWatchers[keyPath] {
            watcher = unsafeDowncast(existing, to: MemberWatcher<State, Action, Value>.self)
        } else {
            // The closure is made here, where every type is known, so that it is specialized
            // with the code that inlines this.
            watcher = MemberWatcher(keyPath: keyPath, isEqual: equality(of: Value.self)) { watcher, root in
                unsafeDowncast(watcher, to: MemberWatcher<State, Action, Value>.self)
                    .changed(root: unsafeDowncast(root, to: RootCore<State, Action>.self))
            }
            memberWatchers[keyPath] = watcher
        }
        lastMemberKeyPath = keyPath
        lastMemberWatcher = watcher
        return watcher
    }

    // MARK: Scoping

    @usableFromInline
    func makeReader<Value>(
        _ project: @escaping (State) -> Value,
        isEqual: ((Value, Value) -> Bool)?
    ) -> (registrar: StateRegistrar, read: @MainActor () -> Value) {
        let watcher = ProjectionWatcher(root: self, project: project, isEqual: isEqual)
        return (watcher, { watcher.read() })
    }

    @usableFromInline
    func scope<ChildState: Sendable, ChildAction: Sendable>(
        state toChildState: @escaping (State) -> ChildState,
        write: ((inout State, ChildState) -> Void)?
    ) -> any StoreCore<ChildState, ChildAction> {
        ScopedCore<State, Action, ChildState, ChildAction>(root: self, toState: toChildState, write: write)
    }
}
