extension PrismTestServer {
    /// How far the server has read the body of an upload to `POST /upload`.
    ///
    /// Updated after every chunk the route reads, so a test can watch it grow while the client is
    /// still sending. With `POST /upload?slow=1` the route reads slowly (back-pressure reaches the
    /// client through TCP), which makes the client's own progress observable over time:
    ///
    /// ```swift
    /// // while the client's upload task is running:
    /// let progress = try #require(server.uploadProgress)
    /// #expect(progress.isComplete == false)
    /// ```
    public struct UploadProgress: Sendable, Equatable {
        /// The upload's `id` query item, or the empty string when the request had none.
        public var id: String
        /// Body bytes the route has read so far.
        public var bytesReceived: Int
        /// The request's `Content-Length`, or nil for a chunked body.
        public var expectedBytes: Int?
        /// How many progress updates were recorded (one per chunk read).
        public var updates: Int
        /// True once the whole body has been read.
        public var isComplete: Bool

        /// Creates an upload progress value.
        public init(id: String, bytesReceived: Int, expectedBytes: Int?, updates: Int, isComplete: Bool) {
            self.id = id
            self.bytesReceived = bytesReceived
            self.expectedBytes = expectedBytes
            self.updates = updates
            self.isComplete = isComplete
        }
    }
}
