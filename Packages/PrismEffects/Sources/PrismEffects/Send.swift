/// Sends actions from an effect back to the store that runs it.
///
/// A ``PrismEffect/run(priority:operation:catch:fileID:line:)`` operation receives a `Send`.
/// Call it like a function, from any task and without `await`:
///
/// ```swift
/// return .run { send in
///     for await event in events {
///         send(.received(event))
///     }
/// }
/// ```
///
/// Actions are reduced on the main actor in the order they were sent. Once the effect is
/// cancelled, calling `send` does nothing, and actions it sent that were not reduced yet are
/// dropped.
public struct Send<Action: Sendable>: Sendable {
    let deliver: @Sendable (Action) -> Void
    let token: EffectToken?

    /// A `Send` that hands every action to `send`.
    ///
    /// Stores build their own; this is for calling an effect's operation yourself, for example
    /// in a unit test of a function that takes a `Send`.
    public init(send: @escaping @Sendable (Action) -> Void) {
        self.deliver = send
        self.token = nil
    }

    init(token: EffectToken?, deliver: @escaping @Sendable (Action) -> Void) {
        self.deliver = deliver
        self.token = token
    }

    /// Sends `action` to the store, unless the effect was cancelled.
    public func callAsFunction(_ action: Action) {
        guard !isCancelled else { return }
        deliver(action)
    }

    /// Whether the effect that owns this `Send` was cancelled (or the calling task was).
    public var isCancelled: Bool {
        Task.isCancelled || (token?.isCancelled ?? false)
    }

    func map<Other: Sendable>(_ transform: @escaping @Sendable (Other) -> Action) -> Send<Other> {
        let deliver = self.deliver
        return Send<Other>(token: token) { deliver(transform($0)) }
    }
}
