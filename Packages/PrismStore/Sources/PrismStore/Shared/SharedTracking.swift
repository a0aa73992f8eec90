/// A shared value without its type, as the tracking handles it.
@usableFromInline
protocol AnySharedBox: AnyObject {
    /// The key's id, or nil for a value of its own.
    var sharedID: String? { get }
    /// The value now.
    var currentValue: Any { get }
    /// From now until ``endAssertion()``, reads on the main thread give `expected` and writes
    /// change it; an `==` between two holders of this value compares `expected` with `actual`.
    func beginAssertion(expected: Any, actual: Any)
    func endAssertion()
    /// While asserting: the expected and the actual value, when they differ.
    var assertedDifference: (expected: Any, actual: Any)? { get }
}

extension PrismSharedTools {
    /// A shared value that an action changed: its value before the action and after it.
    public struct Change {
        let box: any AnySharedBox
        let before: Any
        let after: Any

        /// The id of the value's key, or nil for a value of its own.
        public var sharedID: String? { box.sharedID }
    }
}

extension PrismSharedTools {
    /// How `PrismTestStore` sees the shared values an action changes, and checks them against what
    /// the test expects. Main thread only (the test store and reducers run on the main actor).
    ///
    /// A shared value is a reference: the state before an action and the state after it hold the
    /// same one, so comparing them compares the value with itself. While the test store's reducer
    /// runs, ``track(_:)`` records the value of each shared value before its first change. While
    /// the test's closure describes the expected state and the states are compared,
    /// ``asserting(_:startingFromBefore:_:)`` puts each changed value in assertion mode: reads see
    /// the expected value (the one before the action, in an exhaustive test), the closure's writes
    /// change it, and `==` compares it with the value the action left.
    public enum Tracking {
        typealias Entry = SharedTrackingState.Entry
        private static var isTracking: Bool {
            get { SharedTrackingState.isTracking }
            set { SharedTrackingState.isTracking = newValue }
        }
        private static var isAsserting: Bool {
            get { SharedTrackingState.isAsserting }
            set { SharedTrackingState.isAsserting = newValue }
        }
        private static var isActive: Bool {
            get { SharedTrackingState.isActive }
            set { SharedTrackingState.isActive = newValue }
        }
        private static var log: [ObjectIdentifier: Entry] {
            get { SharedTrackingState.log }
            set { SharedTrackingState.log = newValue }
        }
        private static var asserted: [any AnySharedBox] {
            get { SharedTrackingState.asserted }
            set { SharedTrackingState.asserted = newValue }
        }

        /// Runs `body` (a reducer) and returns, with its result, every shared value it changed.
        public static func track<Result>(_ body: () throws -> Result) rethrows -> (Result, [PrismSharedTools.Change]) {
            precondition(!isTracking && !isAsserting, "PrismSharedTools.Tracking.track: already tracking.")
            isTracking = true
            isActive = true
            defer {
                isTracking = false
                isActive = false
                log = [:]
            }
            let result = try body()
            let changes = log.values.map {
                PrismSharedTools.Change(box: $0.box, before: $0.before, after: $0.box.currentValue)
            }
            return (result, changes)
        }

        /// The shared values in assertion mode whose expected value differs from the one the action
        /// left, by key id: what to show beside the diff of the states (where a shared value shows
        /// its expected value on both sides). Call inside ``asserting(_:startingFromBefore:_:)``.
        public static func assertedDifferences() -> [(id: String?, expected: Any, actual: Any)] {
            asserted.compactMap { box in
                box.assertedDifference.map { (box.sharedID, $0.expected, $0.actual) }
            }
        }

        /// Runs `body` (the diff of the expected state and the actual one, for a failure message)
        /// with every shared value in assertion mode equal to any other holder: its difference is
        /// shown apart, by key (``assertedDifferences()``), and in the states' diff it would read
        /// "not equal" with the same value on both sides. Call inside
        /// ``asserting(_:startingFromBefore:_:)``.
        public static func describingStates<Result>(_ body: () throws -> Result) rethrows -> Result {
            SharedTrackingState.isDescribing = true
            defer { SharedTrackingState.isDescribing = false }
            return try body()
        }

        /// Runs `body` (the test's closure and the comparison of the states) with each of `changes`
        /// in assertion mode, expecting its value before the change when `startingFromBefore` (an
        /// exhaustive test), after it otherwise.
        public static func asserting<Result>(
            _ changes: [PrismSharedTools.Change],
            startingFromBefore: Bool,
            _ body: () throws -> Result
        ) rethrows -> Result {
            precondition(!isTracking && !isAsserting, "PrismSharedTools.Tracking.asserting: already tracking.")
            for change in changes {
                change.box.beginAssertion(
                    expected: startingFromBefore ? change.before : change.after, actual: change.after)
            }
            asserted = changes.map(\.box)
            isAsserting = true
            isActive = true
            defer {
                for box in asserted { box.endAssertion() }
                asserted = []
                isAsserting = false
                isActive = false
            }
            return try body()
        }
    }
}

/// The tracking's state, read by the write path of every shared value. Main thread only.
@usableFromInline
enum SharedTrackingState {
    @usableFromInline
    struct Entry {
        let box: any AnySharedBox
        let before: Any

        @usableFromInline
        init(box: any AnySharedBox, before: Any) {
            self.box = box
            self.before = before
        }
    }

    /// Whether a write must look at the tracking (`isTracking || isAsserting`): the one flag the
    /// write path reads.
    @usableFromInline
    nonisolated(unsafe) static var isActive = false
    @usableFromInline
    nonisolated(unsafe) static var isAsserting = false
    nonisolated(unsafe) static var isTracking = false
    /// The values changed since tracking began, by box.
    @usableFromInline
    nonisolated(unsafe) static var log: [ObjectIdentifier: Entry] = [:]
    /// The values in assertion mode.
    @usableFromInline
    nonisolated(unsafe) static var asserted: [any AnySharedBox] = []
    /// Whether a failure's diff of the states is being made (see
    /// `PrismSharedTools.Tracking.describingStates`).
    nonisolated(unsafe) static var isDescribing = false
}
