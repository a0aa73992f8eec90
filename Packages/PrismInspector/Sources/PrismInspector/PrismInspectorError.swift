/// An error of PrismInspector.
///
/// Check ``code`` to tell errors apart; ``message`` says what happened in words.
public struct PrismInspectorError: Error, Sendable, CustomStringConvertible {
    /// What kind of error this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// The server could not listen on 127.0.0.1 (the port is taken, or sockets are not
        /// allowed: always on watchOS, where an ordinary app may not open one).
        public static let cannotListen = Code("cannotListen")

        /// Another inspector is attached to the store. One inspector at a time: stop the other
        /// one (``PrismInspector/stop()``) first.
        public static let storeAlreadyInspected = Code("storeAlreadyInspected")

        /// No test can be written of the actions asked for: they are no longer kept, the
        /// state before them is not, a note (a state no action explains) is among them, or
        /// every one of them is skipped.
        public static let cannotWriteTest = Code("cannotWriteTest")

        /// The name of the code.
        public var description: String { name }
    }

    /// What kind of error this is.
    public let code: Code
    /// What happened, in words.
    public let message: String
    /// The error underneath, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The message, and the underlying error if any.
    public var description: String {
        underlying.map { "\(message) (\($0))" } ?? message
    }
}
