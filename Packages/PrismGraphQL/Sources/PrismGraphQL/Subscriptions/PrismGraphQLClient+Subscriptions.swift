import Foundation

extension PrismGraphQLClient {
    /// Runs `subscription` over the client's WebSocket and streams its events, decoded as `type`.
    ///
    /// ```swift
    /// let events = graphql.subscribe(taskAdded, as: TaskAddedData.self)
    /// for try await event in events {
    ///     if let task = event.data?.taskAdded { show(task) }
    /// }
    /// ```
    ///
    /// The client speaks the `graphql-transport-ws` protocol (the `graphql-ws` library's, which
    /// Apollo Server, GraphQL Yoga, Hasura and others serve) on one WebSocket that every
    /// subscription of the client, and of its copies, shares:
    ///
    /// - The socket opens with the first subscription, at ``PrismGraphQLSubscriptionConfiguration/url``
    ///   or the endpoint's URL as `ws`/`wss`, with the subprotocol `graphql-transport-ws` and the
    ///   headers an HTTP request would carry (`additionalHeaders`, then the adapter's
    ///   interceptors and authenticator). Its `connection_init` payload carries
    ///   ``PrismGraphQLSubscriptionConfiguration/connectionParameters`` and the credential:
    ///   `Authorization` (and any header the authenticator sets) under its header name.
    /// - Each event is a `next` message, decoded as ``execute(_:options:)->PrismGraphQLResponse<T>`` decodes a response:
    ///   GraphQL errors beside data are in ``PrismGraphQLResponse/errors``, not thrown.
    /// - The stream finishes when the server completes the subscription. It throws
    ///   ``PrismGraphQLError`` with code `graphQLErrors` when the server ends it with an `error`
    ///   message (its errors in ``PrismGraphQLError/errors``), `decodingFailed` or
    ///   `invalidResponse` when an event does not decode (the client then completes the
    ///   subscription), `consumerTooSlow` when more than
    ///   ``PrismGraphQLSubscriptionConfiguration/maximumBufferedEvents`` arrived unread (the
    ///   events held come first; the client completes the subscription), and for failures of the socket: `subscriptionProtocolViolation`,
    ///   `connectionAckTimeout`, `subscriptionRejected` (close codes 4401/4403 after one refresh of
    ///   the authenticator's credentials, 1008, 4500), `invalidEndpoint`, `encodingFailed`, and
    ///   `requestFailed` when the socket was lost and the reconnect policy gave up.
    /// - Ending the iteration, or cancelling the task that iterates, sends `complete` for that
    ///   subscription; the socket closes when none remains (after
    ///   ``PrismGraphQLSubscriptionConfiguration/linger``).
    /// - The client answers the server's pings and sends its own every
    ///   ``PrismGraphQLSubscriptionConfiguration/keepAliveInterval``. When the socket is lost,
    ///   it reconnects as ``PrismGraphQLSubscriptionConfiguration/reconnectPolicy`` says, sends
    ///   `connection_init` again and subscribes every active subscription again: the stream goes
    ///   on (events published while the socket was down are the server's to replay or not).
    ///
    /// With the adapter's logger, the socket's life is logged (`.debug`) and its failures
    /// (`.warning`), the URL and headers redacted and the init payload by member names only.
    public func subscribe<T: Decodable & Sendable>(
        _ subscription: PrismGraphQLSubscription,
        as type: T.Type
    ) -> AsyncThrowingStream<PrismGraphQLResponse<T>, any Error> {
        let limit = subscriptionConfiguration.maximumBufferedEvents
        let (stream, continuation) = AsyncThrowingStream<PrismGraphQLResponse<T>, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(limit))
        let connection = subscriptionConnection
        let id = connection.makeID()
        let message: String
        do {
            message = try GraphQLTransportWS.subscribe(
                id: id,
                payload: GraphQLRequestBody(
                    query: subscription.query,
                    operationName: subscription.operationName,
                    variables: subscription.variables,
                    persistedQueryHash: nil
                )
            )
        } catch {
            continuation.finish(
                throwing: PrismGraphQLError(
                    code: .encodingFailed,
                    message:
                        "Could not encode the variables of \(subscription.operationName ?? "the subscription") as JSON: \(error)",
                    url: endpointURL, operationName: subscription.operationName, underlying: error))
            return stream
        }
        let context = GraphQLResponseDecoding.Context(
            url: endpointURL, operationName: subscription.operationName, statusCode: nil)
        let subscriber = SubscriptionConnection.Subscriber(
            operationName: subscription.operationName,
            message: message,
            next: { [endpointURL] data -> PrismGraphQLError? in
                do throws(PrismGraphQLError) {
                    let event = try GraphQLResponseDecoding.decodePayload(T.self, ofMessage: data, context: context)
                    guard case .dropped = continuation.yield(event) else { return nil }
                    return PrismGraphQLError(
                        code: .consumerTooSlow,
                        message:
                            "More than \(limit) events arrived while the subscription's consumer did not read them; "
                            + "the subscription was completed.",
                        url: endpointURL, operationName: subscription.operationName)
                } catch {
                    return error
                }
            },
            finish: { error in
                if let error {
                    continuation.finish(throwing: error)
                } else {
                    continuation.finish()
                }
            }
        )
        continuation.onTermination = { _ in connection.remove(id) }
        connection.add(id, subscriber)
        return stream
    }

    /// Runs `subscription` and streams its events, decoded as the type the context asks for.
    ///
    /// ```swift
    /// let events: AsyncThrowingStream<PrismGraphQLResponse<TaskAddedData>, any Error> =
    ///     graphql.subscribe(taskAdded)
    /// ```
    public func subscribe<T: Decodable & Sendable>(
        _ subscription: PrismGraphQLSubscription
    ) -> AsyncThrowingStream<PrismGraphQLResponse<T>, any Error> {
        subscribe(subscription, as: T.self)
    }
}
