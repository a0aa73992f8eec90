import Foundation
import Logging
import PrismHTTP
import PrismSupport

/// The one WebSocket a client's subscriptions share, multiplexed by id: what
/// `PrismGraphQLClient.subscribe` talks to. It hands every subscription and every end of one
/// to a ``SubscriptionDriver``, started with the first subscription and stopped when the client
/// and its streams are gone.
///
/// Adding and removing never wait: a stream's termination handler, which cannot, removes its
/// subscription in order with everything else the driver hears.
final class SubscriptionConnection: Sendable {
    /// One subscription: its `subscribe` message, and where its events go.
    struct Subscriber: Sendable {
        var operationName: String?
        /// The `subscribe` message, sent on every socket that is acknowledged while it lasts.
        var message: String
        /// Yields a `next` message's bytes; returns an error when it could not (the payload does
        /// not decode, the consumer is too far behind).
        var next: @Sendable (Data) -> PrismGraphQLError?
        /// Ends the stream: normally with nil, else with the error.
        var finish: @Sendable (PrismGraphQLError?) -> Void
    }

    /// The last subscription id given, and the driver once started.
    private struct State {
        var lastID = 0
        var driver: AsyncStream<SubscriptionDriver.Input>.Continuation?
    }

    let settings: SubscriptionSettings
    private let state = PrismLocked(State())

    init(settings: SubscriptionSettings) {
        self.settings = settings
    }

    deinit {
        state.withLock { $0.driver }?.finish()
    }

    /// A new subscription id: "1", "2", ...
    func makeID() -> String {
        state.withLock { state in
            state.lastID += 1
            return String(state.lastID)
        }
    }

    /// Adds a subscription: the driver sends it on the acknowledged socket, or opens one.
    func add(_ id: String, _ subscriber: Subscriber) {
        post(.add(id: id, subscriber))
        settings.logger?.debug(
            "GraphQL subscription \(id) started", metadata: ["operation": "\(subscriber.operationName ?? "-")"])
    }

    /// Ends subscription `id` from the client's side (its stream was cancelled or finished).
    func remove(_ id: String) {
        post(.remove(id: id))
    }

    private func post(_ input: SubscriptionDriver.Input) {
        state.withLock { state in
            if state.driver == nil {
                let (events, continuation) = AsyncStream<SubscriptionDriver.Input>.makeStream()
                state.driver = continuation
                let driver = SubscriptionDriver(settings: settings, post: continuation)
                Task { await driver.run(events) }
            }
            state.driver?.yield(input)
        }
    }
}
