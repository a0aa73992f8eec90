import Foundation
import PrismSupport

/// A response body read as it arrives: an `AsyncSequence` of chunks of bytes, read once.
///
/// ```swift
/// let response = try await client.stream(on: ExportEndpoint())
/// for try await chunk in response.body {
///     try file.write(contentsOf: chunk)
/// }
/// ```
///
/// The transport waits while about 64 KB is read ahead and not yet taken (back-pressure), so
/// a body of any size streams in bounded memory. Leaving the loop early, cancelling the reading
/// task, or dropping a stream never read closes the connection at once. When no byte arrives for
/// the stream's idle timeout, the loop throws ``PrismHTTPError`` with the code `timedOut`; a
/// connection lost midway throws the transport's error (`transportFailed`, `connectionFailed`).
///
/// A stream is read once: when its loop ends, early or not, the stream is over (a second loop
/// throws `CancellationError`).
public struct PrismHTTPBodyStream: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data

    private let owner: Owner

    init(channel: BodyChannel) {
        owner = Owner(channel: channel)
    }

    /// A stream of `data`, whole, in one chunk: what a transport that cannot stream returns.
    public init(data: Data) {
        let channel = BodyChannel()
        if !data.isEmpty { channel.offer(data) }
        channel.finish()
        self.init(channel: channel)
    }

    /// A stream of the chunks `chunks` produces, for transports and test doubles of your own.
    /// The sequence is read as the stream is, by the task that reads the stream (its waits are
    /// that task's: a test store's effect that reads a stubbed stream waits on the test's clock
    /// itself); leaving the stream stops reading it.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == Data {
        owner = Owner(source: ChunkSource(chunks))
    }

    /// An iterator over the stream: the stream is read once.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reading: owner)
    }

    /// Reads the rest of the body into memory, up to `maximumBytes`.
    ///
    /// - Throws: ``PrismHTTPError`` with the code `responseTooLarge` past `maximumBytes` (the
    ///   connection is then closed), or the stream's own error.
    public func collect(upTo maximumBytes: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= maximumBytes else {
                throw PrismHTTPError(
                    code: .responseTooLarge,
                    message: "The response body is larger than the \(maximumBytes) bytes it may be collected up to.")
            }
            data.append(chunk)
        }
        return data
    }

    /// The bytes received and not yet read: at most about 64 KB (and one chunk) for a
    /// transport that can hold the server back. Read by the tests.
    var queuedByteCount: Int { owner.channel?.queuedByteCount ?? 0 }

    /// Leaves the stream without reading it (closing its connection): what dropping it does too.
    public func cancel() {
        owner.cancel()
    }

    /// Reads the chunks in order.
    public struct Iterator: AsyncIteratorProtocol {
        private let reader: Reader

        init(reading owner: Owner) {
            reader = Reader(owner: owner)
        }

        /// The next one, nil at the end of the body.
        public mutating func next() async throws -> Data? {
            if let channel = reader.owner.channel {
                return try await channel.next()
            }
            return try await reader.owner.source?.next()
        }
    }

    /// Holds the channel (a transport's body) or the source (a sequence's) while a stream or an
    /// iterator of it lives: when the last of them goes, the reader has left, and the
    /// connection is closed.
    final class Owner: Sendable {
        let channel: BodyChannel?
        let source: ChunkSource?

        init(channel: BodyChannel) {
            self.channel = channel
            source = nil
        }

        init(source: ChunkSource) {
            channel = nil
            self.source = source
        }

        func cancel() {
            channel?.cancel()
            source?.cancel()
        }

        deinit {
            cancel()
        }
    }

    /// An iterator's hold: when it goes (its loop ended, early or not), the stream is left.
    final class Reader: Sendable {
        let owner: Owner

        init(owner: Owner) {
            self.owner = owner
        }

        deinit {
            owner.cancel()
        }
    }

    /// A sequence of chunks read by the stream's reader itself, one `next()` at a time (a
    /// stream is read once, by one iterator): no task of its own, so its waits are the reader's
    /// and cancelling the reader's task cancels them. Empty chunks are skipped; after `cancel()`
    /// or the end, `next()` returns nil; a cancelled reader gets `CancellationError`, as from a
    /// transport's stream.
    ///
    /// `cancel()` from another task takes effect at the sequence's next chunk: the wait for the
    /// one being produced is the reader's own, and only cancelling the reader's task ends it.
    final class ChunkSource: Sendable {
        private let produce: @Sendable () async throws -> Data?
        /// Whether the stream was left or ended, and whether a `next()` is under way.
        private let state = PrismLocked((cancelled: false, reading: false))

        init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == Data {
            let box = IteratorBox(chunks.makeAsyncIterator())
            produce = { try await box.iterator.next() }
        }

        func cancel() {
            state.withLock { $0.cancelled = true }
        }

        private var isCancelled: Bool { state.withLock { $0.cancelled } }

        func next() async throws -> Data? {
            let alreadyReading = state.withLock { state in
                defer { state.reading = true }
                return state.reading
            }
            precondition(
                !alreadyReading, "PrismHTTPBodyStream: the stream is read by two tasks at once; read it in one.")
            defer { state.withLock { $0.reading = false } }
            while !isCancelled {
                if Task.isCancelled {
                    cancel()
                    throw CancellationError()
                }
                guard let chunk = try await produce() else {
                    cancel()
                    return nil
                }
                if isCancelled { return nil }
                if !chunk.isEmpty { return chunk }
            }
            return nil
        }
    }

    /// A sequence's iterator, used by one reader at a time (a stream is read once).
    private final class IteratorBox<Iterator: AsyncIteratorProtocol>: @unchecked Sendable {
        var iterator: Iterator

        init(_ iterator: Iterator) {
            self.iterator = iterator
        }
    }
}
