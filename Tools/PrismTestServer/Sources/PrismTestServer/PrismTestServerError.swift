/// An error of the test server itself (not of a route: routes answer with HTTP statuses).
///
/// Errors of the network stack (a port already in use, say) are thrown as they are.
public struct PrismTestServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The server stopped before it accepted connections.
        public static let stoppedBeforeStart = Code(name: "stoppedBeforeStart")
        /// The server's listening socket has no port (it is not bound to an IP address).
        public static let noPort = Code(name: "noPort")
        /// No port could be reserved for ``PrismRefusedPort`` (the message carries `errno`).
        public static let portUnavailable = Code(name: "portUnavailable")

        /// The code's name.
        public var description: String { self.name }
    }

    /// What went wrong.
    public var code: Code
    /// A sentence that says what happened and what to do.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message.
    public var description: String { "PrismTestServerError.\(self.code): \(self.message)" }
}
