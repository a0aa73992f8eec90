/// An error a ``PrismTestStore`` throws.
public struct PrismTestStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// Effects were still running when the wait timed out.
        public static let timedOut = Code(name: "timedOut")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// A sentence that says what happened and how to fix it.
    public let message: String

    /// A sentence that says what happened and how to fix it.
    public var description: String { message }
}
