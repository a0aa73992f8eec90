import Dispatch
import Foundation
import Logging

/// Saves the snapshots a `PersistScheduler` hands it, in order, on a serial queue of its own.
///
/// Off the main actor and off Swift's cooperative threads: a save blocks on `fsync`, the
/// keychain or the network. Snapshots are written in the order they were submitted, so an older
/// one never overwrites a newer one. With an `Equatable` state, a snapshot equal to the last one
/// saved is not written again.
final class PersistWriter<State: Codable & Sendable>: @unchecked Sendable {
    let key: String
    private let queue: DispatchQueue
    private let save: @Sendable (State) throws -> Void
    private let load: @Sendable () throws -> State?
    private let isEqual: (@Sendable (State, State) -> Bool)?
    private let logger: Logger
    private let onError: (@Sendable (PrismPersistenceError) -> Void)?

    // Touched on `queue` only.
    private var lastSaved: State?
    private var failed: State?

    init<Strategy: PrismPersistenceStrategy>(
        strategy: Strategy,
        key: String,
        logger: Logger,
        onError: (@Sendable (PrismPersistenceError) -> Void)?
    ) {
        self.key = key
        self.queue = DispatchQueue(label: "PrismPersistMiddleware.\(key)", qos: .utility)
        self.save = { state in try strategy.save(state, key: key) }
        self.load = { try strategy.load(key: key) }
        self.isEqual = equality(of: State.self)
        self.logger = logger
        self.onError = onError
    }

    /// Saves `state` soon, after the snapshots submitted before it.
    func submit(_ state: State) {
        queue.async { _ = self.write(state) }
    }

    /// Saves `pending` (or retries the last snapshot whose save failed) after the snapshots
    /// submitted before, and returns when it is saved; throws if that save failed.
    func flush(_ pending: State?) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                var error: PrismPersistenceError?
                if let pending {
                    error = self.write(pending)
                } else if let failed = self.failed {
                    error = self.write(failed)
                }
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    /// The saved state, or `nil` when there is none or it could not be loaded (reported).
    ///
    /// A loaded state becomes the last one saved: sending an action that changes nothing does
    /// not write it back.
    func restore() -> State? {
        do {
            guard let state = try load() else { return nil }
            queue.sync { lastSaved = state }
            return state
        } catch {
            report(wrap(error), doing: "restore")
            return nil
        }
    }

    private func write(_ state: State) -> PrismPersistenceError? {
        failed = nil
        if let isEqual, let lastSaved, isEqual(lastSaved, state) { return nil }
        do {
            try save(state)
            lastSaved = state
            return nil
        } catch {
            let error = wrap(error)
            failed = state
            report(error, doing: "save")
            return error
        }
    }

    private func wrap(_ error: any Error) -> PrismPersistenceError {
        if let error = error as? PrismPersistenceError { return error }
        return PrismPersistenceError(
            code: .strategyFailed,
            key: key,
            message: "The persistence strategy threw: \(error).",
            underlying: error
        )
    }

    private func report(_ error: PrismPersistenceError, doing what: String) {
        logger.error(
            "PrismPersistMiddleware could not \(what) the state: \(error)",
            metadata: ["prism.persistence.key": "\(key)", "prism.persistence.code": "\(error.code)"]
        )
        onError?(error)
    }
}
