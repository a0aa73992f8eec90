import Foundation
import PrismSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests with Foundation's `URLSession`: the default transport on Apple platforms,
/// available on Linux too.
///
/// The session it creates has Foundation's own cache turned off (Prism caches responses with
/// `PrismResponseCache`, on every platform) and hands every response back as it arrived,
/// `304 Not Modified` included.
///
/// It holds requests to the same bars as ``PrismAsyncHTTPClientTransport``: one deadline per
/// request (its timeout, or the configuration's `requestTimeout`) covers the head, the whole
/// body and every redirect; a body larger than `maximumResponseBytes` is cut off as soon as it
/// passes the limit (or its `Content-Length` announces more); URLSession never follows a redirect
/// itself (swift-corelibs-foundation would copy `Authorization` to any host): Prism follows
/// them as the configuration's ``PrismRedirectPolicy`` says.
public final class PrismURLSessionTransport: PrismHTTPTransport {
    /// The session requests go through (or, on Linux, whose configuration they go through: see
    /// ``init(session:configuration:temporaryDirectory:)``).
    public let session: URLSession
    /// The settings the transport was created with.
    public let configuration: PrismTransportConfiguration
    /// Where upload bodies are staged (in a private folder of their own, removed afterwards).
    public let temporaryDirectory: URL
    /// The session tasks are made in.
    let sendingSession: URLSession
    /// Hands each task's events to its delegate, when the sending session is the transport's
    /// own; nil when tasks carry their delegate themselves (a given session on Apple platforms).
    let router: SessionDelegateRouter?
    /// What an upload's moving deadline is measured on (a test's clock, or the continuous one).
    let deadlineClock: DeadlineClock

    /// Creates a transport with a session of its own, configured with `configuration`.
    ///
    /// - Parameters:
    ///   - configuration: Timeouts, limits and the redirect policy.
    ///   - temporaryDirectory: Where ``upload(_:body:progress:)`` stages bodies: each upload
    ///     gets a private folder (`0700`) there with one file (`0600`), removed when it ends.
    public convenience init(
        configuration: PrismTransportConfiguration = .default,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) {
        self.init(configuration: configuration, temporaryDirectory: temporaryDirectory, deadlineClock: .continuous)
    }

    /// A transport with a session of its own whose uploads measure their deadline on
    /// `deadlineClock`.
    init(configuration: PrismTransportConfiguration, temporaryDirectory: URL, deadlineClock: DeadlineClock) {
        self.deadlineClock = deadlineClock
        let settings = URLSessionConfiguration.ephemeral
        settings.urlCache = nil
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.timeoutIntervalForRequest =
            DurationMath.seconds(min(configuration.requestTimeout, RequestValidation.maximumTimeout))
        // The whole transfer is bounded by Prism's own deadline (the request's timeout, which may be
        // longer than the configuration's, and moves on while an upload makes progress), never by
        // URLSession's resource timeout, which on Apple platforms cuts the transfer at this value.
        settings.timeoutIntervalForResource = DurationMath.seconds(RequestValidation.maximumTimeout)
        settings.httpMaximumConnectionsPerHost = max(1, configuration.maximumConnectionsPerHost)
        settings.httpShouldSetCookies = false
        settings.httpCookieAcceptPolicy = .never
        URLSessionTLS.apply(configuration.tls, to: settings)
        let router = SessionDelegateRouter()
        self.router = router
        self.session = URLSession(configuration: settings, delegate: router, delegateQueue: nil)
        self.sendingSession = session
        self.configuration = configuration
        self.temporaryDirectory = temporaryDirectory
    }

    /// Creates a transport that sends through `session`.
    ///
    /// On Apple platforms each task gets a delegate of its own (for redirects, limits and
    /// progress), so the session's delegate sees only what that one does not handle. On Linux,
    /// where swift-corelibs-foundation ignores a task's own delegate, requests go through a
    /// session of the transport's own made with `session`'s configuration.
    public init(
        session: URLSession,
        configuration: PrismTransportConfiguration = .default,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory
    ) {
        self.session = session
        self.configuration = configuration
        self.temporaryDirectory = temporaryDirectory
        self.deadlineClock = .continuous
        #if canImport(FoundationNetworking)
        let router = SessionDelegateRouter()
        self.router = router
        self.sendingSession = URLSession(configuration: session.configuration, delegate: router, delegateQueue: nil)
        #else
        self.router = nil
        self.sendingSession = session
        #endif
    }

    deinit {
        // A session keeps its delegate until it is invalidated.
        if router != nil { sendingSession.finishTasksAndInvalidate() }
    }

    /// Sends `request`, following redirects as the configuration says, and returns the
    /// response, whatever its status, all within the request's timeout.
    public func send(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        try RequestValidation.validate(request)
        let timeout = try effectiveTimeout(of: request)
        return try await Deadline.run(timeout, url: request.url) { [self] in
            try await Redirects.follow(request, hasBody: request.body != nil, policy: configuration.redirects) {
                hop, withBody in
                var urlRequest = urlRequest(for: hop, timeout: timeout)
                urlRequest.httpBody = withBody ? hop.body : nil
                return try await exchange(hop.url, progress: nil) { $0.dataTask(with: urlRequest) }
            }
        }
    }

    /// The request's timeout, or the configuration's.
    func effectiveTimeout(of request: PrismHTTPRequest) throws(PrismHTTPError) -> Duration {
        let timeout = request.timeout ?? configuration.requestTimeout
        try RequestValidation.validateTimeout(timeout, what: "The timeout", url: request.url)
        return timeout
    }

    /// The Foundation request for `request`, without its body.
    func urlRequest(for request: PrismHTTPRequest, timeout: Duration) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.httpShouldHandleCookies = false
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation lets a timed-out task poison the session's timer: every later
        // request on the session then fails at once with URLError.timedOut, although the server
        // answers. libcurl gets more time than the caller asked for; Prism's own deadline ends
        // the request, by cancelling it, when the caller's timeout passes.
        urlRequest.timeoutInterval = DurationMath.seconds(timeout) * 2 + 1
        #else
        urlRequest.timeoutInterval = DurationMath.seconds(timeout)
        #endif
        return urlRequest
    }

    /// Runs the task `makeTask` creates, with a delegate of its own, and returns its response.
    func exchange(
        _ url: URL,
        progress: (@Sendable (Int64) -> Void)?,
        makeTask: (URLSession) -> URLSessionTask
    ) async throws -> PrismHTTPResponse {
        try Task.checkCancellation()
        try URLSessionTLS.admit(url, configuration.tls)
        let delegate = TaskDelegate(
            limit: configuration.maximumResponseBytes, progress: progress, tls: configuration.tls)
        let task = makeTask(sendingSession)
        if let router {
            router.register(delegate, for: task)
        } else {
            task.delegate = delegate
        }
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.start(continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch {
            if let failure = delegate.trustFailure { throw failure }
            if let tooLarge = delegate.tooLarge {
                throw ResponseLimit.tooLarge(
                    announced: tooLarge.announced, limit: configuration.maximumResponseBytes, url: url,
                    status: tooLarge.status)
            }
            throw URLSessionErrors.translate(error, url: url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw PrismHTTPError(code: .transportFailed, message: "The response is not an HTTP response.", url: url)
        }
        var headers = PrismHTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(name: "\(name)", value: "\(value)")
        }
        return PrismHTTPResponse(statusCode: http.statusCode, headers: headers, body: data, url: url)
    }
}
