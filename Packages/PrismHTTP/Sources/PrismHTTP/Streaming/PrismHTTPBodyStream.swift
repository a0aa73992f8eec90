import Foundation

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
    /// The sequence is read as the stream is; leaving the stream stops reading it.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == Data {
        let channel = BodyChannel()
        let task = Task {
            do {
                for try await chunk in chunks where !chunk.isEmpty {
                    guard await channel.send(chunk) else { return }
                }
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        channel.setOnCancel { task.cancel() }
        self.init(channel: channel)
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
    var queuedByteCount: Int { owner.channel.queuedByteCount }

    /// Leaves the stream without reading it (closing its connection): what dropping it does too.
    public func cancel() {
        owner.channel.cancel()
    }

    /// Reads the chunks in order.
    public struct Iterator: AsyncIteratorProtocol {
        private let reader: Reader

        init(reading owner: Owner) {
            reader = Reader(owner: owner)
        }

        /// The next one, nil at the end of the body.
        public mutating func next() async throws -> Data? {
            try await reader.owner.channel.next()
        }
    }

    /// Holds the channel while a stream or an iterator of it lives: when the last of them goes,
    /// the reader has left, and the connection is closed.
    final class Owner: Sendable {
        let channel: BodyChannel

        init(channel: BodyChannel) {
            self.channel = channel
        }

        deinit {
            channel.cancel()
        }
    }

    /// An iterator's hold: when it goes (its loop ended, early or not), the stream is left.
    final class Reader: Sendable {
        let owner: Owner

        init(owner: Owner) {
            self.owner = owner
        }

        deinit {
            owner.channel.cancel()
        }
    }
}
