import NIOCore

extension PrismTestServer {
    /// What the GraphQL subscriptions endpoint (`graphql-transport-ws` on `/graphql`) saw, since
    /// the start or the last ``reset()``.
    public struct GraphQLSubscriptionStatistics: Sendable, Hashable {
        /// WebSocket connections accepted.
        public var connections: Int
        /// Connections still open.
        public var openConnections: Int
        /// The header fields of every upgrade request accepted, names lowercased.
        public var upgradeHeaders: [[String: String]]
        /// The `connection_init` payloads received, as JSON text with sorted keys.
        public var initPayloads: [String]
        /// The type of every message clients sent, in order (`connection_init`, `subscribe`,
        /// `ping`, `pong`, `complete`, ...).
        public var messageTypes: [String]
        /// The ids of the subscriptions clients completed, in order.
        public var completedIDs: [String]
        /// Subscriptions running now.
        public var activeSubscriptions: Int
        /// Subscriptions started.
        public var subscriptionsStarted: Int
        /// `counter` event streams that ended, by completing or because the client completed them.
        public var counterStreamsEnded: Int

        /// How many messages of `type` clients sent.
        public func count(of type: String) -> Int {
            messageTypes.filter { $0 == type }.count
        }
    }

    /// What the GraphQL subscriptions endpoint saw.
    public var graphQLSubscriptionStatistics: GraphQLSubscriptionStatistics {
        self.state.withValues { values in
            let subscriptions = values.graphQLSubscriptions
            return GraphQLSubscriptionStatistics(
                connections: subscriptions.connections,
                openConnections: subscriptions.openSockets.count,
                upgradeHeaders: subscriptions.upgradeHeaders,
                initPayloads: subscriptions.initPayloads,
                messageTypes: subscriptions.messageTypes,
                completedIDs: subscriptions.completedIDs,
                activeSubscriptions: subscriptions.activeSubscriptions,
                subscriptionsStarted: subscriptions.subscriptionsStarted,
                counterStreamsEnded: subscriptions.counterStreamsEnded
            )
        }
    }

    /// Cuts every open subscriptions socket at the TCP level, without a WebSocket close frame,
    /// as a server that dies or a network that drops would; returns how many it cut.
    @discardableResult
    public func dropGraphQLSubscriptionSockets() -> Int {
        let channels = self.state.withValues { Array($0.graphQLSubscriptions.openSockets.values) }
        for channel in channels { channel.close(promise: nil) }
        return channels.count
    }
}
