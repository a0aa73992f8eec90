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
    // MARK: The state and the reducer

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

    // MARK: Sending

    /// Whether the store is reducing; a send that arrives meanwhile is queued.
    @usableFromInline
    @exclusivity(unchecked)
    var isSending = false
    /// The actions sent while the store was reducing, reduced before the outer send returns.
    @usableFromInline
    @exclusivity(unchecked)
    var queue = ActionQueue<Action>()
    private let effectRuntime = PrismEffectRuntime<Action>()
    /// What a reduce marks for the code it runs: that a reducer runs (shared values) and which
    /// store it runs in (`PrismStoreContext`). See `ReduceMarks`.
    @usableFromInline
    @exclusivity(unchecked)
    var marks = ReduceMarks()
    /// What reducers that asked for this store were given (`PrismStoreContext`), and who hears
    /// the app replace the state through it.
    private var context: (link: StoreLink<State>, replacementListeners: [@MainActor (State) -> Void])? {
        didSet { hasContext = context != nil }
    }
    /// Whether `context` is set: what a marked reduce checks, inlined.
    @usableFromInline
    @exclusivity(unchecked)
    var hasContext = false

    // MARK: The two parts, each behind one check

    /// Who looks at the state: the registrar, the watchers, the member readers. A send looks
    /// at it only when `needsObservation`.
    @usableFromInline
    let observation = RootObservation()
    /// `observation.isLookedAt || tools != nil`: the one flag the fast path checks.
    @usableFromInline
    @exclusivity(unchecked)
    var needsObservation = false
    /// What a tool attached (PrismInspector, a history, a test store's lock): its listener, its
    /// log, its lock, in one object (see RootCore+Tools.swift); nil while none is. Checked
    /// after `needsObservation`.
    @usableFromInline
    @exclusivity(unchecked)
    var tools: RootTools<State, Action>?
    /// The call site of the send under way, while a tool traces: one slot shared with every
    /// store of this tree (see `SendTrace`).
    @usableFromInline
    let trace = SendTrace()
    /// What the store was made with, for a tool that writes tests.
    @usableFromInline
    var madeWith = MadeWith()

    /// The readers of members and the child stores this store gave out (see `StoreCore`).
    @usableFromInline
    let reads = StoreReads()

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

    /// Runs every effect task of this store inside `context` too, within the one set before
    /// (an instrument's, see `PrismStoreTools.instrument(aroundSend:aroundEffect:)`).
    func addEffectContext(_ context: @escaping PrismEffectRuntime<Action>.TaskContext) {
        effectRuntime.addTaskContext(context)
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
    var registrar: StateRegistrar { observation }

    @usableFromInline
    var observedState: State { observedRootState }

    @usableFromInline
    var root: RootCore<State, Action>? { self }

    /// The state, recorded as read: the next change notifies the registrar.
    @inlinable
    var observedRootState: State {
        if observation.noteStateRead() { needsObservation = true }
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
        if effect.isNone && !queue.hasActions {
            isSending = false
            return PrismEffectTask()
        }
        return complete(effect)
    }

    /// Applies `action` to the state and notifies whoever is looking.
    @inlinable
    func reduce(_ action: Action) -> PrismEffect<Action> {
        if marks.everyReduce || marks.marker.linkWanted { return reduceMarked(action) }
        return reduceUnmarked(action)
    }

    /// `reduce` with the marks a reducer may look for: that a reducer runs, for shared values
    /// (`marks.shared`), and this store's link, on its first action and while a reducer asks for
    /// its store (`PrismStoreContext`).
    ///
    /// Out of line, so that the inlined send stays as small as a store made before any shared
    /// value needs, but inlinable, so that it is specialized for the store's types like the
    /// send: unspecialized, a send of a store made once shared values exist cost 39 ns against
    /// 13 ns for one made before. Such a store, once its link is published and while nobody asks
    /// for one, only marks the reducer's thread around the reducer.
    @inlinable
    @inline(never)
    func reduceMarked(_ action: Action) -> PrismEffect<Action> {
        // Lives as long as the process (`ReduceMarks.marker`): a strong local would retain and
        // release it on every send.
        unowned(unsafe) let marker = marks.marker
        guard marks.shared, !marker.linkWanted, hasContext else { return reducePublishing(action) }
        let outer = marker.begin()
        let effect = reduceUnmarked(action)
        marker.end(outer)
        return effect
    }

    /// `reduceMarked` when the store's link is published: on its first action and while a
    /// reducer asks for its store. After the outermost reduce that published a link, nobody asks
    /// any more until somebody asks again.
    @inlinable
    @inline(never)
    func reducePublishing(_ action: Action) -> PrismEffect<Action> {
        unowned(unsafe) let marker = marks.marker
        marks.everyReduce = marks.shared
        let publishes = marker.linkWanted || !hasContext
        let outerLink = publishes ? publishLink() : nil
        let shared = marks.shared
        let outer = shared ? marker.begin() : 0
        let effect = reduceUnmarked(action)
        if shared { marker.end(outer) }
        if publishes {
            marker.link = outerLink
            if outerLink == nil { marker.linkWanted = false }
        }
        return effect
    }

    /// Publishes this store's link to the reducers that ask for it; returns the link published
    /// before, to put back after the reduce.
    @usableFromInline
    func publishLink() -> AnyObject? {
        let marker = marks.marker
        let outerLink = marker.link
        marker.link = link
        return outerLink
    }

    /// This store as a reducer sees it (`PrismStoreContext`), made the first time one asks.
    private var link: StoreLink<State> {
        if let context { return context.link }
        let made = StoreLink<State>(
            read: { [weak self] in self?.stateForStorage() },
            listen: { [weak self] body in self?.context?.replacementListeners.append(body) }
        )
        context = (made, [])
        return made
    }

    @inlinable
    func reduceUnmarked(_ action: Action) -> PrismEffect<Action> {
        if !needsObservation {
            let effect = reducer(&statePointer.pointee, action)
            version &+= 1
            return effect
        }
        if let tools {
            return reduceRecorded(action, into: tools)
        }
        let observation = self.observation
        if observation.hasWatchers {
            return reduceObserved(action)
        }
        // Only readers of the whole state are looking: tell them around the reducer.
        observation.isObserved = false
        needsObservation = false
        observation.willSetState()
        let effect = reducer(&statePointer.pointee, action)
        version &+= 1
        // A reader that read again while told observes from here, like any `Observable`'s;
        // one that read a scoped store registered a watcher, checked now.
        if observation.hasWatchers { observation.checkWatchers(root: self) }
        needsObservation = observation.isLookedAt || tools != nil
        observation.didSetState()
        return effect
    }

    /// A send made while the store is reducing: reduced after the current action.
    @usableFromInline
    func enqueueReentrant(_ action: Action) -> PrismEffectTask {
        let task = effectRuntime.taskWithGroup()
        queue.append(action, task: task, origin: trace.isOn ? trace.take() : .unknown)
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
        queue.append(action, task: task, origin: origin)
    }

    /// Queues actions a tool held (see `RootTools.isLocked`), in order, to be reduced on
    /// behalf of the send under way; reduces them now if no send is under way.
    func release(_ held: [(action: Action, origin: ActionOrigin)]) {
        guard !held.isEmpty else { return }
        for (action, origin) in held { queue.append(action, task: nil, origin: origin) }
        guard !isSending else { return }
        isSending = true
        var task = PrismEffectTask()
        finish(.none, task: &task)
    }

    /// Reduces every queued action, in order, each on behalf of its own task or of `task`.
    private func drainQueue(task: inout PrismEffectTask) {
        while let (next, explicitTask, origin) = queue.next() {
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
        queue.reset()
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
        tools?.appState ?? statePointer.pointee
    }

    /// Puts the store in `newState` for a tool (a loaded recording, a jump, a skip): observers
    /// are told, the reducer's middleware is not, and `stateForStorage()` keeps the app's state
    /// until the app reduces an action of its own.
    func replaceStateForTool(_ newState: State) {
        if let tools, tools.appState == nil { tools.appState = statePointer.pointee }
        mutate { $0 = newState }
        tools?.listener?(.stateReplaced(statePointer.pointee, byTool: true))
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
        tools?.appState = nil
        tools?.listener?(.stateReplaced(statePointer.pointee, byTool: false))
        for listener in context?.replacementListeners ?? [] { listener(statePointer.pointee) }
    }

    /// Changes the state in place, notifying whoever is looking.
    func mutate(_ body: (inout State) -> Void) {
        if observation.isLookedAt {
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
        let observation = self.observation
        let notifyRoot = observation.isObserved
        if notifyRoot {
            // An observer that re-reads in its `onChange` observes again from here: it read
            // the state as it was and hears about the next change, like any `Observable`.
            observation.isObserved = false
            observation.willSetState()
        }
        body(&statePointer.pointee)
        version &+= 1
        if observation.hasWatchers { observation.checkWatchers(root: self) }
        needsObservation = observation.isLookedAt || tools != nil
        if notifyRoot { observation.didSetState() }
    }

    /// Lists `watcher`, registered (see `Watcher`): from now on, sends check it.
    @usableFromInline
    func register(_ watcher: Watcher) {
        observation.register(watcher)
        needsObservation = true
    }

    // MARK: Members

    /// `state[keyPath: keyPath]`, recorded as read of that member only: its observers hear
    /// about the next change of that member (of anything, when it is not `Equatable`).
    ///
    /// Inlined into `PrismStore`'s member subscript and specialized for the member's type.
    @inlinable
    func observedMember<Value>(_ keyPath: KeyPath<State, Value>) -> Value {
        let watcher: MemberWatcher<State, Action, Value>
        if observation.lastMemberKeyPath === keyPath, let last = observation.lastMemberWatcher {
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
        let observation = self.observation
        if let existing = observation.memberWatchers[keyPath] {
            watcher = unsafeDowncast(existing, to: MemberWatcher<State, Action, Value>.self)
        } else {
            // The closure is made here, where every type is known, so that it is specialized
            // with the code that inlines this.
            watcher = MemberWatcher(keyPath: keyPath, isEqual: equality(of: Value.self)) { watcher, root in
                unsafeDowncast(watcher, to: MemberWatcher<State, Action, Value>.self)
                    .changed(root: unsafeDowncast(root, to: RootCore<State, Action>.self))
            }
            observation.memberWatchers[keyPath] = watcher
        }
        observation.lastMemberKeyPath = keyPath
        observation.lastMemberWatcher = watcher
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
        path: KeyPath<State, ChildState>?,
        write: ((inout State, ChildState) -> Void)?
    ) -> any StoreCore<ChildState, ChildAction> {
        ScopedCore<State, Action, ChildState, ChildAction>(root: self, toState: toChildState, path: path, write: write)
    }
}

/// The actions a root store queued while it was reducing, oldest first, each with the task it is
/// reduced on behalf of (nil: the send's) and, while a tool traces, where it came from.
@usableFromInline
struct ActionQueue<Action> {
    /// Whether actions wait: checked before a send's fast path returns.
    @usableFromInline
    private(set) var hasActions = false
    private var entries: [(action: Action, task: PrismEffectTask?, origin: ActionOrigin)] = []
    private var head = 0

    @usableFromInline
    init() {}

    mutating func append(_ action: Action, task: PrismEffectTask?, origin: ActionOrigin) {
        entries.append((action, task, origin))
        hasActions = true
    }

    /// The oldest action not taken yet, or nil.
    mutating func next() -> (action: Action, task: PrismEffectTask?, origin: ActionOrigin)? {
        guard head < entries.count else { return nil }
        head += 1
        return entries[head - 1]
    }

    /// Forgets the taken actions, keeping the storage for the next send.
    mutating func reset() {
        if head > 0 {
            entries.removeAll(keepingCapacity: true)
            head = 0
        }
        hasActions = false
    }
}
