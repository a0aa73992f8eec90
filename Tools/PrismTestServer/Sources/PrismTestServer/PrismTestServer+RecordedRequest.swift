extension PrismTestServer {
    /// One request as it reached the server, recorded in arrival order.
    ///
    /// Requests are recorded by a channel handler as soon as their head is parsed, before any
    /// route runs, so requests to `/drop` and to unknown paths are recorded too. ``bodyByteCount``
    /// grows while the body arrives: it is final once the route has read the body (every route
    /// that takes a body reads it before answering); a route that ignores a body may answer
    /// before the body has been drained.
    ///
    /// ```swift
    /// let last = try #require(server.requests.last)
    /// #expect(last.method == "POST")
    /// #expect(last.headers["content-type"] == "application/json")
    /// ```
    public struct RecordedRequest: Sendable, Equatable {
        /// The method, e.g. `GET`.
        public var method: String
        /// The path as sent, percent-encoded, without the query: `/users/octocat`.
        public var path: String
        /// The raw query after `?` (percent-encoded), or nil when the request had none.
        public var query: String?
        /// The headers, names lowercased; a repeated header's values are joined with `, `.
        public var headers: [String: String]
        /// How many body bytes have arrived so far.
        public var bodyByteCount: Int

        /// The query's items, percent-decoded; when a name repeats, the last value wins.
        public var queryItems: [String: String] {
            RequestTarget.queryDictionary(self.query)
        }

        /// Creates a recorded request.
        public init(method: String, path: String, query: String?, headers: [String: String], bodyByteCount: Int) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.bodyByteCount = bodyByteCount
        }
    }
}
