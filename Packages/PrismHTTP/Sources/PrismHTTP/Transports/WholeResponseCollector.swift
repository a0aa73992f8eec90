#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PrismSupport

/// Collects a whole response as AsyncHTTPClient's event loop reads it: the AsyncHTTPClient
/// transport's way to send a request whose response is wanted whole (`request(on:)`, `send`).
/// A request with a body goes through it when it is the only one of its client under way, and
/// starts on its connection's loop (``ReadingLoop``); beside others, it goes through the async
/// API, which writes the body on the connection's loop, where the delegate API's stream writer,
/// called from another thread, would wake that loop for each write.
///
/// AsyncHTTPClient's delegate API gives what the async API (`execute(_:deadline:)`, then the
/// body's `collect(upTo:)`) does not: its deadline covers the head and every byte of the body,
/// and the caller waits once, for the whole response. The async API bounds only the head by its
/// deadline, so a deadline for the body needed a task to read it in and a timer to cancel that
/// task; and it starts a task of its own for each request, to register the exchange with its
/// cancellation handler. Here a request costs one wait and one wake of the caller, whatever
/// arrives when.
///
/// | event (on the exchange's event loop) | what the collector does |
/// |---|---|
/// | each hop's URL visited | counted: a second is a redirect the client followed itself, refused |
/// | the head | kept; a `Content-Length` past the limit, on a response that has a body (``ResponseLimit/hasBody(method:status:)``) and no `Content-Encoding`, refuses it before any of the body |
/// | a part of the body | appended; past the limit, the response is refused and the exchange ends (its connection closed) |
/// | the end | the head and the body, to the waiting caller |
/// | an error | kept, and thrown to the caller at the end |
///
/// AsyncHTTPClient calls a delegate on the exchange's event loop, one call at a time; the state
/// is under a lock all the same, as `Sendable` requires.
final class WholeResponseCollector: HTTPClientResponseDelegate {
    typealias Response = Collected

    /// A whole response: its head and its body.
    struct Collected: Sendable {
        var head: HTTPResponseHead
        /// Nil when no byte of a body arrived.
        var body: ByteBuffer?
    }

    private let method: String
    private let url: URL
    private let limit: Int
    private let state = PrismLocked(State())

    private struct State {
        var head: HTTPResponseHead?
        var body: ByteBuffer?
        var error: (any Error)?
        var visited = 0
        /// The exchange, from its start to its end: what ``cancel()`` cancels.
        var task: HTTPClient.Task<Collected>?
        var isCancelled = false
    }

    /// A collector of the response to a `method` request for `url`, whose body may be at most
    /// `limit` bytes.
    init(method: String, url: URL, limit: Int) {
        self.method = method
        self.url = url
        self.limit = limit
    }

    /// The exchange this collector collects has started; cancelled at once when its caller's
    /// task was cancelled before.
    func started(_ task: HTTPClient.Task<Collected>) {
        let cancelled = state.withLock { state in
            if !state.isCancelled { state.task = task }
            return state.isCancelled
        }
        if cancelled { task.cancel() }
    }

    /// The exchange has ended: nothing is left to cancel (and the task, which holds this
    /// delegate, is let go).
    func ended() {
        state.withLock { $0.task = nil }
    }

    /// Cancels the exchange, now or as soon as it starts.
    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }

    func didVisitURL(task: HTTPClient.Task<Collected>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        state.withLock { $0.visited += 1 }
    }

    func didReceiveHead(task: HTTPClient.Task<Collected>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let status = Int(head.status.code)
        let refusal: PrismHTTPError? = state.withLock { state in
            var refusal: PrismHTTPError?
            if state.visited > 1 {
                refusal = PrismAsyncHTTPClientTransport.followedRedirect(url)
            } else if ResponseLimit.hasBody(method: method, status: status),
                let announced = PrismAsyncHTTPClientTransport.announcedLength(head.headers), announced > limit
            {
                refusal = ResponseLimit.tooLarge(announced: announced, limit: limit, url: url, status: status)
            }
            if let refusal { state.error = refusal } else { state.head = head }
            return refusal
        }
        guard let refusal else { return task.eventLoop.makeSucceededVoidFuture() }
        return task.eventLoop.makeFailedFuture(refusal)
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Collected>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        let refusal: PrismHTTPError? = state.withLock { state in
            guard state.error == nil else { return nil }
            guard (state.body?.readableBytes ?? 0) + part.readableBytes <= limit else {
                let error = ResponseLimit.tooLarge(
                    announced: nil, limit: limit, url: url, status: state.head.map { Int($0.status.code) })
                state.error = error
                return error
            }
            if state.body == nil {
                state.body = part
            } else {
                var part = part
                state.body?.writeBuffer(&part)
            }
            return nil
        }
        guard let refusal else { return task.eventLoop.makeSucceededVoidFuture() }
        return task.eventLoop.makeFailedFuture(refusal)
    }

    func didReceiveError(task: HTTPClient.Task<Collected>, _ error: any Error) {
        state.withLock { state in
            if state.error == nil { state.error = error }
        }
    }

    func didFinishRequest(task: HTTPClient.Task<Collected>) throws -> Collected {
        let (head, body, error) = state.withLock { ($0.head, $0.body, $0.error) }
        if let error { throw error }
        guard let head else {
            throw PrismHTTPError(
                code: .transportFailed, message: "The exchange ended without a response.", url: url)
        }
        return Collected(head: head, body: body)
    }
}
#endif
