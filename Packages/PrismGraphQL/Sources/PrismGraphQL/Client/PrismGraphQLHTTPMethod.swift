/// How an operation travels over HTTP, as the GraphQL-over-HTTP specification allows.
///
/// ```swift
/// // Every query as GET (cacheable by HTTP caches and CDNs); mutations stay POST.
/// let graphql = PrismGraphQLClient(endpointURL: url, queryMethod: .get)
///
/// // One query as GET on a client that posts the others.
/// var query = getUserQuery
/// query.httpMethod = .get
/// ```
///
/// A GET carries the document, `operationName`, `variables` and `extensions` (the last two as
/// JSON text) in the URL's query, and no body. Mutations are never sent as GET: a client whose
/// ``PrismGraphQLClient/queryMethod`` is `.get` posts them, and a mutation whose own
/// ``PrismGraphQLQuery/httpMethod`` is `.get` fails with
/// ``PrismGraphQLError/Code-swift.struct/invalidOperation`` before anything is sent. With
/// automatic persisted queries a GET sends only the document's hash, which keeps URLs short.
public enum PrismGraphQLHTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// A POST with a JSON body (`Content-Type: application/json`).
    case post = "POST"
    /// A GET with the operation in the URL's query.
    case get = "GET"
}
