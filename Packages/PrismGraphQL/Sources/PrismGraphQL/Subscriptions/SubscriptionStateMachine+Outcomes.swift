import Foundation
import PrismHTTP

/// How a socket's end turns out for the subscriptions: reconnect as the policy says, refresh the
/// credentials once, or end every subscription with an error.
extension SubscriptionStateMachine {
    /// The socket was lost: reconnect as the policy says (attempts start again only after a
    /// stable socket), or end every subscription when it gives up.
    mutating func lost(_ failure: PrismHTTPError) -> [Action] {
        if stable {
            attempt = 0
            refreshed = false
        }
        attempt += 1
        guard !subscribers.isEmpty else {
            phase = .idle
            return []
        }
        guard let policy = settings.reconnectPolicy,
            let delay = policy.delay(afterAttempt: attempt, failure: PrismRetryFailure(error: failure))
        else {
            let error = PrismGraphQLError(
                code: .requestFailed,
                message:
                    "The subscriptions' WebSocket was lost and not reconnected (\(attempt) attempt(s)): \(failure.message)",
                url: settings.endpointURL, underlying: failure)
            return [
                .log(
                    Log(
                        warning: true, message: "GraphQL subscriptions: the WebSocket was lost and is not reconnected",
                        metadata: ["attempts": "\(attempt)"]))
            ] + failAll(error)
        }
        let log = Action.log(
            Log(
                warning: true, message: "GraphQL subscriptions: the WebSocket was lost, reconnecting",
                metadata: ["attempt": "\(attempt)", "milliseconds": "\(Int(delay.milliseconds))"]))
        guard delay > .zero else { return [log] + connect() }
        phase = .waiting
        return [log, .schedule(.reconnect, delay)]
    }

    /// The server refused the credentials: refresh them once (until a socket stays up), else end
    /// every subscription with the refusal.
    mutating func unauthorized(_ refusal: PrismGraphQLError) -> [Action] {
        guard !refreshed, !subscribers.isEmpty else { return failAll(refusal) }
        refreshed = true
        phase = .refreshing
        pendingRefusal = refusal
        return [
            .log(Log(message: "GraphQL subscriptions: credentials refused, refreshing")),
            .refresh(credential: credential),
        ]
    }

    mutating func refreshFinished(_ result: Result<Bool, any Error>) -> [Action] {
        guard phase == .refreshing else { return [] }
        let refusal =
            pendingRefusal
            ?? PrismGraphQLError(
                code: .subscriptionRejected, message: "The credentials were refused.", url: settings.endpointURL)
        pendingRefusal = nil
        switch result {
        case .success(true):
            phase = .idle
            return subscribers.isEmpty ? [] : connect()
        case .success(false):
            // Nothing to renew: the refusal stands.
            return failAll(refusal)
        case .failure(let error):
            var rejected = PrismGraphQLError(
                code: .subscriptionRejected, message: "The server refused the credentials and refreshing them failed.",
                url: settings.endpointURL, underlying: error)
            rejected.closeCode = refusal.closeCode
            rejected.statusCode = refusal.statusCode
            return failAll(rejected)
        }
    }

    /// Ends every subscription with `error` (its operation name filled in); the machine is idle.
    mutating func failAll(_ error: PrismGraphQLError) -> [Action] {
        phase = .idle
        let ended = subscribers.sorted { Int($0.key) ?? 0 < Int($1.key) ?? 0 }
        subscribers.removeAll()
        var actions: [Action] = [
            .log(
                Log(
                    warning: true, message: "GraphQL subscriptions failed: \(error.code)",
                    metadata: ["closeCode": error.closeCode.map(String.init) ?? "-"]))
        ]
        for (id, subscriber) in ended {
            var error = error
            error.operationName = subscriber.operationName
            actions.append(.finish(id: id, error))
        }
        return actions
    }

    func violation(_ message: String, closeCode: Int?) -> PrismGraphQLError {
        var error = PrismGraphQLError(code: .subscriptionProtocolViolation, message: message, url: settings.endpointURL)
        error.closeCode = closeCode
        return error
    }

    func lostError(_ message: String) -> PrismHTTPError {
        PrismHTTPError(code: .connectionFailed, message: message, url: settings.webSocketURL, method: .get)
    }
}
