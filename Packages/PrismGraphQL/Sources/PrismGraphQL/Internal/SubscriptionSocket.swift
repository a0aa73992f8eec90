import Foundation
@_spi(PrismInternals) import PrismHTTP

/// One WebSocket connection of a client's subscriptions, by the `graphql-transport-ws`
/// protocol: the upgrade (interceptors' headers, subprotocol), `connection_init` with the
/// credential, the acknowledgement timeout, keep-alive pings, and the routing of every message
/// to its subscription. It reports how it ended; the session decides what comes next.
struct SubscriptionSocket {
    let connection: SubscriptionConnection
    let number: Int

    /// How a socket ended.
    enum Outcome {
        /// The client closed it: nothing is subscribed any more (or the session was cancelled).
        case idle
        /// It failed in a way that trying again would not mend: every subscription ends.
        case failed(PrismGraphQLError)
        /// The server refused the credentials (4401, 4403): refresh them once, else `failed`.
        case unauthorized(PrismGraphQLError, credential: String?)
        /// It was lost (a transport failure, a close that allows trying again, a missed pong):
        /// reconnect as the policy says. The error is what the policy sees; `stable` when the
        /// socket had been acknowledged and stayed up for the configuration's
        /// `stableConnectionInterval` (only then do the attempts count from one again).
        case lost(PrismHTTPError, stable: Bool)
    }
}
