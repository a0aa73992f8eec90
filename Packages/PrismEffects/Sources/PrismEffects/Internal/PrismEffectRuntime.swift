import PrismSupport

/// Runs effects for one store: starts their tasks, keeps the cancellation ids, and funnels the
/// actions they send back to the main actor in order.
///
/// This is the machinery behind `PrismStore`; it is exposed to Prism's own modules only
/// (`@_spi(PrismInternals)`) and is not a stable API.
@_spi(PrismInternals)
public final class PrismEffectRuntime<Action: Sendable>: Sendable {
    /// Reduces one action that an effect sent, on behalf of the effects in `task`.
    /// Hands an action an effect sent to the store, with where that effect was made, if known.
    public typealias Deliver = @MainActor @Sendable (Action, PrismEffectTask, PrismCallSite?) -> Void
    /// Runs the body of an effect's task inside a context (task-local values, such as the
    /// dependencies of the store that started it).
    public typealias TaskContext = @Sendable (_ body: @Sendable () async -> Void) async -> Void

    /// A handle that already has a group, for a send whose effects start later (a send queued
    /// behind the action the store is reducing).
    public func taskWithGroup() -> PrismEffectTask {
        PrismEffectTask(group: EffectGroup())
    }

    struct Entry: Sendable {
        let action: Action
        let group: EffectGroup
        let token: EffectToken?
        let site: PrismCallSite?
    }

    struct State {
        var mailbox: [Entry] = []
        var drainScheduled = false
        /// Every task this runtime started that has not finished, with or without an id: what
        /// ``cancelAll()`` cancels.
        var running: [ObjectIdentifier: EffectToken] = [:]
        var cancellables: [PrismCancelID: [ObjectIdentifier: EffectToken]] = [:]
        /// Set by ``cancelAll()``: a task started afterwards is cancelled before it runs.
        var isShutDown = false
        var deliver: Deliver?
        var errorHandler: (@Sendable (PrismEffectError) -> Void)?
        var taskContext: TaskContext?
        /// The `TaskExecutor` effect tasks prefer (typed `Any` so that the stored property needs
        /// no availability): PrismTestStore's, so that its test clock can wait for them.
        var taskExecutor: (any Sendable)?
    }

    let state = PrismLocked(State())

    /// Creates a runtime that has no store yet; call ``setDeliver(_:)`` before starting effects.
    public init() {}

    /// Sets where actions sent by effects go.
    public func setDeliver(_ deliver: @escaping Deliver) {
        state.withLock { $0.deliver = deliver }
    }

    /// Runs every effect task this runtime starts inside `context` (tasks an effect's task
    /// starts inherit its task-local values).
    public func setTaskContext(_ context: @escaping TaskContext) {
        state.withLock { $0.taskContext = context }
    }

    /// Runs every effect task this runtime starts inside `context` too, within the context set
    /// before (a store's dependencies outside, an instrument's span inside).
    public func addTaskContext(_ context: @escaping TaskContext) {
        state.withLock { state in
            guard let outer = state.taskContext else {
                state.taskContext = context
                return
            }
            state.taskContext = { body in await outer { await context(body) } }
        }
    }

    /// Starts every later effect task of this runtime with a preference for `executor`: its jobs,
    /// and those of the tasks it starts, run there. PrismTestStore uses it to know when its
    /// effects have settled.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public func setTaskExecutor(_ executor: (any TaskExecutor)?) {
        state.withLock { $0.taskExecutor = executor }
    }

    /// The handler for errors effects throw and do not handle; `nil` uses
    /// ``PrismEffectError/unhandledErrorHandler``.
    public var unhandledErrorHandler: (@Sendable (PrismEffectError) -> Void)? {
        get { state.withLock { $0.errorHandler } }
        set { state.withLock { $0.errorHandler = newValue } }
    }

    // MARK: Starting effects (main actor)

    /// Starts `effect`: immediate actions go to `sendNow` in order, asynchronous work starts
    /// in tasks that `task` covers (created on first need).
    @MainActor
    public func start(
        _ effect: PrismEffect<Action>,
        task: inout PrismEffectTask,
        sendNow: (Action) -> Void
    ) {
        start(effect, ids: [], task: &task, sendNow: sendNow)
    }

    @MainActor
    private func start(
        _ effect: PrismEffect<Action>,
        ids: [PrismCancelID],
        task: inout PrismEffectTask,
        sendNow: (Action) -> Void
    ) {
        switch effect.operation {
        case .none:
            return
        case .send(let action):
            sendNow(action)
        case .sequence(let actions):
            for action in actions { sendNow(action) }
        case .merge(let effects):
            for effect in effects { start(effect, ids: ids, task: &task, sendNow: sendNow) }
        case .cancel(let id):
            cancel(id)
        case .cancellable(let id, let cancelInFlight, let inner):
            if cancelInFlight { cancel(id) }
            start(inner, ids: ids + [id], task: &task, sendNow: sendNow)
        case .concatenate(let effects):
            var index = effects.startIndex
            while index < effects.endIndex, effects[index].isImmediate {
                start(effects[index], ids: ids, task: &task, sendNow: sendNow)
                index += 1
            }
            if index < effects.endIndex {
                let rest = PrismEffect<Action>.concatenate(Array(effects[index...]))
                spawnTopLevel(rest, ids: ids, task: &task)
            }
        case .run, .wait:
            spawnTopLevel(effect, ids: ids, task: &task)
        }
    }

    @MainActor
    private func spawnTopLevel(_ effect: PrismEffect<Action>, ids: [PrismCancelID], task: inout PrismEffectTask) {
        let group: EffectGroup
        if let existing = task.group {
            group = existing
        } else {
            group = EffectGroup()
            task = PrismEffectTask(group: group)
        }
        var priority: TaskPriority?
        if case .run(let run) = effect.operation { priority = run.priority }
        _ = spawn(effect, ids: ids, group: group, parent: nil, priority: priority)
    }

    // MARK: Tasks

    private struct Context: Sendable {
        let group: EffectGroup
        let token: EffectToken
        let send: Send<Action>

        var isCancelled: Bool { Task.isCancelled || token.isCancelled }
    }

    /// Starts a task that runs `effect`. It is not isolated to the main actor even when the
    /// store starts it from there: effects run on the global executor.
    private nonisolated func spawn(
        _ effect: PrismEffect<Action>,
        ids: [PrismCancelID],
        group: EffectGroup,
        parent: EffectToken?,
        priority: TaskPriority?
    ) -> EffectToken {
        let token = EffectToken(parent: parent)
        let key = ObjectIdentifier(token)
        group.enter(token)
        // One lock for the bookkeeping of every task, id or not: the store's release
        // (`cancelAll`) must reach every task, and one that starts after it must not run.
        let (isShutDown, taskContext, taskExecutor) = state.withLock { state -> (Bool, TaskContext?, (any Sendable)?) in
            state.running[key] = token
            for id in ids { state.cancellables[id, default: [:]][key] = token }
            // Only tasks started by the store (no parent) enter the context: the tasks they
            // start inherit it.
            return (state.isShutDown, parent == nil ? state.taskContext : nil, state.taskExecutor)
        }
        if isShutDown { token.cancel() }
        let send = Send<Action>(runtime: self, group: group, token: token)
        let context = Context(group: group, token: token, send: send)
        let body: @Sendable () async -> Void = { [self] in
            // Cancelled before it started (its store went away, its id or group was
            // cancelled): it does not run at all.
            if !context.isCancelled {
                if let taskContext {
                    await taskContext { _ = await self.execute(effect, context) }
                } else {
                    _ = await execute(effect, context)
                }
            }
            state.withLock { state in
                state.running[key] = nil
                for id in ids {
                    state.cancellables[id]?[key] = nil
                    if state.cancellables[id]?.isEmpty == true { state.cancellables[id] = nil }
                }
            }
            group.leave(token)
        }
        let task: Task<Void, Never>
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *),
            let executor = taskExecutor as? any TaskExecutor
        {
            task = Task(executorPreference: executor, priority: priority, operation: body)
        } else {
            task = Task(priority: priority, operation: body)
        }
        token.attach(task)
        return token
    }

    /// Runs `effect` inside a task. Returns `false` when it was interrupted (cancelled, or a
    /// wait failed), so that a concatenation stops.
    private func execute(_ effect: PrismEffect<Action>, _ context: Context) async -> Bool {
        switch effect.operation {
        case .none:
            return true
        case .send(let action):
            context.send(action)
            return true
        case .sequence(let actions):
            for action in actions { context.send(action) }
            return true
        case .run(let run):
            await perform(
                run, send: context.send.sited(PrismCallSite(fileID: run.fileID, line: run.line, function: "")))
            return !context.isCancelled
        case .wait(let wait):
            do {
                try await wait()
                return !context.isCancelled
            } catch {
                return false
            }
        case .merge(let effects):
            await withTaskGroup(of: Void.self) { tasks in
                for effect in effects {
                    tasks.addTask { _ = await self.execute(effect, context) }
                }
            }
            return !context.isCancelled
        case .concatenate(let effects):
            for effect in effects {
                guard !context.isCancelled else { return false }
                guard await execute(effect, context) else { return false }
            }
            return !context.isCancelled
        case .cancel(let id):
            cancel(id)
            return true
        case .cancellable(let id, let cancelInFlight, let inner):
            if cancelInFlight { cancel(id) }
            let child = spawn(inner, ids: [id], group: context.group, parent: context.token, priority: nil)
            await withTaskCancellationHandler {
                await child.task?.value
            } onCancel: {
                child.cancel()
            }
            return !context.isCancelled && !child.isCancelled
        }
    }

    private func perform(_ run: PrismEffect<Action>.Run, send: Send<Action>) async {
        do {
            try await run.operation(send)
        } catch {
            if error is CancellationError || send.isCancelled { return }
            if let handler = run.handler {
                await handler(error, send)
            } else {
                report(PrismEffectError(underlying: error, fileID: "\(run.fileID)", line: run.line))
            }
        }
    }

    private func report(_ error: PrismEffectError) {
        let handler = state.withLock { $0.errorHandler } ?? PrismEffectError.unhandledErrorHandler
        handler(error)
    }

    // MARK: Cancellation

    /// Cancels every running effect registered under `id`.
    public func cancel(id: some Hashable & Sendable) {
        cancel(PrismCancelID(id))
    }

    private func cancel(_ id: PrismCancelID) {
        let tokens = state.withLock { $0.cancellables.removeValue(forKey: id) }
        for token in tokens?.values ?? [:].values { token.cancel() }
    }

    /// Cancels every effect this runtime is running, with or without a cancellation id, and
    /// every effect started afterwards before it runs; the store calls it when it goes away.
    ///
    /// A cancelled effect's task is cancelled (a `for await` loop over a stream ends, a
    /// `Task.sleep` throws), its `Send` sends nothing more, and the actions it sent that were
    /// not reduced yet are dropped.
    public func cancelAll() {
        let tokens = state.withLock { state -> [EffectToken] in
            state.isShutDown = true
            defer {
                state.running = [:]
                state.cancellables = [:]
            }
            return Array(state.running.values)
        }
        for token in tokens { token.cancel() }
    }

    // MARK: Mailbox

    func enqueue(_ action: Action, group: EffectGroup, token: EffectToken?, site: PrismCallSite? = nil) {
        group.enter()
        let schedule = state.withLock { state -> Bool in
            state.mailbox.append(Entry(action: action, group: group, token: token, site: site))
            if state.drainScheduled { return false }
            state.drainScheduled = true
            return true
        }
        if schedule {
            Task { @MainActor [self] in drain() }
        }
    }

    @MainActor
    private func drain() {
        let (batch, deliver) = state.withLock { state -> ([Entry], Deliver?) in
            state.drainScheduled = false
            defer { state.mailbox = [] }
            return (state.mailbox, state.deliver)
        }
        for entry in batch {
            if let deliver, !(entry.token?.isCancelled ?? false), !entry.group.isCancelled {
                deliver(entry.action, PrismEffectTask(group: entry.group), entry.site)
            }
            entry.group.leave()
        }
    }
}

extension PrismEffect {
    /// Whether the store can handle this effect entirely before `send` returns.
    var isImmediate: Bool {
        switch operation {
        case .none, .send, .sequence, .cancel: return true
        case .merge(let effects), .concatenate(let effects): return effects.allSatisfy(\.isImmediate)
        case .cancellable(_, _, let effect): return effect.isImmediate
        case .run, .wait: return false
        }
    }
}
