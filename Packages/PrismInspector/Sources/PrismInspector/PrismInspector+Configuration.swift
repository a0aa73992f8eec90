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
        /// The most connections served at once (pages and requests); one more is closed as
        /// soon as it is accepted. Any local program can connect: without a cap, a few hundred
        /// idle sockets would use up the app's file descriptors, and its saves would fail.
        public var maxConnections: Int
        /// How long a connection may take to send its whole request (then it is closed, however
        /// slowly it sends), and how long an open page may stay silent between frames (then it is pinged, and closed if no answer comes
        /// within as long again; a browser answers pings by itself).
        public var idleTimeout: Duration
        /// The most messages queued for one page and not written yet: a page that stops reading
        /// is closed when it has this many, instead of the queue growing without end.
        public var maxQueuedMessages: Int
        /// The Swift expression a test written from the page makes the store's reducer with,
        /// as a test file would write it (`AppFeature(api: .offline)`). When nil, the store's
        /// reducer type called with no arguments (`MyApp.AppFeature()`), if it is one Swift code
        /// can name; set it for a reducer that takes arguments or a store made with middleware.
        public var testReducer: String?
        /// The Swift expression a test written from the page sets the store's dependencies
        /// with: a function or closure of type `(inout DependencyValues) -> Void`, as a test file
        /// would write it (`AppDependencies.offline`, `{ $0.apiClient = .stub }`). When nil and
        /// the store was made with dependencies of its own
        /// (`PrismStore(initialState:reducer:withDependencies:)`), the written test does not
        /// compile until they are set, and says which types of value the store was given.
        public var testDependencies: String?

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
        ///   - maxConnections: The most connections served at once.
        ///   - idleTimeout: How long a connection may take to send its request, or a page stay silent.
        ///   - maxQueuedMessages: The most messages queued for a page that does not read.
        ///   - testReducer: The expression a written test makes the reducer with.
        ///   - testDependencies: The expression a written test sets the dependencies with.
        public init(
            historyLimit: Int = 1_000,
            batchInterval: Duration = .milliseconds(50),
            clock: any Clock<Duration> = ContinuousClock(),
            port: Int = 0,
            printsURL: Bool = true,
            title: String? = nil,
            maxMessageBytes: Int = 32 << 20,
            maxConnections: Int = 32,
            idleTimeout: Duration = .seconds(30),
            maxQueuedMessages: Int = 1_000,
            testReducer: String? = nil,
            testDependencies: String? = nil
        ) {
            precondition(maxConnections >= 1, "PrismInspector: maxConnections must be at least 1.")
            precondition(idleTimeout > .zero, "PrismInspector: idleTimeout must be positive.")
            precondition(maxQueuedMessages >= 1, "PrismInspector: maxQueuedMessages must be at least 1.")
            self.historyLimit = historyLimit
            self.batchInterval = batchInterval
            self.clock = clock
            self.port = port
            self.printsURL = printsURL
            self.title = title
            self.maxMessageBytes = maxMessageBytes
            self.maxConnections = maxConnections
            self.idleTimeout = idleTimeout
            self.maxQueuedMessages = maxQueuedMessages
            self.testReducer = testReducer
            self.testDependencies = testDependencies
        }
    }
}
