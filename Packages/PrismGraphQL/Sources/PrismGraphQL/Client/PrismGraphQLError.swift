import Foundation
import PrismHTTP

/// Everything that can go wrong with a GraphQL request, with the context a caller needs: the
/// status code and body of a response that was not a GraphQL answer, the URL, the operation,
/// the GraphQL errors the body carried, and the underlying error.
///
/// ```swift
/// do {
///     let response: PrismGraphQLResponse<UserData> = try await graphql.execute(query)
/// } catch let error as PrismGraphQLError where error.code == .unacceptableStatus {
///     print(error.statusCode ?? 0, error.bodyText ?? "")
/// }
/// ```
///
/// GraphQL `errors` in a successful response are not thrown: they are in
/// ``PrismGraphQLResponse/errors``, beside any partial data. Task cancellation is not a
/// `PrismGraphQLError` either: a cancelled request throws `CancellationError`.
public struct PrismGraphQLError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added: switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) { self.name = name }

        /// The variables could not be encoded as JSON.
        public static let encodingFailed = Code("encodingFailed")
        /// The server answered with a non-2xx status (see ``PrismGraphQLError/statusCode`` and
        /// ``PrismGraphQLError/body``; GraphQL errors in that body are in ``PrismGraphQLError/errors``).
        public static let unacceptableStatus = Code("unacceptableStatus")
        /// The body is not a GraphQL response: not JSON, or a JSON value without `data` or `errors`.
        public static let invalidResponse = Code("invalidResponse")
        /// The response is GraphQL, but its `data` does not decode into the expected type.
        public static let decodingFailed = Code("decodingFailed")
        /// The request failed before a response arrived: a connection or timeout failure, or
        /// every retry failed (``PrismGraphQLError/underlying`` is the `PrismHTTPError`).
        public static let requestFailed = Code("requestFailed")
        /// The response carried GraphQL errors and the caller asked for data only
        /// (``PrismGraphQLResponse/requireData()``).
        public static let graphQLErrors = Code("graphQLErrors")
        /// The client's `endpointURL` is not an absolute `http` or `https` URL with a host.
        /// Nothing was sent.
        public static let invalidEndpoint = Code("invalidEndpoint")
        /// The query's `cacheInterval` is not a finite number of seconds of at least zero.
        /// Nothing was sent.
        public static let invalidCacheInterval = Code("invalidCacheInterval")
        /// The operation cannot be sent as asked: a mutation whose ``PrismGraphQLQuery/httpMethod``
        /// is `.get` (mutations are never sent as GET). Nothing was sent.
        public static let invalidOperation = Code("invalidOperation")
        /// A subscription's server broke the `graphql-transport-ws` protocol: a message that is
        /// not JSON, of an unknown type, before `connection_ack`, for an id the client never
        /// used, a binary or over-large message; or it closed the socket with a code that says
        /// the exchange went wrong (4400 Bad Request, 4406 Subprotocol not acceptable, 4409
        /// Subscriber already exists, 4429 Too many initialisation requests, 1002, 1003, 1007).
        /// Every subscription on that socket ends with it (``PrismGraphQLError/closeCode``
        /// says which close, when one did).
        public static let subscriptionProtocolViolation = Code("subscriptionProtocolViolation")
        /// A subscription's server did not answer `connection_init` with `connection_ack` within
        /// the configured timeout. Every subscription on that socket ends with it.
        public static let connectionAckTimeout = Code("connectionAckTimeout")
        /// A subscription's server refused the connection: it closed the socket with 4401
        /// Unauthorized or 4403 Forbidden (after one refresh of the authenticator's
        /// credentials, when the client has an authenticator), 1008 Policy violation or 4500
        /// Internal server error (``PrismGraphQLError/closeCode``). Every subscription on that
        /// socket ends with it.
        public static let subscriptionRejected = Code("subscriptionRejected")
        /// A subscription's consumer fell too far behind: more events arrived than
        /// ``PrismGraphQLSubscriptionConfiguration/maximumBufferedEvents`` while it did not read.
        /// The events held are delivered first; the client completes the subscription on the
        /// server. Other subscriptions on the socket go on.
        public static let consumerTooSlow = Code("consumerTooSlow")
        /// This build of PrismGraphQL has no WebSocket client: Prism was added without its
        /// `WebSocketSubscriptions` package trait (on by default; off with `traits: []`), or it runs
        /// on watchOS, where an ordinary app may not open a socket (Apple's TN3135). Every
        /// subscription ends with it at once; queries and mutations are not affected.
        public static let subscriptionsUnavailable = Code("subscriptionsUnavailable")
        /// The normalized cache does not hold everything the operation selects: the message names
        /// the first missing record or field (`User:42.email`). Nothing partial is returned.
        public static let cacheMiss = Code("cacheMiss")
        /// The operation's document could not be read by the normalized cache (the message says
        /// where), or its answer does not have what the document selects.
        public static let invalidDocument = Code("invalidDocument")
        /// The normalized cache's store on disk could not be read: it is not an SQLite database,
        /// SQLite found it damaged, it was written by a newer Prism, or a record in it does not
        /// read back. Nothing of it was served: the file was moved aside (the message says where,
        /// for a bug report), and opening the store again starts an empty one.
        public static let cacheStoreCorrupted = Code("cacheStoreCorrupted")
        /// The normalized cache's store on disk could not be opened or written: its folder cannot
        /// be made, the disk is full or read-only, or another process has it open (a store has
        /// one owner at a time). ``PrismGraphQLError/underlying`` is SQLite's error. What is in
        /// memory is not affected.
        public static let cacheStoreFailed = Code("cacheStoreFailed")
        /// This build of PrismGraphQL keeps the normalized cache in memory only: Prism was added
        /// without its `SQLite` package trait (on by default; off with `traits: []`).
        public static let cacheStoreUnavailable = Code("cacheStoreUnavailable")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence that says what went wrong.
    public var message: String
    /// The GraphQL endpoint.
    public var url: URL?
    /// The operation's name, when it has one.
    public var operationName: String?
    /// The status code of the response, when one arrived.
    public var statusCode: Int?
    /// The headers of the response, when they are known.
    public var headers: PrismHTTPHeaders?
    /// The body of the response, when one arrived.
    public var body: Data?
    /// The GraphQL errors the response carried, if it was GraphQL.
    public var errors: [PrismGraphQLResponseError]
    /// The error underneath (a `PrismHTTPError`, a `DecodingError`, an `EncodingError`...).
    public var underlying: (any Error)?
    /// The WebSocket close code, for a subscription that ended because its socket was closed
    /// (4403, say); nil otherwise.
    public var closeCode: Int?

    /// Creates an error.
    public init(
        code: Code,
        message: String,
        url: URL? = nil,
        operationName: String? = nil,
        statusCode: Int? = nil,
        headers: PrismHTTPHeaders? = nil,
        body: Data? = nil,
        errors: [PrismGraphQLResponseError] = [],
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.url = url
        self.operationName = operationName
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.errors = errors
        self.underlying = underlying
    }

    /// The body as UTF-8 text, when there is one.
    public var bodyText: String? {
        body.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The code, the message, the operation, the URL (its credentials redacted) and the start
    /// of the body.
    public var description: String {
        var text = "PrismGraphQLError.\(code): \(message)"
        if let operationName { text += " (operation \(operationName))" }
        if let closeCode { text += " (close code \(closeCode))" }
        if let url { text += " [\(PrismHTTPRedaction.redact(url))]" }
        if let bodyText, !bodyText.isEmpty {
            let preview = bodyText.prefix(500)
            text += " body: \(preview)\(bodyText.count > 500 ? "…" : "")"
        }
        return text
    }
}
