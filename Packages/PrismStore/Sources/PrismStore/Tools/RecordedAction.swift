/// An action a store recorded into a debugger for a tool (see `PrismStoreTools.attach`): the
/// payload of the snapshot, which describes the action only when asked
/// (`PrismStoreTools.History.action(of:)` gives it back).
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
