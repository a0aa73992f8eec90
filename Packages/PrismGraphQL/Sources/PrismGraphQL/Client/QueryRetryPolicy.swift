import PrismHTTP

/// A retry policy for GraphQL queries: a query only reads, so its POST is retried as the policy
/// would retry a GET (the failure the policy sees names GET). Mutations keep the policy as is.
struct QueryRetryPolicy: PrismRetryPolicy {
    let base: any PrismRetryPolicy

    var maxAttempts: Int { base.maxAttempts }

    func delay(afterAttempt attempt: Int, failure: PrismRetryFailure) -> Duration? {
        guard var error = failure.httpError, error.method == .post else {
            return base.delay(afterAttempt: attempt, failure: failure)
        }
        error.method = .get
        return base.delay(afterAttempt: attempt, failure: PrismRetryFailure(error: error))
    }
}
