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
        /// The body as bytes, sent instead of `body` when set: a body that is not text
        /// (compressed, binary, invalid UTF-8).
        public var bytes: [UInt8]?
        /// How long the server waits before it answers, in milliseconds (the wait ends early
        /// when the client leaves or the server stops).
        public var delayMilliseconds: Int
        /// More of the body, each written (and flushed) after its own wait, after `body`: a body
        /// that arrives over time, chunked (no `Content-Length`).
        public var parts: [Part]
        /// Whether the server closes the connection after the parts instead of ending the body:
        /// a stream cut midway.
        public var dropsConnection: Bool

        /// A piece of a body written after a wait.
        public struct Part: Sendable, Equatable {
            /// The wait before the piece, in milliseconds.
            public var delayMilliseconds: Int
            /// The name the piece waits for, after its delay: it is written once the test calls
            /// ``PrismTestServer/release(_:)`` with that name (at once if it already did).
            public var releasedBy: String?
            /// The piece.
            public var text: String

            /// `text`, written `delayMilliseconds` after what came before.
            public init(after delayMilliseconds: Int = 0, _ text: String) {
                self.delayMilliseconds = delayMilliseconds
                self.releasedBy = nil
                self.text = text
            }

            /// `text`, written when the test releases `name` (``PrismTestServer/release(_:)``):
            /// an answer that holds its connection for exactly as long as a test needs, whatever
            /// the machine's speed.
            public init(releasedBy name: String, _ text: String) {
                self.delayMilliseconds = 0
                self.releasedBy = name
                self.text = text
            }
        }

        /// An answer with `status`, `headers` and `body`, after `delayMilliseconds`; then `parts`,
        /// each after its wait; then the end of the body, or a closed connection when
        /// `dropsConnection`.
        public init(
            status: Int = 200, headers: [(name: String, value: String)] = [], body: String = "",
            delayMilliseconds: Int = 0, parts: [Part] = [], dropsConnection: Bool = false
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.bytes = nil
            self.delayMilliseconds = delayMilliseconds
            self.parts = parts
            self.dropsConnection = dropsConnection
        }

        /// An answer with `status`, `headers` and `bytes` as its body.
        public init(status: Int = 200, headers: [(name: String, value: String)] = [], bytes: [UInt8]) {
            self.init(status: status, headers: headers)
            self.bytes = bytes
        }

        /// Whether the answers have the same status, header lines (in order), body and parts.
        public static func == (lhs: ScriptedResponse, rhs: ScriptedResponse) -> Bool {
            lhs.status == rhs.status && lhs.body == rhs.body && lhs.bytes == rhs.bytes
                && lhs.delayMilliseconds == rhs.delayMilliseconds
                && lhs.headers.elementsEqual(rhs.headers, by: ==) && lhs.parts == rhs.parts
                && lhs.dropsConnection == rhs.dropsConnection
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

    /// Lets every scripted part that waits for `name` (``ScriptedResponse/Part/init(releasedBy:_:)``)
    /// be written: those waiting now, and those that will wait later.
    public func release(_ name: String) {
        self.state.withValues { values in _ = values.releasedNames.insert(name) }
    }
}
