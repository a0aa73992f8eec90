/// What one server remembers of its GraphQL requests: kept in ``ServerState/Values/graphQL``,
/// so that ``PrismTestServer/reset()`` clears it with everything else.
struct GraphQLValues {
    /// How many operations ``GraphQLValues/operations`` keeps (the most recent ones).
    static let maximumRecordedOperations = 1_000

    /// Automatic persisted queries: SHA-256 (lowercase hex) → query text.
    var persistedQueries: [String: String] = [:]
    /// The requests whose body was a GraphQL request, oldest first.
    var operations: [PrismTestServer.GraphQLOperation] = []
    /// Every request that reached a GraphQL route (a malformed one too).
    var requests = 0
    /// Operations executed (a request refused before execution is not one).
    var executed = 0
    var persistedQueryHits = 0
    var persistedQueryMisses = 0
    var persistedQueryRegistrations = 0
    /// The number `createIssue` gives the next issue.
    var nextIssueNumber = 1347
}

extension ServerState {
    /// Counts a request that reached a GraphQL route.
    func countGraphQLRequest() {
        self.withValues { $0.graphQL.requests += 1 }
    }

    /// Records a GraphQL request body as it arrived.
    func recordGraphQLOperation(_ operation: PrismTestServer.GraphQLOperation) {
        self.withValues { values in
            values.graphQL.operations.append(operation)
            let excess = values.graphQL.operations.count - GraphQLValues.maximumRecordedOperations
            if excess > 0 { values.graphQL.operations.removeFirst(excess) }
        }
    }

    /// Counts an executed operation and returns its number (1 for the first).
    func nextGraphQLExecution() -> Int {
        self.withValues { values in
            values.graphQL.executed += 1
            return values.graphQL.executed
        }
    }

    /// The query registered under `hash`, counting a hit or a miss.
    func persistedQuery(hash: String) -> String? {
        self.withValues { values in
            let query = values.graphQL.persistedQueries[hash]
            if query == nil {
                values.graphQL.persistedQueryMisses += 1
            } else {
                values.graphQL.persistedQueryHits += 1
            }
            return query
        }
    }

    /// Registers `query` under `hash` (which the caller checked).
    func registerPersistedQuery(_ query: String, hash: String) {
        self.withValues { values in
            if values.graphQL.persistedQueries.updateValue(query, forKey: hash) == nil {
                values.graphQL.persistedQueryRegistrations += 1
            }
        }
    }
}
