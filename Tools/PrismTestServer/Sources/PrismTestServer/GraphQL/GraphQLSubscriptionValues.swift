import NIOCore

/// What one server remembers of its GraphQL subscriptions (`graphql-transport-ws` on
/// `/graphql`): kept in ``ServerState/Values/graphQLSubscriptions``.
struct GraphQLSubscriptionValues {
    /// WebSocket connections accepted, and those still open (by number).
    var connections = 0
    var openSockets: [Int: any Channel] = [:]
    /// The header fields of every upgrade request accepted (names lowercased).
    var upgradeHeaders: [[String: String]] = []
    /// The `connection_init` payloads received, as JSON text (keys sorted).
    var initPayloads: [String] = []
    /// The type of every message received, in order.
    var messageTypes: [String] = []
    /// The ids of the subscriptions clients completed.
    var completedIDs: [String] = []
    /// Subscriptions running now, and started since the start.
    var activeSubscriptions = 0
    var subscriptionsStarted = 0
    /// `counter` source streams that ended (completed or cancelled).
    var counterStreamsEnded = 0
    /// Tasks `addTask` added, and the `taskAdded` streams that get the next ones.
    var nextTaskID = 1
    /// Every task added, by id (`tasks`, `task(id:)` and `renameTask` read and change them).
    var tasks: [Int: GraphQLTaskItem] = [:]
    var taskFeeds: [Int: AsyncThrowingStream<GraphQLTaskItem, any Error>.Continuation] = [:]
    var nextFeed = 0
}

extension ServerState {
    /// Adds a task and publishes it to every `taskAdded` subscription.
    func addGraphQLTask(title: String) -> GraphQLTaskItem {
        let (item, feeds) = self.withValues { values in
            let item = GraphQLTaskItem(id: values.graphQLSubscriptions.nextTaskID, title: title)
            values.graphQLSubscriptions.nextTaskID += 1
            values.graphQLSubscriptions.tasks[item.id] = item
            return (item, Array(values.graphQLSubscriptions.taskFeeds.values))
        }
        for feed in feeds { feed.yield(item) }
        return item
    }

    /// Every task, by id.
    func graphQLTasks() -> [GraphQLTaskItem] {
        self.withValues { $0.graphQLSubscriptions.tasks.values.sorted { $0.id < $1.id } }
    }

    /// The task `id`, if there is one.
    func graphQLTask(id: Int) -> GraphQLTaskItem? {
        self.withValues { $0.graphQLSubscriptions.tasks[id] }
    }

    /// Renames the task `id`; nil when there is none.
    func renameGraphQLTask(id: Int, title: String) -> GraphQLTaskItem? {
        self.withValues { values in
            guard values.graphQLSubscriptions.tasks[id] != nil else { return nil }
            let renamed = GraphQLTaskItem(id: id, title: title)
            values.graphQLSubscriptions.tasks[id] = renamed
            return renamed
        }
    }

    /// A stream of the tasks added from now on.
    func graphQLTaskFeed() -> AsyncThrowingStream<GraphQLTaskItem, any Error> {
        let (stream, continuation) = AsyncThrowingStream<GraphQLTaskItem, any Error>.makeStream()
        let number = self.withValues { values in
            values.graphQLSubscriptions.nextFeed += 1
            let number = values.graphQLSubscriptions.nextFeed
            values.graphQLSubscriptions.taskFeeds[number] = continuation
            return number
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.withValues { $0.graphQLSubscriptions.taskFeeds.removeValue(forKey: number) }
        }
        return stream
    }

    func countGraphQLCounterEnded() {
        self.withValues { $0.graphQLSubscriptions.counterStreamsEnded += 1 }
    }
}
