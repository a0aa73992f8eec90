import Foundation

extension PrismStoreTools {
    /// The debugger a tool records into, as the tool sees it: snapshots read and written without
    /// observing the debugger, and what the store recorded of each action (the action itself,
    /// where it was sent, whether an effect sent it). Get it with ``history(_:)``.
    ///
    /// Part of the tools door (`@_spi(PrismInternals)`), not a stable API.
    @MainActor
    public struct History {
        /// The debugger.
        public let debugger: PrismTimeTravelDebugger<State>

        /// The tools' view of `debugger`.
        @inlinable
        public init(_ debugger: PrismTimeTravelDebugger<State>) {
            self.debugger = debugger
        }

        /// Records `state` reached by an action kept as `payload` (the action in a wrapper, or
        /// a tool's marker), described only when `Snapshot.action` is read, at
        /// `secondsSinceReferenceDate`, with the reduce's duration when measured (-1 when not).
        /// For tools that record on every send and must stay cheap: call it from code
        /// specialized for the state.
        @inlinable
        public func record(
            state: State,
            payload: some CustomStringConvertible & Sendable,
            secondsSinceReferenceDate: Double,
            reduceNanoseconds: Int64
        ) {
            debugger.record(
                state: state, payload: payload, secondsSinceReferenceDate: secondsSinceReferenceDate,
                reduceNanoseconds: reduceNanoseconds)
        }

        /// Records `state` reached by `action` as the store records for a tool (so that
        /// ``action(of:)`` gives the action back): for tools that compute snapshots themselves,
        /// such as loading a session recording.
        public func record(
            action: Action,
            state: State,
            secondsSinceReferenceDate: Double,
            reduceNanoseconds: Int64
        ) {
            debugger.record(
                state: state, payload: RecordedAction(action: action),
                secondsSinceReferenceDate: secondsSinceReferenceDate, reduceNanoseconds: reduceNanoseconds)
        }

        /// The values shared values had when the snapshot numbered `index` was reached, while a
        /// tool journals them (``PrismSharedTools.Journal``): to encode its state as it was.
        public func sharedValues(ofSnapshot index: Int) -> PrismSharedTools.Values {
            guard let offset = debugger.offset(of: index), SharedJournalState.isOn else { return .current }
            return PrismSharedTools.Journal.values(at: debugger.buffer[offset].sharedPosition)
        }

        /// The snapshots numbered `index` and later, oldest first, without observing the
        /// debugger.
        public func snapshots(from index: Int) -> [PrismTimeTravelDebugger<State>.Snapshot] {
            (debugger.firstOffset(numberedAtLeast: index)..<debugger.buffer.count).map { debugger.buffer[$0] }
        }

        /// Replaces the state of the snapshot numbered `index` (a tool that recomputes states,
        /// such as skipping an action), keeping its action and time. Returns false when no kept
        /// snapshot has that number.
        @discardableResult
        public func replaceState(ofSnapshot index: Int, with state: State) -> Bool {
            debugger.replaceState(ofSnapshot: index, with: state)
        }

        /// The number of the current snapshot, without observing the debugger.
        public var currentIndex: Int? { debugger.position.map { debugger.buffer[$0].index } }

        /// The number the next recorded snapshot gets.
        public var nextIndex: Int { debugger.nextIndex }

        /// The action of `snapshot`, when the store recorded it for a tool
        /// (``PrismStoreTools/attach(recordingInto:listener:)``, ``record(action:state:secondsSinceReferenceDate:reduceNanoseconds:)``).
        public func action(of snapshot: PrismTimeTravelDebugger<State>.Snapshot) -> Action? {
            (snapshot.payload as? RecordedAction<Action>)?.action
        }

        /// Where the recorded action of `snapshot` was sent (`store.send`'s call site, or for an
        /// action an effect sent, where the effect was made), when it is known.
        public func callSite(of snapshot: PrismTimeTravelDebugger<State>.Snapshot) -> PrismCallSite? {
            (snapshot.payload as? RecordedAction<Action>)?.origin.site
        }

        /// Whether an effect sent the recorded action of `snapshot` (rather than a `send`), when
        /// the store recorded it for a tool that traces; false when not known.
        public func isSentByEffect(_ snapshot: PrismTimeTravelDebugger<State>.Snapshot) -> Bool {
            (snapshot.payload as? RecordedAction<Action>)?.origin.byEffect ?? false
        }

        /// What was recorded of the action of `snapshot`: the action in a wrapper, or a tool's
        /// marker.
        public func payload(of snapshot: PrismTimeTravelDebugger<State>.Snapshot)
            -> any CustomStringConvertible & Sendable
        {
            snapshot.payload
        }

        /// How long the action's reduce took, in nanoseconds, or -1 when it was not measured.
        public func reduceNanoseconds(of snapshot: PrismTimeTravelDebugger<State>.Snapshot) -> Int64 {
            snapshot.reduceNanoseconds
        }
    }

    /// The tools' view of `debugger` (``History``).
    public func history(_ debugger: PrismTimeTravelDebugger<State>) -> History {
        History(debugger)
    }
}

extension PrismTimeTravelDebugger {
    /// Replaces the state of the snapshot numbered `index`, keeping its action and time;
    /// false when no kept snapshot has that number.
    func replaceState(ofSnapshot index: Int, with state: State) -> Bool {
        guard let offset = offset(of: index) else { return false }
        let old = buffer[offset]
        mutate {
            buffer.replace(
                at: offset,
                with: Snapshot(
                    index: old.index,
                    secondsSinceReferenceDate: old.secondsSinceReferenceDate,
                    state: state,
                    payload: old.payload,
                    reduceNanoseconds: old.reduceNanoseconds,
                    sharedPosition: old.sharedPosition
                )
            )
        }
        return true
    }
}
