import Foundation
import PrismSupport

/// Apollo's automatic persisted queries: the hash sent in place of the document, and what the
/// server's answer says about it.
enum PersistedQueries {
    /// What a response says about a hash sent without its query.
    enum Outcome: Equatable {
        /// The server does not know the hash: send the query with it, to register it.
        case notFound
        /// The server does not do persisted queries: send the query alone, from now on.
        case notSupported
    }

    /// The SHA-256 of `query`'s UTF-8 bytes, in lowercase hex.
    static func hash(of query: String) -> String {
        SHA256Hex.digest(of: Data(query.utf8))
    }

    /// What `errors` say about the persisted query, or nil when they say nothing of it.
    static func outcome(of errors: [PrismGraphQLResponseError]?) -> Outcome? {
        for error in errors ?? [] {
            if error.message == "PersistedQueryNotFound" || error.code == "PERSISTED_QUERY_NOT_FOUND" {
                return .notFound
            }
            if error.message == "PersistedQueryNotSupported" || error.code == "PERSISTED_QUERY_NOT_SUPPORTED" {
                return .notSupported
            }
        }
        return nil
    }

    /// Whether the server still may support persisted queries (until it says it does not).
    final class Support: Sendable {
        private let supported = PrismLocked(true)

        var isSupported: Bool {
            supported.value
        }

        func markUnsupported() {
            supported.withLock { $0 = false }
        }
    }
}
