import Foundation

/// What one subscription socket has been through, shared by its reader, writer and timers.
final class SocketProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var acknowledged = false
    private var awaitingPong = false
    private var closedByClientValue = false
    private var failureValue: PrismGraphQLError?
    private var lostReasonValue: String?
    private var upgradedValue = false
    private var upgradeTimedOutValue = false
    private var pongQueued = false
    private var stableValue = false

    /// Records that the acknowledged socket stayed up for the stable interval.
    func markStable() {
        lock.withLock { stableValue = acknowledged }
    }

    /// Whether the socket was acknowledged and stayed up for the stable interval.
    var isStable: Bool { lock.withLock { stableValue } }

    /// Records that the upgrade succeeded: the socket is open.
    func upgraded() {
        lock.withLock { upgradedValue = true }
    }

    var isUpgraded: Bool { lock.withLock { upgradedValue } }

    /// Records that the acknowledgement timer ran out before the upgrade was answered.
    func upgradeTimedOut() {
        lock.withLock { upgradeTimedOutValue = true }
    }

    var didUpgradeTimeOut: Bool { lock.withLock { upgradeTimedOutValue } }

    /// Notes a pong about to be queued for the writer; false when one is queued and not yet
    /// written (the server's ping is answered by that one).
    func queuePong() -> Bool {
        lock.withLock {
            if pongQueued { return false }
            pongQueued = true
            return true
        }
    }

    /// Notes that the queued pong is being written.
    func pongWritten() {
        lock.withLock { pongQueued = false }
    }

    /// Records the acknowledgement; false when it already came (a second one is ignored).
    func acknowledge() -> Bool {
        lock.withLock {
            guard !acknowledged, failureValue == nil else { return false }
            acknowledged = true
            return true
        }
    }

    var isAcknowledged: Bool { lock.withLock { acknowledged } }

    /// Records `error` unless the socket was acknowledged; true when recorded.
    func failIfNotAcknowledged(_ error: PrismGraphQLError) -> Bool {
        lock.withLock {
            guard !acknowledged, failureValue == nil else { return false }
            failureValue = error
            return true
        }
    }

    /// Records a failure that ends every subscription (the first one wins).
    func fail(_ error: PrismGraphQLError) {
        lock.withLock {
            if failureValue == nil { failureValue = error }
        }
    }

    var failure: PrismGraphQLError? { lock.withLock { failureValue } }

    /// Notes a ping about to be sent; false when the previous one is still unanswered (the
    /// socket is then lost).
    func sendPing() -> Bool {
        lock.withLock {
            if awaitingPong {
                lostReasonValue = "The server did not answer a ping."
                return false
            }
            awaitingPong = true
            return true
        }
    }

    func pongReceived() {
        lock.withLock { awaitingPong = false }
    }

    /// Why the client gave the socket up as lost, if it did.
    var lostReason: String? { lock.withLock { lostReasonValue } }

    /// Notes that the client closed the socket because nothing is subscribed.
    func closeByClient() {
        lock.withLock { closedByClientValue = true }
    }

    var closedByClient: Bool { lock.withLock { closedByClientValue } }
}
