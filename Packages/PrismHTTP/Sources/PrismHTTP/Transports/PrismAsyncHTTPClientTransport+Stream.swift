#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
@_spi(PrismInternals) import PrismCache
import PrismSupport

extension PrismAsyncHTTPClientTransport {
    /// Sends `request`, following redirects as the configuration says, and returns when the
    /// status and headers arrive; the body streams as the caller reads it.
    ///
    /// The request's timeout bounds the head of each hop (on the transport's deadline clock); then
    /// `idleTimeout` bounds each wait for the next bytes. The body is read by a task of its own
    /// into a queue of about 64 KB, which waits while the queue is full: a slow reader holds
    /// the server back rather than memory. Leaving the stream cancels that task, which closes the
    /// connection. `maximumResponseBytes` does not apply.
    public func stream(_ request: PrismHTTPRequest, idleTimeout: Duration) async throws -> PrismHTTPStreamedResponse {
        try RequestValidation.validate(request)
        try RequestValidation.validateTimeout(idleTimeout, what: "The idle timeout", url: request.url)
        return try await stream(checked: request, idleTimeout: idleTimeout)
    }

    /// ``stream(_:idleTimeout:)`` for a request the client's pipeline has checked already.
    ///
    /// The head of every hop must arrive within the request's timeout, measured by ``Deadline``
    /// on the transport's deadline clock (not by AsyncHTTPClient's deadline, which is the wall
    /// clock's): once it has, the timer stops and only `idleTimeout` bounds the body.
    func stream(checked request: PrismHTTPRequest, idleTimeout: Duration) async throws -> PrismHTTPStreamedResponse {
        if followsRedirects { throw refusingRedirectingClient(request.url) }
        let timeout = try effectiveTimeout(of: request)
        return try await Deadline.run(timeout, url: request.url, clock: deadlineClock, what: .head) { [self] in
            try await Redirects.follow(
                request, hasBody: request.body != nil, policy: configuration.redirects,
                send: { hop, withBody in
                    try await openStream(hop, body: withBody ? hop.body : nil, idleTimeout: idleTimeout)
                },
                head: \.head,
                discard: { $0.body.cancel() })
        }
    }

    /// One hop: the head, then a task that moves the body into the stream's queue.
    private func openStream(
        _ request: PrismHTTPRequest, body: Data?, idleTimeout: Duration
    ) async throws -> PrismHTTPStreamedResponse {
        let url = request.url
        let limit = configuration.maximumResponseBytes
        let response: HTTPClientResponse
        do {
            try Task.checkCancellation()
            let sender = try client(for: url)
            var outgoing = outgoingRequest(for: request)
            if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
            response = try await Self.onceMoreIfClosedUnder(request) {
                try await sender.executeQueued(outgoing, deadline: .distantFuture)
            }
            guard response.history.count <= 1 else { throw Self.followedRedirect(url) }
        } catch {
            throw AsyncHTTPClientErrors.translate(error, url: url, limit: limit)
        }
        let channel = BodyChannel(clock: deadlineClock)
        let chunks = response.body
        let producer = Task {
            do {
                for try await buffer in chunks {
                    // The chunk's bytes stay where AsyncHTTPClient read them: no copy.
                    var buffer = buffer
                    let chunk = buffer.readData(length: buffer.readableBytes, byteTransferStrategy: .noCopy) ?? Data()
                    guard await channel.send(chunk) else { return }
                }
                channel.finish()
            } catch {
                channel.finish(throwing: AsyncHTTPClientErrors.translate(error, url: url, limit: limit))
            }
        }
        channel.setOnCancel { producer.cancel() }
        channel.watchIdle(idleTimeout, url: url)
        return PrismHTTPStreamedResponse(
            statusCode: Int(response.status.code), headers: Self.headers(of: response.headers), url: url,
            request: request,
            body: PrismHTTPBodyStream(channel: channel))
    }
}
#endif
