/// A handle to the effects that one `send` started.
///
/// `PrismStore.send(_:)` returns one. Ignore it, or keep it to wait for the work an action
/// started, or to cancel it:
///
/// ```swift
/// // In a test, or in SwiftUI's `.task { }`:
/// await store.send(.onAppear).finish()
///
/// // Later:
/// let task = store.send(.startTimer)
/// task.cancel()
/// ```
///
/// The handle covers the effects the action started and, transitively, the effects of the
/// actions those effects sent back. A send that started no effect returns a handle that is
/// already finished.
public struct PrismEffectTask: Hashable, Sendable {
    @usableFromInline
    let group: EffectGroup?

    /// A handle for no effects: already finished.
    @inlinable
    public init() {
        self.group = nil
    }

    init(group: EffectGroup?) {
        self.group = group
    }

    /// Waits until every effect this handle covers has finished and the actions they sent
    /// have been reduced.
    ///
    /// If the waiting task is cancelled, the effects are cancelled too; that is what ties an
    /// effect to the lifetime of a SwiftUI view's `.task { }`. Waiting stays on the caller's
    /// actor: awaiting from the main actor does not hop to another thread.
    public func finish(isolation: isolated (any Actor)? = #isolation) async {
        guard let group, !group.isFinished else { return }
        await withTaskCancellationHandler {
            await group.wait(isolation: isolation)
        } onCancel: {
            group.cancel()
        }
    }

    /// Cancels every effect this handle covers.
    public func cancel() {
        group?.cancel()
    }

    /// Whether ``cancel()`` was called (or a task waiting in ``finish(isolation:)`` was cancelled).
    public var isCancelled: Bool {
        group?.isCancelled ?? false
    }

    /// Whether every effect this handle covers has finished.
    public var isFinished: Bool {
        group?.isFinished ?? true
    }

    /// Whether two handles cover the same effects.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.group === rhs.group
    }

    /// Hashes the identity of the effects this handle covers.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(group.map(ObjectIdentifier.init))
    }
}
