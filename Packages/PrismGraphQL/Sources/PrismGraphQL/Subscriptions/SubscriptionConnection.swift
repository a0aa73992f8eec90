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
final class SubscriptionConnection: @unchecked Sendable {
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

    let settings: SubscriptionSettings
    private let lock = PrismLocked<Void>()
    private var lastID = 0
    private var driver: AsyncStream<SubscriptionDriver.Input>.Continuation?

    init(settings: SubscriptionSettings) {
        self.settings = settings
    }

    deinit {
        driver?.finish()
    }

    /// A new subscription id: "1", "2", ...
    func makeID() -> String {
        lock.withLock {
            lastID += 1
            return String(lastID)
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
        lock.withLock {
            if driver == nil {
                let (events, continuation) = AsyncStream<SubscriptionDriver.Input>.makeStream()
                driver = continuation
                let driver = SubscriptionDriver(settings: settings, post: continuation)
                Task { await driver.run(events) }
            }
            driver?.yield(input)
        }
    }
}
