import PrismSupport

/// Counts the work one `send` started: its tasks, and the actions they sent that the store has
/// not reduced yet. Effects started by those actions join the same group, so waiting for the
/// group waits for everything the original action caused.
@usableFromInline
final class EffectGroup: Sendable {
    private struct State {
        var pending = 0
        var tokens: [ObjectIdentifier: EffectToken] = [:]
        var waiters: [UnsafeContinuation<Void, Never>] = []
        var cancelled = false
    }

    private let state = PrismLocked(State())

    /// Adds one unit of outstanding work, optionally a task's token to cancel with the group.
    func enter(_ token: EffectToken? = nil) {
        let cancelled = state.withLock { state -> Bool in
            state.pending += 1
            if let token { state.tokens[ObjectIdentifier(token)] = token }
            return state.cancelled
        }
        if cancelled { token?.cancel() }
    }

    /// Removes one unit of outstanding work; wakes the waiters when none is left.
    func leave(_ token: EffectToken? = nil) {
        let waiters = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
            state.pending -= 1
            if let token { state.tokens[ObjectIdentifier(token)] = nil }
            guard state.pending == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func cancel() {
        let tokens = state.withLock { state -> [EffectToken] in
            state.cancelled = true
            return Array(state.tokens.values)
        }
        for token in tokens { token.cancel() }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    var isFinished: Bool { state.withLock { $0.pending == 0 } }

    func wait(isolation: isolated (any Actor)? = #isolation) async {
        await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Void, Never>) in
            let finished = state.withLock { state -> Bool in
                if state.pending == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
    }
}
