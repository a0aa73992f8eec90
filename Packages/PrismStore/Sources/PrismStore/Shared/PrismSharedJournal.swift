/// What tools (PrismInspector, PrismTesting) do with shared values, in one place: the journal
/// of their changes while a tool records (``Journal``, ``Values``, ``valuesKey``), the test
/// store's tracking and assertions (``Tracking``, ``Change``), and how a tool shows one
/// (``Inspectable``).
///
/// Exposed to Prism's own modules only (`@_spi(PrismInternals)`): not a stable API.
@_spi(PrismInternals)
public enum PrismSharedTools {}

extension PrismSharedTools {
    /// The changes made to shared values while a tool records a store (PrismInspector): what each
    /// value was when each recorded action ended.
    ///
    /// The states a store's history keeps hold shared values by reference (see ``PrismShared``'s
    /// "History"): a state recorded an hour ago reads the value as it is now. A tool that writes
    /// those states out (a test, an exported recording) asks the journal for the values as they were
    /// (``values(at:)``) and encodes the states with them (``CodingUserInfoKey/prismSharedValues``).
    ///
    /// Off unless a tool turned it on (``begin()``): a change to a shared value then costs one load
    /// of a flag. On, each change appends the value after it; the journal keeps the last
    /// ``capacity`` changes, and folds older ones into the values it starts from. Main actor only,
    /// as changes to shared values are.
    public enum Journal {
        /// The most changes kept.
        public static let capacity = 10_000

        /// Starts journaling, for one more tool.
        @MainActor
        public static func begin() {
            SharedJournalState.users += 1
            SharedJournalState.isOn = true
        }

        /// Stops journaling for one tool; when none is left, forgets every change.
        @MainActor
        public static func end() {
            SharedJournalState.users = max(0, SharedJournalState.users - 1)
            guard SharedJournalState.users == 0 else { return }
            SharedJournalState.isOn = false
            SharedJournalState.changes = []
            SharedJournalState.before = [:]
            SharedJournalState.folded = 0
            SharedJournalState.position = 0
        }

        /// How many changes were journaled so far: a recorded action keeps it, as the place in the
        /// journal its state was reached at.
        @MainActor
        public static var position: Int { SharedJournalState.position }

        /// The values shared values had at `position` (after the changes before it), for those
        /// changed since: what encoding a state recorded at `position` needs.
        @MainActor
        public static func values(at position: Int) -> PrismSharedTools.Values {
            var values: [ObjectIdentifier: PrismSharedTools.Values.Value] = [:]
            for (id, entry) in SharedJournalState.before {
                values[id] = PrismSharedTools.Values.Value(box: entry.box, value: entry.value)
            }
            let start = SharedJournalState.folded
            for (offset, change) in SharedJournalState.changes.enumerated() where start + offset < position {
                values[ObjectIdentifier(change.box)] = PrismSharedTools.Values.Value(
                    box: change.box, value: change.value)
            }
            return PrismSharedTools.Values(values: values)
        }
    }
}

extension PrismSharedTools {
    /// The values shared values had at one place in ``PrismSharedTools.Journal``: set as
    /// `encoder.userInfo[PrismSharedTools.valuesKey]`, a ``PrismShared`` encodes its value as it was then.
    public struct Values: @unchecked Sendable {  // values are Sendable; read-only
        struct Value {
            /// Kept so that no other value takes the identity while this one is known.
            let box: AnyObject
            let value: Any
        }

        let values: [ObjectIdentifier: Value]

        /// No value recorded: every shared value encodes as it is.
        public static let current = PrismSharedTools.Values(values: [:])

        /// The values tools see shared values with (``PrismSharedTools.Inspectable/sharedValue``) in this
        /// task: a tool showing or describing a recorded state sets the values it had.
        @TaskLocal public static var inEffect: PrismSharedTools.Values?

        /// The value of the shared value held in `box` then, if it was journaled.
        func value(of box: AnyObject) -> Any? {
            values[ObjectIdentifier(box)]?.value
        }
    }
}

extension PrismSharedTools {
    /// The `userInfo` key of the values shared values had when a recorded state was reached: a
    /// ``Values``.
    public static var valuesKey: CodingUserInfoKey {
        CodingUserInfoKey(rawValue: "PrismShared.values")!
    }
}

/// The journal's state. Main thread only (shared values change there).
@usableFromInline
enum SharedJournalState {
    struct Change {
        let box: AnyObject
        let value: Any
    }

    /// Whether changes are journaled: the one flag a change reads.
    @usableFromInline
    nonisolated(unsafe) static var isOn = false
    nonisolated(unsafe) static var users = 0
    /// The changes kept, oldest first; `folded` older ones were dropped.
    nonisolated(unsafe) static var changes: [Change] = []
    nonisolated(unsafe) static var folded = 0
    /// Each journaled value before its first change kept, or the value after the last change
    /// folded away.
    nonisolated(unsafe) static var before: [ObjectIdentifier: Change] = [:]

    /// `folded + changes.count`, kept as one stored value: a store reads it with every action
    /// it records while the journal is on (0 while it is off).
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) static var position = 0

    /// Notes the value of `box` before a change, the first time the journal sees it.
    @usableFromInline
    static func noteBefore(_ box: AnyObject, value: @autoclosure () -> Any) {
        let id = ObjectIdentifier(box)
        if before[id] == nil { before[id] = Change(box: box, value: value()) }
    }

    /// Journals the value of `box` after a change.
    @usableFromInline
    static func noteChange(_ box: AnyObject, value: Any) {
        changes.append(Change(box: box, value: value))
        position += 1
        guard changes.count > PrismSharedTools.Journal.capacity else { return }
        // Fold the older half into the values the journal starts from.
        let dropped = changes.count / 2
        for change in changes[..<dropped] { before[ObjectIdentifier(change.box)] = change }
        changes.removeFirst(dropped)
        folded += dropped
    }
}
