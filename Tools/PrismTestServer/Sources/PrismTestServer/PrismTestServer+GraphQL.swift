extension PrismTestServer {
    /// One GraphQL request as `/graphql` received it (its body or URL parsed, before any
    /// persisted query was looked up).
    public struct GraphQLOperation: Sendable, Hashable {
        /// The `query` member, or nil when the request sent only a persisted query's hash.
        public var query: String?
        /// The `operationName` member.
        public var operationName: String?
        /// The `variables` member as JSON text (object keys sorted), or nil when absent or null.
        public var variables: String?
        /// `extensions.persistedQuery.sha256Hash`, when the request carried one.
        public var persistedQueryHash: String?
        /// The request's path, such as `/graphql` or `/graphql/flaky/a`.
        public var path: String
        /// The request's method: `POST`, or `GET` for a query sent in the URL.
        public var method: String = "POST"
        /// The request's `Accept` header, or nil without one.
        public var accept: String?
    }

    /// Counters of the GraphQL routes, since the start or the last ``reset()``.
    public struct GraphQLStatistics: Sendable, Hashable {
        /// Requests that reached a GraphQL route, malformed ones included.
        public var requests: Int
        /// Operations executed against the schema.
        public var executed: Int
        /// Requests whose persisted-query hash was known (the query was not sent).
        public var persistedQueryHits: Int
        /// Requests that sent a hash the server did not know (answered `PersistedQueryNotFound`).
        public var persistedQueryMisses: Int
        /// Queries registered under their hash (sent with the query and a matching hash).
        public var persistedQueryRegistrations: Int
    }

    /// The GraphQL routes' counters.
    public var graphQLStatistics: GraphQLStatistics {
        self.state.withValues { values in
            GraphQLStatistics(
                requests: values.graphQL.requests,
                executed: values.graphQL.executed,
                persistedQueryHits: values.graphQL.persistedQueryHits,
                persistedQueryMisses: values.graphQL.persistedQueryMisses,
                persistedQueryRegistrations: values.graphQL.persistedQueryRegistrations
            )
        }
    }

    /// The GraphQL requests received, oldest first (the most recent 1,000 are kept).
    public var graphQLOperations: [GraphQLOperation] {
        self.state.withValues { $0.graphQL.operations }
    }
}
