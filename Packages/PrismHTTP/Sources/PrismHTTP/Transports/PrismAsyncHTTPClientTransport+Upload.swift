#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
import NIOCore

extension PrismAsyncHTTPClientTransport {
    /// Sends `request` with `body` streamed as AsyncHTTPClient pulls it, reporting the bytes
    /// handed to the connection so far.
    ///
    /// The body is checked first (``PrismUploadBody/validate()``: a file part that cannot be
    /// read fails before anything is sent). The request's timeout bounds every pause while the
    /// body is sent, then the whole response once it is; redirects are followed as the
    /// configuration says (the body is streamed again for a 307 or 308 on the same origin, never
    /// to another).
    public func upload(
        _ request: PrismHTTPRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse {
        if followsRedirects { throw refusingRedirectingClient(request.url) }
        try RequestValidation.validate(request)
        try body.validate()
        let timeout = try effectiveTimeout(of: request)
        let watchdog = Deadline.Watchdog(timeout: timeout, length: body.length, clock: deadlineClock)
        let reporting: @Sendable (Int64) -> Void = { sent in
            watchdog.progressed(to: sent)
            progress(sent)
        }
        return try await Deadline.run(timeout, url: request.url, watchdog: watchdog) { [self] in
            try await Redirects.follow(request, hasBody: true, policy: configuration.redirects) { hop, withBody in
                var outgoing = outgoingRequest(for: hop)
                if withBody {
                    outgoing.body = .stream(
                        ProgressReportingBuffers(chunks: body.chunks(), progress: reporting),
                        length: .known(body.length)
                    )
                }
                // AsyncHTTPClient's own deadline would cover the whole send: the watchdog bounds it.
                return try await exchange(outgoing, for: hop, timeout: RequestValidation.maximumTimeout)
            }
        }
    }
}

/// The body's chunks as AsyncHTTPClient wants them. Each time the client asks for the next
/// chunk, the previous ones have been handed to the connection: that is the progress reported.
struct ProgressReportingBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let chunks: AsyncThrowingStream<Data, any Error>
    let progress: @Sendable (Int64) -> Void

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), progress: progress)
    }

    struct Iterator: AsyncIteratorProtocol {
        var chunks: AsyncThrowingStream<Data, any Error>.AsyncIterator
        let progress: @Sendable (Int64) -> Void
        var handedOver: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            if handedOver > 0 { progress(handedOver) }
            guard let chunk = try await chunks.next() else { return nil }
            handedOver += Int64(chunk.count)
            return ByteBuffer(bytes: chunk)
        }
    }
}
#endif
