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
    /// Where actions go: straight to a store's effect runtime (no closure to allocate per
    /// effect), or through a closure (a user-made or mapped `Send`).
    private enum Destination: Sendable {
        case runtime(PrismEffectRuntime<Action>, EffectGroup)
        case closure(@Sendable (Action) -> Void)
    }

    private let destination: Destination
    let token: EffectToken?
    /// Where the effect that sends was made, for a tool that traces where actions come from.
    var site: PrismCallSite?

    /// A `Send` that hands every action to `send`.
    ///
    /// Stores build their own; this is for calling an effect's operation yourself, for example
    /// in a unit test of a function that takes a `Send`.
    public init(send: @escaping @Sendable (Action) -> Void) {
        self.destination = .closure(send)
        self.token = nil
    }

    init(token: EffectToken?, deliver: @escaping @Sendable (Action) -> Void) {
        self.destination = .closure(deliver)
        self.token = token
    }

    init(runtime: PrismEffectRuntime<Action>, group: EffectGroup, token: EffectToken) {
        self.destination = .runtime(runtime, group)
        self.token = token
    }

    /// Sends `action` to the store, unless the effect was cancelled.
    public func callAsFunction(_ action: Action) {
        guard !isCancelled else { return }
        deliver(action)
    }

    private func deliver(_ action: Action) {
        switch destination {
        case .runtime(let runtime, let group): runtime.enqueue(action, group: group, token: token, site: site)
        case .closure(let deliver): deliver(action)
        }
    }

    /// This `Send`, its actions marked as sent by the effect made at `site`.
    func sited(_ site: PrismCallSite) -> Send {
        var send = self
        send.site = site
        return send
    }

    /// Whether the effect that owns this `Send` was cancelled (or the calling task was).
    public var isCancelled: Bool {
        Task.isCancelled || (token?.isCancelled ?? false)
    }

    func map<Other: Sendable>(_ transform: @escaping @Sendable (Other) -> Action) -> Send<Other> {
        let destination = self.destination
        let token = self.token
        let site = self.site
        return Send<Other>(token: token) { action in
            switch destination {
            case .runtime(let runtime, let group):
                runtime.enqueue(transform(action), group: group, token: token, site: site)
            case .closure(let deliver): deliver(transform(action))
            }
        }
    }
}
