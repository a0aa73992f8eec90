import Foundation
import PrismSupport

/// The hand-over between a transport that receives a body and the code that reads it, for one
/// streamed response.
///
/// | event | what happens |
/// |---|---|
/// | the transport receives a chunk (`send`, `offer`, `offerPausing`) | queued for the reader, who is woken if waiting; `send` waits while `highWater` bytes (64 KB) are queued (back-pressure); a transport that cannot wait is told to suspend instead (`offerPausing`, see ``TransferPause``) |
/// | the reader takes the queue below `highWater` | the waiting `send` goes on, or the suspended transport is resumed (`onDrain`) |
/// | the reader asks (`next`) | the oldest chunk; else it waits; after the end, nil or the error, once every chunk is read |
/// | the body ends (`finish`) | the reader gets the queued chunks, then the end |
/// | the reader leaves (`cancel`: its loop ended early, its task was cancelled, the stream was dropped unread) | the queue is dropped and `onCancel` closes the connection, at once |
/// | no chunk for `idleTimeout` while the queue had room | the body ends with `timedOut`, and the connection is closed |
///
/// Time spent with a full queue is the reader's, not the server's: it never counts as idle.
final class BodyChannel: Sendable {
    /// The queue and both sides' waiting continuations and callbacks, behind the channel's lock.
    private struct State {
        var chunks: [Data] = []
        var head = 0
        var queuedBytes = 0
        var ended = false
        var failure: (any Error)?
        var cancelled = false
        var reader: CheckedContinuation<Data?, any Error>?
        var writer: CheckedContinuation<Bool, Never>?
        var onCancel: (@Sendable () -> Void)?
        var onDrain: (@Sendable () -> Void)?
        /// Whether a transport that cannot wait (`offerPausing`) is suspended.
        var pause = TransferPause()
        /// When the last chunk arrived (or the queue last had room), on ``BodyChannel/clock``.
        var lastArrival: Duration
        var watchdog: Task<Void, Never>?

        /// What wakes the transport now that the queue is below its high water: the waiting
        /// `send`, or `onDrain` when the transport was suspended (and the suspend carried out).
        mutating func resumeWriter() -> (@Sendable () -> Void)? {
            if let writer {
                self.writer = nil
                return { writer.resume(returning: true) }
            }
            return pause.drained() == .resume ? onDrain : nil
        }
    }

    private let state: PrismLocked<State>

    /// The bytes queued past which `send` waits (and `offer` asks its transport to pause).
    ///
    /// 64 KB, about one chunk of AsyncHTTPClient's: measured with a 1 GB download, a queue of
    /// 256 KB or 1 MB let resident memory grow by 30 to 110 MB for a while (chunks allocated on one
    /// thread and freed on another fragment the allocator), 64 KB by 0.2 MB, at the same speed.
    let highWater: Int

    /// The clock the idle timeout is measured on: the continuous clock, or one a test moves.
    let clock: DeadlineClock

    init(highWater: Int = 64 << 10, clock: DeadlineClock = .continuous) {
        self.highWater = highWater
        self.clock = clock
        self.state = PrismLocked(State(lastArrival: clock.now()))
    }

    deinit {
        state.withLock { $0.watchdog }?.cancel()
    }

    // MARK: The transport's side

    /// What closes the connection when the reader leaves or the stream goes idle; run at once if
    /// that happened already.
    func setOnCancel(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard !state.cancelled else { return true }
            state.onCancel = action
            return false
        }
        if runNow { action() }
    }

    /// What resumes a transport that `offerPausing` suspended, once the suspend was carried out
    /// and the reader has drained the queue below `highWater`.
    func setOnDrain(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onDrain = action }
    }

    /// Queues `chunk`, waiting while the queue is full; false when the reader has left (stop).
    func send(_ chunk: Data) async -> Bool {
        guard offer(chunk) else { return state.withLock { !$0.cancelled } }
        return await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool? in
                if state.cancelled { return false }
                if state.queuedBytes < highWater { return true }
                state.writer = continuation
                return nil
            }
            if let resumeNow { continuation.resume(returning: resumeNow) }
        }
    }

    /// Queues `chunk` without waiting; true when the queue is now at or past `highWater`, false
    /// otherwise. A chunk offered after the reader left is dropped.
    @discardableResult
    func offer(_ chunk: Data) -> Bool {
        offer(chunk, pausing: false)
    }

    /// Queues `chunk` for a transport that cannot wait; true when it must suspend now (the queue
    /// reached `highWater` and it is not suspended or suspending already). Once suspended, it
    /// calls ``suspendDone()``; `onDrain` resumes it when the reader has made room.
    func offerPausing(_ chunk: Data) -> Bool {
        offer(chunk, pausing: true)
    }

    /// The suspend that ``offerPausing(_:)`` asked for was carried out; true when the transport
    /// must resume at once, because the reader drained the queue meanwhile.
    func suspendDone() -> Bool {
        state.withLock { state in
            state.pause.suspendDone(queueFull: state.queuedBytes >= highWater) == .resume
        }
    }

    private func offer(_ chunk: Data, pausing: Bool) -> Bool {
        let (waiting, full) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
            guard !state.cancelled, !state.ended else { return (nil, false) }
            state.lastArrival = clock.now()
            if let reader = state.reader {
                state.reader = nil
                return (reader, false)
            }
            state.chunks.append(chunk)
            state.queuedBytes += chunk.count
            let full = state.queuedBytes >= highWater
            guard pausing else { return (nil, full) }
            return (nil, full && state.pause.filled() == .suspend)
        }
        waiting?.resume(returning: chunk)
        return full
    }

    /// Ends the body, with `error` if it failed: the reader gets every queued chunk first.
    func finish(throwing error: (any Error)? = nil) {
        let waiting = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard !state.ended, !state.cancelled else { return nil }
            state.ended = true
            state.failure = error
            state.pause.end()
            state.watchdog?.cancel()
            defer { state.reader = nil }
            return state.reader
        }
        guard let waiting else { return }
        if let error { waiting.resume(throwing: error) } else { waiting.resume(returning: nil) }
    }

    /// Ends the body with `timedOut` when no chunk of the body of `url` arrives for
    /// `idleTimeout` while the queue has room, and closes the connection.
    func watchIdle(_ idleTimeout: Duration, url: URL) {
        let task = Task { [weak self] in
            while let self {
                let deadline = self.state.withLock { $0.lastArrival + idleTimeout }
                do {
                    try await self.clock.sleep(deadline)
                } catch {
                    return
                }
                let expired = self.state.withLock { state -> Bool? in
                    if state.ended || state.cancelled { return nil }
                    // A full queue waits for the reader, not for the server.
                    let now = clock.now()
                    if state.queuedBytes >= highWater {
                        state.lastArrival = now
                        return false
                    }
                    return now >= state.lastArrival + idleTimeout
                }
                guard let expired else { return }
                if expired {
                    self.expire(
                        PrismHTTPError(
                            code: .timedOut,
                            message:
                                "No byte of the response body arrived for \(idleTimeout) (the stream's idle timeout).",
                            url: url))
                    return
                }
            }
        }
        state.withLock { $0.watchdog = task }
    }

    private func expire(_ error: any Error) {
        finish(throwing: error)
        let action = state.withLock { $0.onCancel }
        action?()
    }

    // MARK: The reader's side

    /// What a read finds without waiting.
    private enum Ready {
        case chunk(Data)
        case end
        case failed(any Error)
    }

    /// The next chunk, nil at the end of the body; throws the body's error after the queued
    /// chunks. Cancelling the reading task leaves the stream (``cancel()``).
    func next() async throws -> Data? {
        // A cancelled reader stops, even with chunks queued.
        if Task.isCancelled {
            cancel()
            throw CancellationError()
        }
        if let ready = take(waiting: nil) { return try Self.value(of: ready) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let ready = take(waiting: continuation) {
                    continuation.resume(with: Result { try Self.value(of: ready) })
                }
            }
        } onCancel: {
            self.cancel()
        }
    }

    private static func value(of ready: Ready) throws -> Data? {
        switch ready {
        case .chunk(let chunk): return chunk
        case .end: return nil
        case .failed(let error): throw error
        }
    }

    /// The oldest chunk, the end, or the failure, when one is ready; else nil, and `waiting`
    /// (if given) is kept to be resumed by the transport. A read that makes room in a full queue
    /// wakes the transport.
    private func take(waiting: CheckedContinuation<Data?, any Error>?) -> Ready? {
        let (ready, wake) = state.withLock { state -> (Ready?, (@Sendable () -> Void)?) in
            if state.cancelled { return (.failed(CancellationError()), nil) }
            if state.head < state.chunks.count {
                let wasFull = state.queuedBytes >= highWater
                let chunk = state.chunks[state.head]
                state.head += 1
                state.queuedBytes -= chunk.count
                if state.head == state.chunks.count {
                    state.chunks.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                // Below the high water: a waiting `send` goes on; a suspended transport resumes if
                // its suspend was carried out (else its own check after suspending resumes it).
                let wake = state.queuedBytes < highWater && (wasFull || state.pause.phase == .suspended)
                return (.chunk(chunk), wake ? state.resumeWriter() : nil)
            }
            if state.ended { return (state.failure.map { .failed($0) } ?? .end, nil) }
            if let waiting { state.reader = waiting }
            return (nil, nil)
        }
        wake?()
        return ready
    }

    /// Leaves the stream: the queue is dropped, a waiting `send` returns false, and the
    /// connection is closed. Later reads throw `CancellationError`.
    func cancel() {
        let (action, waitingWriter, waitingReader) = state.withLock {
            state
                -> ((@Sendable () -> Void)?, CheckedContinuation<Bool, Never>?, CheckedContinuation<Data?, any Error>?)
            in
            guard !state.cancelled else { return (nil, nil, nil) }
            state.cancelled = true
            state.pause.end()
            state.chunks = []
            state.head = 0
            state.queuedBytes = 0
            state.watchdog?.cancel()
            defer {
                state.writer = nil
                state.reader = nil
                state.onCancel = nil
            }
            // A body that ended has no connection left to close.
            return (state.ended ? nil : state.onCancel, state.writer, state.reader)
        }
        waitingWriter?.resume(returning: false)
        waitingReader?.resume(throwing: CancellationError())
        action?()
    }

    /// The bytes queued and not yet read.
    var queuedByteCount: Int { state.withLock { $0.queuedBytes } }
}
