extension PrismInspector {
    /// How an inspector is set up. The defaults suit an app on a developer's machine.
    public struct Configuration: Sendable {
        /// The most snapshots kept (each holds the state after an action): older ones are
        /// evicted. Memory grows with this number, never with the number of actions.
        public var historyLimit: Int
        /// How often a batch of new actions goes to an open page.
        public var batchInterval: Duration
        /// The clock that paces the batches.
        public var clock: any Clock<Duration>
        /// The port to listen on (on 127.0.0.1); 0, the default, lets the system pick a free one.
        public var port: Int
        /// Whether `start` prints the page's URL to standard error.
        public var printsURL: Bool
        /// The title of the page (the store's type by default).
        public var title: String?
        /// The largest message a page may send (a session recording to load), in bytes.
        public var maxMessageBytes: Int

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - historyLimit: The most snapshots kept; at least 1.
        ///   - batchInterval: How often new actions go to an open page.
        ///   - clock: The clock that paces the batches.
        ///   - port: The port on 127.0.0.1; 0 picks a free one.
        ///   - printsURL: Whether `start` prints the page's URL to standard error.
        ///   - title: The page's title.
        ///   - maxMessageBytes: The largest message a page may send.
        public init(
            historyLimit: Int = 1_000,
            batchInterval: Duration = .milliseconds(50),
            clock: any Clock<Duration> = ContinuousClock(),
            port: Int = 0,
            printsURL: Bool = true,
            title: String? = nil,
            maxMessageBytes: Int = 32 << 20
        ) {
            self.historyLimit = historyLimit
            self.batchInterval = batchInterval
            self.clock = clock
            self.port = port
            self.printsURL = printsURL
            self.title = title
            self.maxMessageBytes = maxMessageBytes
        }
    }
}
