extension PrismTestServer {
    /// One answer of a scripted route: a status, header field lines in order (a name repeated is
    /// a line each), a body, and how long to wait before answering.
    public struct ScriptedResponse: Sendable, Equatable {
        /// The status code, 200 to 599.
        public var status: Int
        /// The header field lines, in order.
        public var headers: [(name: String, value: String)]
        /// The body (none for 204, 205, 304 and HEAD).
        public var body: String
        /// How long the server waits before it answers, in milliseconds (the wait ends early
        /// when the client leaves or the server stops).
        public var delayMilliseconds: Int

        /// An answer with `status`, `headers` and `body`, after `delayMilliseconds`.
        public init(
            status: Int = 200, headers: [(name: String, value: String)] = [], body: String = "",
            delayMilliseconds: Int = 0
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delayMilliseconds = delayMilliseconds
        }

        /// Whether the answers have the same status, header lines (in order) and body.
        public static func == (lhs: ScriptedResponse, rhs: ScriptedResponse) -> Bool {
            lhs.status == rhs.status && lhs.body == rhs.body && lhs.delayMilliseconds == rhs.delayMilliseconds
                && lhs.headers.elementsEqual(rhs.headers, by: ==)
        }
    }

    /// Scripts `ANY /scripted/<name>`: the n-th request to it (any method, any query) gets
    /// `responses[n-1]`, and every request after the last gets the last. Scripting a name again
    /// starts it over. What a cache test needs: the exact header lines of each answer, in order,
    /// 304s included, without a route per case.
    public func script(_ name: String, _ responses: [ScriptedResponse]) {
        precondition(!responses.isEmpty, "script(_:_:) needs at least one response")
        self.state.withValues { values in
            values.scripts[name] = responses
            values.scriptPositions[name] = 0
        }
    }
}
