import PrismSupport

/// The cancellation state of one task that runs (part of) an effect.
///
/// A token is cancelled by its group, by a cancellation id, or through its parent. `Send`
/// checks it so that a cancelled effect sends nothing, and the store's mailbox checks it so
/// that actions a cancelled effect sent earlier are dropped.
final class EffectToken: Sendable {
    let parent: EffectToken?
    private let state = PrismLocked<(cancelled: Bool, task: Task<Void, Never>?)>((false, nil))

    init(parent: EffectToken?) {
        self.parent = parent
    }

    var isCancelled: Bool {
        state.withLock { $0.cancelled } || (parent?.isCancelled ?? false)
    }

    var task: Task<Void, Never>? {
        state.withLock { $0.task }
    }

    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
