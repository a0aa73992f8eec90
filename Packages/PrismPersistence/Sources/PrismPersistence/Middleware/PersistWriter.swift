import Dispatch
import Foundation
import Logging
import PrismStore
import PrismSupport

/// Saves the snapshots a `PersistScheduler` hands it, in order, on a serial queue of its own.
///
/// Off the main actor and off Swift's cooperative threads: a save blocks on `fsync`, the
/// keychain or the network. Snapshots are written in the order they were submitted, so an older
/// one never overwrites a newer one. With an `Equatable` state, a snapshot equal to the last one
/// saved is not written again.
///
/// ## Never over a value it could not read
/// The writer saves under its key only once it knows that nothing it cannot read is stored
/// there: after a load that found a state, found nothing, or found an unreadable value that the
/// strategy moved aside. Until the app restored through it, the first save loads first to find
/// out. A load that failed otherwise (a locked keychain, a Secret Service not started yet, an
/// I/O or permission error) blocks saving: every save is refused with `overwriteRefused` and
/// its state held back, until a later load succeeds or the app calls `allowOverwrite()`.
final class PersistWriter<State: Codable & Sendable>: @unchecked Sendable {
    let key: String
    private let queue: DispatchQueue
    private let onQueue = DispatchSpecificKey<Bool>()
    private let save: @Sendable (State) throws -> Void
    private let load: @Sendable () throws -> State?
    private let isEqual: (@Sendable (State, State) -> Bool)?
    private let logger: Logger
    private let onError: (@Sendable (PrismPersistenceError) -> Void)?

    /// Whether the writer may save under its key.
    private enum Clearance {
        /// No load yet: the first save loads first.
        case unknown
        case clear
        /// A load failed and what is stored may still be there.
        case blocked(PrismPersistenceError)
    }

    // Touched on `queue` only.
    private var clearance = Clearance.unknown
    private var lastSaved: State?
    /// The state whose save failed or was refused: `flush()` retries it.
    private var failed: State?
    /// Whether the refusal of the current block was reported (once per block, not per save).
    private var reportedRefusal = false

    /// The error that blocks saving, readable from any thread.
    private let blockingFailure = PrismLocked<PrismPersistenceError?>(nil)

    /// How many snapshots were handed to `submit` or `flush`, and whether a reload of an outside
    /// change is queued and not started (see `reloadOutsideChange(_:)`).
    private let counters = PrismLocked(Counters())
    private struct Counters {
        var submitted = 0
        var reloadQueued = false
    }
    /// How many of the submitted snapshots the queue has taken. Touched on `queue` only.
    private var taken = 0

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
        queue.setSpecific(key: onQueue, value: true)
    }

    /// The error of the failed load that keeps the writer from saving, if one does.
    var loadFailure: PrismPersistenceError? {
        blockingFailure.value
    }

    /// Saves `state` soon, after the snapshots submitted before it.
    func submit(_ state: State) {
        counters.withLock { $0.submitted += 1 }
        queue.async {
            self.taken += 1
            _ = self.write(state)
        }
    }

    /// How many snapshots were handed to `submit` or `flush` so far.
    var submittedCount: Int {
        counters.withLock { $0.submitted }
    }

    /// Saves `pending` (or retries the last snapshot whose save failed) after the snapshots
    /// submitted before, and returns when it is saved; throws if that save failed.
    func flush(_ pending: State?) async throws {
        if pending != nil { counters.withLock { $0.submitted += 1 } }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                var error: PrismPersistenceError?
                if let pending {
                    self.taken += 1
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

    /// Waits, up to `deadline`, until every snapshot submitted so far is written; whether they
    /// were.
    func waitForWrites(until deadline: DispatchTime) -> Bool {
        if DispatchQueue.getSpecific(key: onQueue) == true { return true }
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: deadline) == .success
    }

    // MARK: Restoring

    /// Loads the saved state, after the saves in progress, on the calling thread's behalf;
    /// `nil` when nothing is saved. Throws (and reports) the load's error.
    ///
    /// A loaded state becomes the last one saved: sending an action that changes nothing does
    /// not write it back. A load that fails for a reason that leaves a value behind blocks
    /// saving (see the type's documentation); a successful one lifts the block and drops the
    /// state held back by it.
    func restore() throws(PrismPersistenceError) -> State? {
        if DispatchQueue.getSpecific(key: onQueue) == true { return try loadOnQueue(probing: false).get() }
        return try queue.sync { loadOnQueue(probing: false) }.get()
    }

    /// `restore()`, with the load on the writer's queue while the caller waits without
    /// blocking its thread: the main actor stays free during a slow keychain or a large file.
    func restoreAsync() async throws(PrismPersistenceError) -> State? {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<LoadOutcome, Never>) in
            queue.async { continuation.resume(returning: self.loadOnQueue(probing: false)) }
        }
        return try outcome.get()
    }

    /// Lets the writer save over what is stored even though a load failed; the state held back
    /// meanwhile is saved now.
    func allowOverwrite() {
        // The block is lifted before this returns (a read of `loadFailure` right after sees it
        // lifted); the held-back state is saved after, like any submitted state.
        let lift: @Sendable () -> Void = {
            self.clearance = .clear
            self.reportedRefusal = false
            self.blockingFailure.withLock { $0 = nil }
        }
        let saveHeldBack: @Sendable () -> Void = {
            if let held = self.failed { _ = self.write(held) }
        }
        if DispatchQueue.getSpecific(key: onQueue) == true {
            lift()
            saveHeldBack()
        } else {
            queue.sync(execute: lift)
            queue.async(execute: saveHeldBack)
        }
    }

    // MARK: Outside changes

    /// Loads what is stored after someone else (another process, another writer of this process)
    /// saved under the key, and hands it to `deliver` if it differs from what this writer last
    /// loaded or saved, with how many submitted snapshots the queue had taken before loading
    /// (a snapshot submitted after that was made without knowing it, and wins).
    ///
    /// Any thread. Reloads asked for while one is queued and not started are one reload. What
    /// is removed is not delivered (the holders keep their value, and their next change saves
    /// it again). A load that fails is reported and delivers nothing; one that succeeds lifts a
    /// block on saving, as a restore does.
    func reloadOutsideChange(_ deliver: @escaping @Sendable (State, _ taken: Int) -> Void) {
        let alreadyQueued = counters.withLock { counters in
            defer { counters.reloadQueued = true }
            return counters.reloadQueued
        }
        guard !alreadyQueued else { return }
        queue.async {
            self.counters.withLock { $0.reloadQueued = false }
            let state: State?
            do {
                state = try self.load()
            } catch {
                self.report(self.wrap(error), doing: "load a value saved by another writer")
                return
            }
            guard let state else { return }
            self.clearance = .clear
            self.reportedRefusal = false
            self.blockingFailure.withLock { $0 = nil }
            self.failed = nil
            if let lastSaved = self.lastSaved, self.isSame(lastSaved, state) { return }
            self.lastSaved = state
            deliver(state, self.taken)
        }
    }

    /// Whether two states are the same: `==` for an `Equatable` state, else the same JSON.
    private func isSame(_ first: State, _ second: State) -> Bool {
        if let isEqual { return isEqual(first, second) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let firstData = try? encoder.encode(first), let secondData = try? encoder.encode(second) else {
            return false
        }
        return firstData == secondData
    }

    private typealias LoadOutcome = Result<State?, PrismPersistenceError>

    /// Loads, and decides from the outcome whether saving is allowed. On `queue`.
    ///
    /// - Parameter probing: Whether this is the load before the first save of a writer that
    ///   was never restored through, rather than the app's restore.
    private func loadOnQueue(probing: Bool) -> LoadOutcome {
        let what = probing ? "load the state before its first save" : "restore the state"
        do {
            let state = try load()
            clearance = .clear
            reportedRefusal = false
            blockingFailure.withLock { $0 = nil }
            lastSaved = state
            // What was held back was derived from a state that did not know the stored one.
            failed = nil
            return .success(state)
        } catch {
            let error = wrap(error)
            if Self.leavesNothingBehind(error) {
                clearance = .clear
                blockingFailure.withLock { $0 = nil }
                lastSaved = nil
                // An invalid key is reported by the save that uses it; anything else now.
                if error.code != .invalidKey || !probing { report(error, doing: what) }
            } else {
                clearance = .blocked(error)
                reportedRefusal = false
                blockingFailure.withLock { $0 = error }
                report(error, doing: what)
            }
            return .failure(error)
        }
    }

    /// Whether a load that threw `error` leaves no stored value that a save could destroy: the
    /// value was unreadable and has been moved aside, or the key can hold nothing at all.
    static func leavesNothingBehind(_ error: PrismPersistenceError) -> Bool {
        error.code == .invalidKey || error.movedAsideURL != nil || error.movedAsideKey != nil
    }

    // MARK: Saving

    private func write(_ state: State) -> PrismPersistenceError? {
        failed = nil
        if case .unknown = clearance {
            // Nobody loaded through this writer: find out what is stored before replacing it.
            _ = loadOnQueue(probing: true)
        }
        if case .blocked(let cause) = clearance {
            failed = state
            let error = refusal(because: cause)
            if !reportedRefusal {
                reportedRefusal = true
                report(error, doing: "save the state")
            }
            return error
        }
        if let isEqual, let lastSaved, isEqual(lastSaved, state) { return nil }
        do {
            try save(state)
            lastSaved = state
            return nil
        } catch {
            let error = wrap(error)
            failed = state
            report(error, doing: "save the state")
            return error
        }
    }

    private func refusal(because cause: PrismPersistenceError) -> PrismPersistenceError {
        PrismPersistenceError(
            code: .overwriteRefused,
            key: key,
            message: """
                The state was not saved: loading what is saved under this key failed (\(cause.code)), so it \
                may still be there, and saving would replace it. Saving resumes after a successful \
                restore(), or after allowOverwrite() if replacing it is what the app wants.
                """,
            underlying: cause
        )
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
            "PrismPersistMiddleware could not \(what): \(error)",
            metadata: ["prism.persistence.key": "\(key)", "prism.persistence.code": "\(error.code)"]
        )
        onError?(error)
    }
}
