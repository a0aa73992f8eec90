import Foundation
import PrismSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PrismURLSessionTransport {
    /// Sends `request`, following redirects as the configuration says, and returns when the
    /// status and headers arrive; the body streams as the caller reads it.
    ///
    /// The request's timeout bounds the wait for the head of every hop; then `idleTimeout`
    /// bounds each wait for the next bytes. On Apple platforms, while about 64 KB is
    /// received and not yet read, the task is suspended; swift-corelibs-foundation cannot pause a
    /// transfer, so on Linux what arrives is queued however slowly it is read (AsyncHTTPClient,
    /// the default transport there, holds the server back instead). Leaving the stream cancels
    /// the task. `maximumResponseBytes` does not apply.
    public func stream(_ request: PrismHTTPRequest, idleTimeout: Duration) async throws -> PrismHTTPStreamedResponse {
        try RequestValidation.validate(request)
        try RequestValidation.validateTimeout(idleTimeout, what: "The idle timeout", url: request.url)
        let timeout = try effectiveTimeout(of: request)
        return try await Deadline.run(timeout, url: request.url, clock: deadlineClock, what: .head) { [self] in
            try await Redirects.follow(
                request, hasBody: request.body != nil, policy: configuration.redirects,
                send: { hop, withBody in
                    var urlRequest = urlRequest(for: hop, timeout: timeout)
                    urlRequest.httpBody = withBody ? hop.body : nil
                    return try await openStream(hop, urlRequest: urlRequest, idleTimeout: idleTimeout)
                },
                head: \.head,
                discard: { $0.body.cancel() })
        }
    }

    /// One hop: its task started, and the head awaited; the body flows into the stream's queue.
    private func openStream(
        _ request: PrismHTTPRequest, urlRequest: URLRequest, idleTimeout: Duration
    ) async throws -> PrismHTTPStreamedResponse {
        let url = request.url
        try Task.checkCancellation()
        try URLSessionTLS.admit(url, configuration.tls)
        let channel = BodyChannel(clock: deadlineClock)
        let delegate = StreamTaskDelegate(channel: channel, url: url, tls: configuration.tls)
        let task = sendingSession.dataTask(with: urlRequest)
        if let router {
            router.register(delegate, for: task)
        } else {
            task.delegate = delegate
        }
        channel.setOnDrain { task.resume() }
        let head: HTTPURLResponse
        do {
            head = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.start(head: continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch {
            if let failure = delegate.trustFailure { throw failure }
            throw URLSessionErrors.translate(error, url: url)
        }
        channel.setOnCancel { task.cancel() }
        channel.watchIdle(idleTimeout, url: url)
        var headers = PrismHTTPHeaders()
        for (name, value) in head.allHeaderFields {
            headers.add(name: "\(name)", value: "\(value)")
        }
        return PrismHTTPStreamedResponse(
            statusCode: head.statusCode, headers: headers, url: url, request: request,
            body: PrismHTTPBodyStream(channel: channel))
    }
}

/// The delegate of a streamed task: the head resumes the caller, each piece of the body goes to
/// the stream's queue (the task is suspended while the queue is full), the end finishes it.
///
/// `@unchecked` because it restates the conformance it inherits from ``TaskDelegate``: its own
/// stored properties are `let`s of `Sendable` types.
final class StreamTaskDelegate: TaskDelegate, @unchecked Sendable {
    /// The caller waiting for the head, until the head (or the end) arrives.
    private let head = PrismLocked<CheckedContinuation<HTTPURLResponse, any Error>?>(nil)
    private let channel: BodyChannel
    private let url: URL

    init(channel: BodyChannel, url: URL, tls: PrismTLSConfiguration) {
        self.channel = channel
        self.url = url
        super.init(limit: .max, progress: nil, tls: tls)
    }

    func start(head continuation: CheckedContinuation<HTTPURLResponse, any Error>) {
        head.withLock { $0 = continuation }
    }

    private func takeHead() -> CheckedContinuation<HTTPURLResponse, any Error>? {
        head.withLock { head in
            defer { head = nil }
            return head
        }
    }

    override func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            takeHead()?.resume(
                throwing: PrismHTTPError(
                    code: .transportFailed, message: "The response is not an HTTP response.", url: url))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
        takeHead()?.resume(returning: http)
    }

    override func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        #if !canImport(FoundationNetworking)
        // Suspended once per pause, resumed only after the suspend (TransferPause): a resume that
        // overtook it would do nothing, and the task would stay suspended for good.
        guard channel.offerPausing(data) else { return }
        dataTask.suspend()
        if channel.suspendDone() { dataTask.resume() }
        #else
        // swift-corelibs-foundation cannot pause a transfer: suspending a task stops libcurl's
        // transfer, and the data already read then traps in its state machine. The queue grows
        // instead; on Linux, AsyncHTTPClient (the default there) streams with back-pressure.
        channel.offer(data)
        #endif
    }

    override func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let waiting = takeHead() {
            // Ended before a head: the caller learns why.
            waiting.resume(throwing: error ?? URLError(.badServerResponse))
            return
        }
        if let error {
            channel.finish(throwing: trustFailure ?? URLSessionErrors.translate(error, url: url))
        } else {
            channel.finish()
        }
    }
}
