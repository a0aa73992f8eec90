import Foundation
import PrismSupport

/// A request body sent in chunks, with its length known up front: what uploads stream.
///
/// ```swift
/// let body = PrismUploadBody.multipart(form)        // files read from disk as they are sent
/// let body = PrismUploadBody.data(imageData)
/// ```
public struct PrismUploadBody: Sendable {
    /// The body's size in bytes.
    public let length: Int64
    private let makeChunks: @Sendable () -> AsyncThrowingStream<Data, any Error>
    private let check: @Sendable () throws -> Void

    /// Creates a body of `length` bytes whose chunks `makeChunks` produces (once per send).
    ///
    /// - Parameters:
    ///   - length: The body's exact size in bytes.
    ///   - validate: Checks, before anything is sent, that the chunks can be produced (that
    ///     every file is there, say); throws when they cannot. Nothing by default.
    ///   - makeChunks: Produces the chunks from the start; called once per send.
    public init(
        length: Int64,
        validate: @escaping @Sendable () throws -> Void = {},
        makeChunks: @escaping @Sendable () -> AsyncThrowingStream<Data, any Error>
    ) {
        self.length = length
        self.check = validate
        self.makeChunks = makeChunks
    }

    /// The chunks, from the start.
    public func chunks() -> AsyncThrowingStream<Data, any Error> {
        makeChunks()
    }

    /// Checks that the body can be sent, before anything is: for a multipart form, that every
    /// file part is still a readable regular file of the size it had when it was appended.
    ///
    /// The transports that ship, ``PrismNetworkAdapter/upload(_:body:progress:)`` and
    /// ``PrismUploadTask`` call it before sending a byte.
    ///
    /// - Throws: ``PrismHTTPError`` with code `encodingFailed` (or what the body's own check
    ///   throws).
    public func validate() throws {
        try check()
    }

    /// A body of `data`, sent in chunks of `chunkSize` bytes.
    public static func data(_ data: Data, chunkSize: Int = 64 * 1_024) -> PrismUploadBody {
        PrismUploadBody(length: Int64(data.count)) {
            let offset = ChunkCursor(0)
            // Pulled one chunk at a time: nothing is produced ahead of the consumer.
            return AsyncThrowingStream(unfolding: {
                offset.next(upTo: data.count, step: max(1, chunkSize)).map { data.subdata(in: $0) }
            })
        }
    }

    /// A `multipart/form-data` body, its files read from disk as they are sent (one chunk at a
    /// time, pulled by the transport: memory stays at a chunk).
    ///
    /// Its ``validate()`` checks that every file part can still be read.
    public static func multipart(_ form: PrismMultipartFormData, chunkSize: Int = 64 * 1_024) -> PrismUploadBody {
        PrismUploadBody(
            length: form.contentLength,
            validate: { try form.validateFiles() },
            makeChunks: {
                let iterator = IteratorBox(form.bodyStream(chunkSize: chunkSize).makeAsyncIterator())
                return AsyncThrowingStream(unfolding: { try await iterator.next() })
            }
        )
    }

    /// Collects the whole body in memory.
    func collect() async throws -> Data {
        var data = Data()
        data.reserveCapacity(Int(clamping: length))
        for try await chunk in chunks() { data.append(chunk) }
        return data
    }
}

extension PrismHTTPTransport {
    /// Sends `request` with `body`, reporting the bytes sent so far to `progress`.
    ///
    /// This default collects the body and sends it with ``send(_:)``, reporting all of it once
    /// sent; the transports that ship report progress while the body is being sent.
    public func upload(
        _ request: PrismHTTPRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse {
        var request = request
        request.body = try await body.collect()
        let response = try await send(request)
        progress(body.length)
        return response
    }
}

/// A position in a buffer, advanced one chunk at a time.
final class ChunkCursor: Sendable {
    private let offset: PrismLocked<Int>

    init(_ offset: Int) { self.offset = PrismLocked(offset) }

    func next(upTo count: Int, step: Int) -> Range<Int>? {
        offset.withLock { offset in
            guard offset < count else { return nil }
            let range = offset..<min(offset + step, count)
            offset = range.upperBound
            return range
        }
    }
}

/// Holds a body iterator for a pull-based stream; the stream calls it from one task at a time.
final class IteratorBox: @unchecked Sendable {
    private var iterator: PrismMultipartBodyStream.Iterator

    init(_ iterator: PrismMultipartBodyStream.Iterator) { self.iterator = iterator }

    func next() async throws -> Data? { try await iterator.next() }
}
