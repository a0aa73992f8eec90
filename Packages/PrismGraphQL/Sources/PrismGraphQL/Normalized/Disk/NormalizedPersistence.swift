import Foundation
import PrismSupport

/// What the store on disk lacks of the cache's records: taken under the cache's lock, in one
/// piece, so that each write moves the store from one state the cache was in to a later one.
struct NormalizedSnapshot: Sendable {
    /// Every record goes first (the cache was emptied).
    var clearing = false
    var upserts: [(key: PrismGraphQLCacheKey, stored: RecordCoding.Stored)] = []
    var deletes: [PrismGraphQLCacheKey] = []
    /// The cache's count of changes this snapshot brings the store up to.
    var generation: UInt64 = 0

    var isEmpty: Bool { !clearing && upserts.isEmpty && deletes.isEmpty }
}

/// One write to the store: records as bytes.
struct NormalizedStoreBatch: Sendable {
    var clearing = false
    var upserts: [(key: String, bytes: [UInt8])] = []
    var deletes: [String] = []
}

/// Carries the cache's changes to its store, behind the cache: a write to the cache returns at
/// once, and one task writes what changed since its last write, as one transaction. Writes that
/// come while it writes are gathered into its next one.
///
/// Events in, work out:
///
/// | Event                      | What happens                                                  |
/// |----------------------------|---------------------------------------------------------------|
/// | the cache changed          | the task is woken, unless it already is                       |
/// | woken                      | takes a snapshot of what the store lacks; writes it; notes the generation it reached |
/// | a write failed             | the snapshot's keys are handed back to the cache (written next time); waiting flushes throw the error |
/// | `flush()`                  | returns once the store reached the cache's generation of now, or throws the failure that stopped it |
/// | `close()`                  | a last flush, then the task ends and the file is closed       |
/// | the cache is deinitialized | its last snapshot is written, then the file is closed          |
final class NormalizedPersistence: Sendable {
    let url: URL
    private let save: @Sendable (NormalizedStoreBatch) async throws(PrismGraphQLError) -> Void
    private let closeStore: @Sendable () async -> Void

    private enum Message {
        case wake
        case last(NormalizedSnapshot?)
    }

    private struct Progress {
        var saved: UInt64 = 0
        var woken = false
        var waiters: [(generation: UInt64, continuation: CheckedContinuation<PrismGraphQLError?, Never>)] = []
        var task: Task<Void, Never>?
        var finished = false
    }

    private let progress = PrismLocked(Progress())
    private let messages: AsyncStream<Message>
    private let inbox: AsyncStream<Message>.Continuation

    init(
        url: URL, save: @escaping @Sendable (NormalizedStoreBatch) async throws(PrismGraphQLError) -> Void,
        close: @escaping @Sendable () async -> Void
    ) {
        self.url = url
        self.save = save
        self.closeStore = close
        (messages, inbox) = AsyncStream<Message>.makeStream()
    }

    /// Starts the writing task. `snapshot` takes what the store lacks (nil once the cache is
    /// gone); `restore` hands a snapshot that could not be written back to the cache.
    func start(
        snapshot: @escaping @Sendable () -> NormalizedSnapshot?,
        restore: @escaping @Sendable (NormalizedSnapshot) -> Void
    ) {
        let messages = self.messages
        let task = Task { [self] in
            for await message in messages {
                switch message {
                case .wake:
                    progress.withLock { $0.woken = false }
                    guard let taken = snapshot() else { continue }
                    if await write(taken) != nil { restore(taken) }
                case .last(let taken):
                    if let taken { _ = await write(taken) }
                    inbox.finish()
                }
            }
            await closeStore()
            let waiters = progress.withLock { progress in
                progress.finished = true
                defer { progress.waiters.removeAll() }
                return progress.waiters
            }
            for waiter in waiters {
                waiter.continuation.resume(
                    returning: PrismGraphQLError(
                        code: .cacheStoreFailed, message: "The normalized cache's store \(url.path) is closed."))
            }
        }
        progress.withLock { $0.task = task }
    }

    /// Tells the task that the cache changed.
    func wake() {
        let send = progress.withLock { progress -> Bool in
            guard !progress.woken, !progress.finished else { return false }
            progress.woken = true
            return true
        }
        if send { inbox.yield(.wake) }
    }

    /// Returns once the store holds the cache's state of generation `generation` or later.
    func flush(upTo generation: UInt64) async throws(PrismGraphQLError) {
        let failure = await withCheckedContinuation { (continuation: CheckedContinuation<PrismGraphQLError?, Never>) in
            let ready = progress.withLock { progress -> PrismGraphQLError?? in
                if progress.saved >= generation { return .some(nil) }
                if progress.finished {
                    return PrismGraphQLError(
                        code: .cacheStoreFailed, message: "The normalized cache's store \(url.path) is closed.")
                }
                progress.waiters.append((generation, continuation))
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
            } else {
                inbox.yield(.wake)
            }
        }
        if let failure { throw failure }
    }

    /// Writes `last` (what the cache held when it was closed or went away), then closes the file.
    func finish(last: NormalizedSnapshot?) async {
        inbox.yield(.last(last))
        await progress.withLock { $0.task }?.value
    }

    /// Like ``finish(last:)``, from a deinitializer: the writing goes on behind.
    func finishBehind(last: NormalizedSnapshot?) {
        inbox.yield(.last(last))
    }

    /// Returns once the writing task ended and the file is closed.
    func waitUntilClosed() async {
        await progress.withLock { $0.task }?.value
    }

    /// Writes a snapshot; resumes the flushes it satisfies, or those waiting when it fails.
    private func write(_ snapshot: NormalizedSnapshot) async -> PrismGraphQLError? {
        var failure: PrismGraphQLError?
        if !snapshot.isEmpty {
            var batch = NormalizedStoreBatch(clearing: snapshot.clearing)
            batch.upserts.reserveCapacity(snapshot.upserts.count)
            for (key, stored) in snapshot.upserts {
                batch.upserts.append((key.rawValue, RecordCoding.encode(stored)))
            }
            batch.deletes = snapshot.deletes.map(\.rawValue)
            do {
                try await save(batch)
            } catch {
                failure = error
            }
        }
        let resumed = progress.withLock { progress in
            if failure == nil { progress.saved = max(progress.saved, snapshot.generation) }
            let saved = progress.saved
            let (done, waiting) = progress.waiters.partitioned { failure != nil || $0.generation <= saved }
            progress.waiters = waiting
            return done
        }
        for waiter in resumed { waiter.continuation.resume(returning: failure) }
        return failure
    }
}

extension Array {
    /// The elements for which `isFirst` holds, and the others, each in order.
    fileprivate func partitioned(_ isFirst: (Element) -> Bool) -> ([Element], [Element]) {
        var first: [Element] = []
        var second: [Element] = []
        for element in self {
            if isFirst(element) { first.append(element) } else { second.append(element) }
        }
        return (first, second)
    }
}
