#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Collects a response for AsyncHTTPClient's delegate API, up to a limit: a `Content-Length`
/// above it fails the request as soon as the head arrives, a body that grows past it as soon as
/// it does (AsyncHTTPClient then cancels the request and closes its connection).
///
/// AsyncHTTPClient calls it on the request's event loop, one call at a time.
final class CollectingDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = (head: HTTPResponseHead, body: ByteBuffer)

    /// The body passed the limit; `announced` is the `Content-Length` that said so, if any.
    struct TooLarge: Error {
        var announced: Int?
        var status: Int
    }

    /// AsyncHTTPClient followed a redirect itself (a client not configured with `.disallow`).
    struct FollowedRedirect: Error {}

    private let limit: Int
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    /// The response heads seen: more than one means AsyncHTTPClient followed a redirect.
    private var visits = 0

    init(limit: Int) {
        self.limit = limit
    }

    func didVisitURL(task: HTTPClient.Task<Response>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        visits += 1
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if let announced = head.headers.first(name: "Content-Length").flatMap(Int.init), announced > limit {
            return task.eventLoop.makeFailedFuture(TooLarge(announced: announced, status: Int(head.status.code)))
        }
        self.head = head
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard body.readableBytes + buffer.readableBytes <= limit else {
            return task.eventLoop.makeFailedFuture(TooLarge(status: Int(head?.status.code ?? 0)))
        }
        var buffer = buffer
        body.writeBuffer(&buffer)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        if visits > 1 { throw FollowedRedirect() }
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        return (head, body)
    }
}
#endif
