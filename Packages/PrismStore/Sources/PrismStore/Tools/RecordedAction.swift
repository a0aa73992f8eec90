/// An action a store recorded into a debugger for a tool (see `PrismStoreTools.attach`): the
/// payload of the snapshot, which describes the action only when asked.
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

@_spi(PrismInternals)
extension PrismTimeTravelDebugger where State: Sendable {
    /// Records `state` reached by `action` as a store recording for a tool would (so that
    /// `_recordedAction(as:)` gives the action back): for tools that compute snapshots
    /// themselves, such as loading a session recording.
    public func _recordAction<Action: Sendable>(
        _ action: Action,
        state: State,
        secondsSinceReferenceDate: Double,
        reduceNanoseconds: Int64
    ) {
        record(
            state: state,
            payload: RecordedAction(action: action),
            secondsSinceReferenceDate: secondsSinceReferenceDate,
            reduceNanoseconds: reduceNanoseconds
        )
    }
}

@_spi(PrismInternals)
extension PrismTimeTravelDebugger.Snapshot {
    /// The action, when the snapshot was recorded by a store for a tool
    /// (`PrismStoreTools.attach(recordingInto:listener:)`) and the action is an `Action`.
    public func _recordedAction<Action: Sendable>(as type: Action.Type) -> Action? {
        (payload as? RecordedAction<Action>)?.action
    }

    /// Where the recorded action was sent (`store.send`'s call site, or for an action an
    /// effect sent, where the effect was made), when it is known.
    public func _callSite<Action: Sendable>(as type: Action.Type) -> PrismCallSite? {
        (payload as? RecordedAction<Action>)?.origin.site
    }

    /// Whether an effect sent the recorded action (rather than a `send`), when the store
    /// recorded it for a tool that traces; false when not known.
    public func _isSentByEffect<Action: Sendable>(as type: Action.Type) -> Bool {
        (payload as? RecordedAction<Action>)?.origin.byEffect ?? false
    }
}
