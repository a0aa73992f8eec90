#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
@_spi(PrismInternals) import PrismCache
import PrismSupport
import Tracing

/// Sends requests with AsyncHTTPClient (SwiftNIO): the default transport on Linux.
///
/// ```swift
/// let client = PrismNetworkAdapter(transport: PrismAsyncHTTPClientTransport())
/// ```
///
/// A transport whose configuration keeps the default connection settings (`connectTimeout` and
/// `maximumConnectionsPerHost`) sends through one `HTTPClient` that every such transport shares,
/// which lives as long as the process and needs no shutdown; the other settings (timeouts, the
/// response size limit, redirects) are applied per request, so they never need a client of
/// their own. A configuration with other connection settings makes the transport create an
/// `HTTPClient` and own it: its lifetime is yours to end, as AsyncHTTPClient asks. Scope it with
/// ``withTransport(configuration:isolation:_:)``, or call ``shutdown()`` when you are done:
///
/// ```swift
/// let configuration = PrismTransportConfiguration(connectTimeout: .seconds(3))
/// let user = try await PrismAsyncHTTPClientTransport.withTransport(configuration: configuration) {
///     transport in
///     try await PrismNetworkAdapter(transport: transport).request(on: GetUser(login: "octocat"))
/// }
/// ```
///
/// A transport released while it still owns a running client (no ``shutdown()``) closes that
/// client with AsyncHTTPClient's non-blocking shutdown as a last resort, so that its connections
/// and threads are not leaked; a request still in flight on it then fails.
///
/// Every request runs under one deadline, its timeout (or the configuration's
/// `requestTimeout`), that covers the head, the whole body and every redirect: a server that
/// answers its headers and then stalls or drips its body fails the request with `timedOut`, and
/// its connection is closed rather than returned to the pool. Redirects are followed by Prism, as
/// the configuration's ``PrismRedirectPolicy`` says, never by AsyncHTTPClient. A body larger than
/// `maximumResponseBytes` fails with `responseTooLarge` as soon as it passes the limit.
///
/// A connection that cannot be established (nothing listens, the host is unreachable) fails the
/// request at once with ``PrismHTTPError/Code-swift.struct/connectionFailed``, rather than being
/// tried again until the request times out: retrying is the retry policy's call.
public final class PrismAsyncHTTPClientTransport: PrismHTTPTransport {
    let client: HTTPClient
    private let ownsClient: Bool
    /// Whether ``shutdown()`` has run (or begun) for an owned client.
    private let shutDown = ShutdownFlag()
    /// The settings the transport was created with.
    public let configuration: PrismTransportConfiguration
    /// What an upload's moving deadline is measured on (a test's clock, or the continuous one).
    let deadlineClock: DeadlineClock
    /// Whether the client follows redirects itself (an app's own client, misconfigured): then
    /// nothing is sent.
    let followsRedirects: Bool
    /// The clients of pinned hosts (``PinnedClients``): nil when nothing is pinned.
    private let pinnedClients: PinnedClients?
    /// Where the connections of the transport's clients last read, and how many exchanges are
    /// under way (nil for an app's own client): which loop an exchange that collects a whole
    /// response starts on.
    private let reading: ReadingLoop?
    /// Why the configuration's TLS settings cannot be applied: every request fails with it.
    private let tlsFailure: PrismHTTPError?

    /// Creates a transport that sends through `HTTPClient.shared` (default configuration) or
    /// through a client of its own configured with `configuration`.
    public convenience init(configuration: PrismTransportConfiguration = .default) {
        self.init(configuration: configuration, deadlineClock: .continuous)
    }

    /// A transport whose uploads measure their deadline on `deadlineClock`, and whose own client
    /// (not the shared one) records its requests' spans with `tracer`.
    init(
        configuration: PrismTransportConfiguration, deadlineClock: DeadlineClock,
        tracer: (any Tracer)? = InstrumentationSystem.tracer
    ) {
        self.configuration = configuration
        self.deadlineClock = deadlineClock
        self.followsRedirects = false
        var tls: TLSConfiguration?
        do {
            tls = configuration.tls == .default ? nil : try AsyncHTTPClientTLS.configuration(configuration.tls)
            tlsFailure = nil
        } catch {
            tlsFailure = error
        }
        let reading: ReadingLoop
        if Self.usesSharedClient(configuration) || tlsFailure != nil {
            client = Self.sharedClient
            reading = Self.sharedReading
            ownsClient = false
        } else {
            reading = ReadingLoop()
            client = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: Self.settings(for: configuration, tls: tls, reading: reading, tracer: tracer))
            ownsClient = true
        }
        self.reading = reading
        if configuration.tls.pins.isEmpty || tlsFailure != nil {
            pinnedClients = nil
        } else {
            pinnedClients = PinnedClients { [tls] host in
                var settings = Self.settings(for: configuration, tls: tls, tracer: tracer)
                let check = reading.noting(then: AsyncHTTPClientTLS.pinCheck(host: host, tls: configuration.tls))
                settings.http1_1ConnectionDebugInitializer = check
                settings.http2ConnectionDebugInitializer = check
                return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
            }
        }
    }

    /// The client of every transport with the default configuration: made once, never shut down.
    private static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings(for: .default, reading: sharedReading)
    )

    /// Where the shared client's connections last read.
    private static let sharedReading = ReadingLoop()

    /// Whether `configuration` asks for nothing the shared client does not do: its connection
    /// and TLS settings are the defaults (the rest is applied per request).
    static func usesSharedClient(_ configuration: PrismTransportConfiguration) -> Bool {
        let defaults = PrismTransportConfiguration.default
        return configuration.connectTimeout == defaults.connectTimeout
            && configuration.maximumConnectionsPerHost == defaults.maximumConnectionsPerHost
            && configuration.tls == defaults.tls
    }

    /// AsyncHTTPClient's settings for `configuration`, with NIOSSL's `tls` (nil: the defaults),
    /// whose connections note their reads in `reading` (when given), and whose requests' spans go
    /// to `tracer` (``recordingTracer(_:)``).
    private static func settings(
        for configuration: PrismTransportConfiguration, tls: TLSConfiguration? = nil, reading: ReadingLoop? = nil,
        tracer: (any Tracer)? = InstrumentationSystem.tracer
    ) -> HTTPClient.Configuration {
        var settings = HTTPClient.Configuration()
        settings.tracing.tracer = recordingTracer(tracer)
        if let reading {
            settings.http1_1ConnectionDebugInitializer = reading.noting()
            settings.http2ConnectionDebugInitializer = reading.noting()
        }
        settings.tlsConfiguration = tls
        settings.timeout = .init(
            connect: .nanoseconds(
                max(1, DurationMath.nanoseconds(min(configuration.connectTimeout, RequestValidation.maximumTimeout)))),
            read: nil
        )
        settings.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, configuration.maximumConnectionsPerHost)
        )
        // Fail a request whose connection cannot be made instead of trying to connect again
        // until its deadline.
        settings.connectionPool.retryConnectionEstablishment = false
        // Prism follows redirects itself (Redirects), with its own rules for credentials.
        settings.redirectConfiguration = .disallow
        // Ask for gzip and deflate (unless the request names its own Accept-Encoding) and decode
        // them, as URLSession does. No limit here: a whole body is bounded by the request's
        // `maximumResponseBytes` as its decoded bytes arrive (`collect(upTo:)`), while streams
        // and downloads have bounds of their own, or none.
        settings.decompression = .enabled(limit: .none)
        return settings
    }

    /// The tracer a client of the transport records its requests' spans with: `tracer`, the one
    /// the app bootstrapped (`InstrumentationSystem.tracer`) when the client is made, or nil when
    /// that is swift-distributed-tracing's no-op tracer.
    ///
    /// AsyncHTTPClient reads the bootstrapped tracer once, when its configuration is made, as it
    /// would here, and keeps it. Given the no-op one (no app bootstrapped a tracer yet), it would
    /// still start a span for every request and set its attributes, none of which is recorded:
    /// about 7% of a 1 KB GET's CPU at 16 requests at once (`make bench`'s client rows). A client
    /// made before any bootstrap never records a span either way, so dropping that tracer loses
    /// nothing; a tracer bootstrapped first (OpenTelemetry, ...) is kept.
    static func recordingTracer(_ tracer: (any Tracer)?) -> (any Tracer)? {
        tracer is NoOpTracer ? nil : tracer
    }

    /// Creates a transport that sends through `client`, which the caller keeps and shuts down.
    ///
    /// - Important: Create `client` with `redirectConfiguration = .disallow`: Prism follows
    ///   redirects itself, with its rules for credentials. AsyncHTTPClient's own redirects strip
    ///   `Authorization` and `Cookie` on a hop to another origin, but not `X-API-Key` or any other
    ///   secret header, and they resend a 307 or 308 body there. Through a client that follows
    ///   redirects, every request fails with `transportFailed` before a byte is sent.
    public init(client: HTTPClient, configuration: PrismTransportConfiguration = .default) {
        self.client = client
        self.ownsClient = false
        self.configuration = configuration
        self.deadlineClock = .continuous
        self.followsRedirects = Self.followsRedirects(client)
        self.pinnedClients = nil
        self.reading = nil
        self.tlsFailure =
            configuration.tls == .default
            ? nil
            : PrismHTTPError(
                code: .invalidTLSConfiguration,
                message: "PrismTransportConfiguration.tls cannot be applied to an HTTPClient the app created: set "
                    + "its tlsConfiguration instead, or let the transport create its client. Nothing was sent.")
    }

    /// The client that sends to `url`: the pinned host's own, or the transport's.
    ///
    /// - Throws: Why the TLS settings cannot be applied; a pinned host asked over plain HTTP.
    func client(for url: URL) throws(PrismHTTPError) -> HTTPClient {
        if var failure = tlsFailure {
            failure.url = url
            throw failure
        }
        guard let pinnedClients, let host = url.host, !configuration.tls.pins(for: host).isEmpty else {
            return client
        }
        guard url.scheme?.lowercased() == "https" else { throw CertificatePinning.cleartext(host: host, url: url) }
        guard !shutDown.isSet else {
            throw PrismHTTPError(
                code: .connectionFailed,
                message: "The connection failed: the transport was shut down (shutdown() or the end of "
                    + "withTransport); send with a new transport.",
                url: url)
        }
        return pinnedClients.client(for: CertificatePinning.normalized(host))
    }

    /// Whether `client` follows redirects itself.
    ///
    /// AsyncHTTPClient does not say so publicly: the client's configuration is internal, and its
    /// redirect configuration holds an internal `mode`, `disallow` or `follow(...)`, all read
    /// here by reflection. If a later version stores them otherwise, this answers false and the
    /// check after each upload (the response's history) still fails a followed redirect, after
    /// the fact.
    static func followsRedirects(_ client: HTTPClient) -> Bool {
        func child(_ label: String, of value: Any) -> Any? {
            Mirror(reflecting: value).children.first { $0.label == label }?.value
        }
        guard let configuration = child("configuration", of: client),
            let redirects = child("redirectConfiguration", of: configuration),
            let mode = child("mode", of: redirects)
        else { return false }
        return String(describing: mode).hasPrefix("follow")
    }

    /// The error every request through a client that follows redirects fails with.
    func refusingRedirectingClient(_ url: URL) -> PrismHTTPError {
        PrismHTTPError(
            code: .transportFailed,
            message: "This transport's HTTPClient follows redirects itself, past Prism's rules (it would carry "
                + "secret headers and request bodies to other origins): create it with "
                + "redirectConfiguration = .disallow. Nothing was sent.",
            url: url
        )
    }

    deinit {
        // The last resort for a client nobody shut down: AsyncHTTPClient's own non-blocking
        // shutdown (no task is started), rather than leaking its connections and threads.
        if ownsClient && shutDown.set() {
            client.shutdown(queue: .global()) { _ in }
        }
        for pinned in pinnedClients?.takeAll() ?? [] {
            pinned.shutdown(queue: .global()) { _ in }
        }
    }

    /// Shuts down the `HTTPClient` the transport created; does nothing for the shared client or
    /// one you gave it, and nothing the second time. Requests sent after it fail with
    /// ``PrismHTTPError/Code-swift.struct/connectionFailed``.
    public func shutdown() async throws {
        if ownsClient && shutDown.set() { try await client.shutdown() }
        for pinned in pinnedClients?.takeAll() ?? [] { try await pinned.shutdown() }
    }

    /// Runs `body` with a transport configured by `configuration`, then shuts it down, whether
    /// `body` returns or throws: the scoped way to use a transport that owns its `HTTPClient`.
    ///
    /// A failure to shut down is thrown when `body` returned; when `body` threw, its error is.
    public static func withTransport<Result: Sendable>(
        configuration: PrismTransportConfiguration,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PrismAsyncHTTPClientTransport) async throws -> Result
    ) async throws -> Result {
        let transport = PrismAsyncHTTPClientTransport(configuration: configuration)
        let result: Result
        do {
            result = try await body(transport)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        try await transport.shutdown()
        return result
    }

    /// Sends `request`, following redirects as the configuration says, and collects the whole
    /// response body, all within the request's timeout.
    ///
    /// One deadline covers every hop, the head and every byte of each body: past it the exchange
    /// is cancelled, its connection closed, and the request fails with `timedOut`.
    public func send(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        try RequestValidation.validate(request)
        return try await send(checked: request)
    }

    /// ``send(_:)`` for a request the client's pipeline has checked already.
    nonisolated(nonsending) func send(checked request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        if followsRedirects { throw refusingRedirectingClient(request.url) }
        let timeout = try effectiveTimeout(of: request)
        let deadline = NIODeadline.now() + .nanoseconds(DurationMath.nanoseconds(timeout))
        return try await Redirects.follow(request, hasBody: request.body != nil, policy: configuration.redirects) {
            hop, withBody in
            try await collect(hop, body: withBody ? hop.body : nil, deadline: deadline)
        }
    }

    /// Sends `request` once (no redirect followed) and collects its whole response by
    /// `deadline`: past it, the exchange is cancelled (AsyncHTTPClient closes its connection) and
    /// the request fails with `timedOut`.
    ///
    /// The response is collected on the event loop by a ``WholeResponseCollector``, through
    /// AsyncHTTPClient's delegate API, whose deadline covers the head and the whole body: the
    /// caller waits once, and nothing else runs per request (no task of Prism's or of
    /// AsyncHTTPClient's, no timer of Prism's). The exchange starts on the loop of the
    /// connection it will get when it is the only one of its client under way (``ReadingLoop``);
    /// else a request with a body goes through the async API (``collect(_:sending:deadline:)``),
    /// which writes the body on the connection's loop, where the delegate API's stream writer,
    /// called from another thread, would wake it for each write.
    nonisolated(nonsending) func collect(_ request: PrismHTTPRequest, body: Data?, deadline: NIODeadline) async throws
        -> PrismHTTPResponse
    {
        let loop = reading?.begin()
        defer { reading?.end() }
        if let body, loop == nil { return try await collect(request, sending: body, deadline: deadline) }
        let limit = configuration.maximumResponseBytes
        let url = request.url
        do {
            try Task.checkCancellation()
            let sender = try client(for: url)
            let outgoing = try HTTPClient.Request(
                url: url, method: HTTPMethod(rawValue: request.method.rawValue), headers: Self.headers(of: request),
                body: body.map { .bytes($0) })
            let collected = try await Self.onceMoreIfClosedUnder(request) {
                try await sender.collectQueued(
                    outgoing, method: request.method.rawValue, limit: limit, deadline: deadline, on: loop)
            }
            return PrismHTTPResponse(
                statusCode: Int(collected.head.status.code), headers: Self.headers(of: collected.head.headers),
                body: collected.body.map { Data($0.readableBytesView) } ?? Data(), url: url)
        } catch {
            throw AsyncHTTPClientErrors.translate(error, url: url, limit: limit)
        }
    }

    /// ``collect(_:body:deadline:)`` for a request with a body, through AsyncHTTPClient's async
    /// API, which writes the body in one piece on the connection's event loop (the delegate API
    /// writes it through a stream writer, on the task's event loop: more wake-ups per request).
    ///
    /// The async API bounds only the head by its deadline, so the head is awaited
    /// here, in the caller's task, and the body is read by ``body(of:limit:deadline:url:status:)``,
    /// which the deadline can cancel. Nothing else runs per request: no task waits for the head,
    /// and no timer of Prism's is set while the head is awaited (AsyncHTTPClient has one).
    nonisolated(nonsending) func collect(_ request: PrismHTTPRequest, sending body: Data, deadline: NIODeadline)
        async throws
        -> PrismHTTPResponse
    {
        let limit = configuration.maximumResponseBytes
        let url = request.url
        do {
            try Task.checkCancellation()
            let sender = try client(for: url)
            var outgoing = outgoingRequest(for: request)
            outgoing.body = .bytes(ByteBuffer(bytes: body))
            let response = try await Self.onceMoreIfClosedUnder(request) {
                try await sender.executeQueued(outgoing, deadline: deadline)
            }
            guard response.history.count <= 1 else { throw Self.followedRedirect(url) }
            let status = Int(response.status.code)
            let bodyLimit = try Self.bodyLimit(of: response, to: request, limit: limit)
            let headers = Self.headers(of: response.headers)
            let collected = try await Self.body(
                of: response, limit: bodyLimit, deadline: deadline, url: url, status: status)
            return PrismHTTPResponse(
                statusCode: status, headers: headers, body: Data(collected.readableBytesView), url: url)
        } catch {
            throw AsyncHTTPClientErrors.translate(error, url: url, limit: limit)
        }
    }

    /// The whole body of `response`, read by `deadline`: past it, the read is cancelled
    /// (AsyncHTTPClient closes the connection) and the request fails with `timedOut`.
    ///
    /// The body is read in a task of its own, so that the deadline can cancel the read without
    /// cancelling the caller. That task starts on this thread, and a body that has arrived already
    /// (a small one comes with its head) is read before it would wait: then the task has ended
    /// before anything waits for it, no timer is set, and the caller goes on without a hop.
    /// Only a body still on its way waits for the deadline, with ``DeadlineWatchdog``: one timer
    /// for every such body, which a deadline met moves nowhere.
    nonisolated(nonsending) static func body(
        of response: HTTPClientResponse, limit: Int, deadline: NIODeadline, url: URL, status: Int
    ) async throws -> ByteBuffer {
        let read = Flag()
        let reading = Task.immediate {
            defer { read.set() }
            do {
                return try await response.body.collect(upTo: limit)
            } catch is NIOTooManyBytesError {
                throw ResponseLimit.tooLarge(announced: nil, limit: limit, url: url, status: status)
            }
        }
        if read.isSet { return try await reading.value }
        let expired = Flag()
        let watchdog = DeadlineWatchdog.shared
        let timer = watchdog.add(deadline) {
            expired.set()
            reading.cancel()
        }
        defer { watchdog.drop(timer) }
        do {
            return try await withTaskCancellationHandler {
                try await reading.value
            } onCancel: {
                reading.cancel()
            }
        } catch  where expired.isSet {
            throw PrismHTTPError(
                code: .timedOut, message: "The whole response did not arrive in time.", url: url, underlying: error)
        }
    }

    /// The most bytes of `response`'s body to collect: `limit`, or no limit for a response that
    /// has no body (``ResponseLimit/hasBody(method:status:)``), whose `Content-Length` announces
    /// nothing to come (AsyncHTTPClient's `collect(upTo:)` refuses a 204's, though it ignores a
    /// HEAD's and a 304's).
    ///
    /// - Throws: `responseTooLarge` when a body to come is announced longer than `limit`: it is
    ///   refused before a byte of it is read.
    static func bodyLimit(of response: HTTPClientResponse, to request: PrismHTTPRequest, limit: Int)
        throws(PrismHTTPError) -> Int
    {
        let status = Int(response.status.code)
        guard ResponseLimit.hasBody(method: request.method.rawValue, status: status) else { return .max }
        if let declared = announcedLength(response.headers), declared > limit {
            throw ResponseLimit.tooLarge(announced: declared, limit: limit, url: request.url, status: status)
        }
        return limit
    }

    /// The length of the body a response announces (`Content-Length`), when that is the length
    /// of the body the transport hands on: not for an encoded body, which arrives decoded.
    static func announcedLength(_ headers: HTTPHeaders) -> Int? {
        guard !headers.contains(name: "Content-Encoding") else { return nil }
        return headers.first(name: "Content-Length").flatMap(Int.init)
    }

    /// The error of a response an app's own client reached by following a redirect itself (the
    /// reflection in ``followsRedirects(_:)`` did not see its configuration).
    static func followedRedirect(_ url: URL) -> PrismHTTPError {
        PrismHTTPError(
            code: .transportFailed,
            message: "The HTTPClient followed a redirect itself: create it with redirectConfiguration = .disallow, "
                + "so that Prism's redirect rules apply.",
            url: url)
    }

    /// The request's timeout, or the configuration's.
    func effectiveTimeout(of request: PrismHTTPRequest) throws(PrismHTTPError) -> Duration {
        let timeout = request.timeout ?? configuration.requestTimeout
        try RequestValidation.validateTimeout(timeout, what: "The timeout", url: request.url)
        return timeout
    }

    /// The AsyncHTTPClient request for `request`, without its body.
    func outgoingRequest(for request: PrismHTTPRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers = Self.headers(of: request)
        return outgoing
    }

    /// `request`'s headers, as AsyncHTTPClient sends them.
    static func headers(of request: PrismHTTPRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(request.headers.count)
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        return headers
    }

    /// A response's headers, as Prism hands them on.
    static func headers(of headers: HTTPHeaders) -> PrismHTTPHeaders {
        var converted = PrismHTTPHeaders()
        for header in headers { converted.add(name: header.name, value: header.value) }
        return converted
    }

    /// What `send` answers, sent once more if it failed because the kept-alive connection the
    /// server closed as the request left on it, before any of a response: an idempotent request
    /// goes once more, on a new connection (RFC 9110 §9.2.2), as browsers and OkHttp do. Never
    /// twice, never a POST.
    nonisolated(nonsending) static func onceMoreIfClosedUnder<Answer>(
        _ request: PrismHTTPRequest, _ send: nonisolated(nonsending) () async throws -> Answer
    ) async throws -> Answer {
        do {
            return try await send()
        } catch  where request.method.isIdempotent && AsyncHTTPClientErrors.isClosedUnderRequest(error) {
            return try await send()
        }
    }

    /// Executes `outgoing` (no redirect followed) with the async API, whose body can stream,
    /// and collects the whole response body: what uploads use. `timeout` is AsyncHTTPClient's own
    /// deadline for the head (the caller's `Deadline` bounds the whole exchange).
    func exchange(_ outgoing: HTTPClientRequest, for request: PrismHTTPRequest, timeout: Duration) async throws
        -> PrismHTTPResponse
    {
        let limit = configuration.maximumResponseBytes
        do {
            let response = try await client(for: request.url).executeQueued(
                outgoing, deadline: .now() + .nanoseconds(DurationMath.nanoseconds(timeout)))
            guard response.history.count <= 1 else { throw Self.followedRedirect(request.url) }
            let bodyLimit = try Self.bodyLimit(of: response, to: request, limit: limit)
            let headers = Self.headers(of: response.headers)
            let body = try await response.body.collect(upTo: bodyLimit)
            return PrismHTTPResponse(
                statusCode: Int(response.status.code),
                headers: headers,
                body: Data(body.readableBytesView),
                url: request.url
            )
        } catch {
            throw AsyncHTTPClientErrors.translate(error, url: request.url, limit: limit)
        }
    }
}

/// A flag set from any thread: a body read, or its deadline passed.
private final class Flag: Sendable {
    private let flag = PrismLocked(false)

    var isSet: Bool { flag.value }

    func set() { flag.withLock { $0 = true } }
}

/// A flag set once, from any thread.
private final class ShutdownFlag: Sendable {
    private let flag = PrismLocked(false)

    /// Whether the flag is set.
    var isSet: Bool { flag.value }

    /// Sets the flag; true when this call set it (it was not set before).
    func set() -> Bool {
        flag.withLock { flag in
            defer { flag = true }
            return !flag
        }
    }
}
extension HTTPClient {
    /// `execute(_:deadline:)`, where the wait for a connection to a busy host lasts until
    /// `deadline`.
    ///
    /// AsyncHTTPClient gives up on a request that has waited its connect timeout for one of the
    /// pool's connections to its host, all of them in use (`getConnectionFromPoolTimeout`),
    /// however far off the request's deadline is: with `maximumConnectionsPerHost` connections
    /// busy with slow answers, the requests queued behind them would fail with `timedOut` after
    /// `connectTimeout`. Such a request was never sent, so it joins the queue again (at its end),
    /// until its deadline passes or its task is cancelled. A connection that cannot be opened
    /// fails differently (with its own error, or `connectTimeout` when no connection to the host
    /// is open), and still fails the request at once.
    nonisolated(nonsending) func executeQueued(_ request: HTTPClientRequest, deadline: NIODeadline) async throws
        -> HTTPClientResponse
    {
        while true {
            do {
                return try await execute(request, deadline: deadline)
            } catch let error as HTTPClientError where error == .getConnectionFromPoolTimeout && .now() < deadline {
                try _Concurrency.Task.checkCancellation()
            }
        }
    }

    /// `request`'s whole response, collected by a ``WholeResponseCollector`` by `deadline`, which
    /// covers the head and the body; like ``executeQueued(_:deadline:)``, a request that found no
    /// connection free waits on in the pool's queue until `deadline`. Cancelling the task cancels
    /// the exchange.
    ///
    /// Given a `loop` (the one of the connection the pool will lease, ``ReadingLoop``), the
    /// exchange starts there: it is registered, timed and written there and then, for one
    /// wake-up of that loop, and the collector is called on the loop that reads. Without one,
    /// it is started from the caller's thread, on AsyncHTTPClient's choice of loop.
    nonisolated(nonsending) func collectQueued(
        _ request: HTTPClient.Request, method: String, limit: Int, deadline: NIODeadline, on loop: (any EventLoop)?
    ) async throws -> WholeResponseCollector.Collected {
        while true {
            do {
                let collector = WholeResponseCollector(method: method, url: request.url, limit: limit)
                return try await withTaskCancellationHandler {
                    try await withUnsafeThrowingContinuation { continuation in
                        let start: @Sendable () -> Void = {
                            let task = self.execute(
                                request: request, delegate: collector,
                                eventLoop: loop.map { .delegate(on: $0) } ?? .indifferent, deadline: deadline)
                            collector.started(task)
                            task.futureResult.whenComplete { result in
                                collector.ended()
                                continuation.resume(with: result)
                            }
                        }
                        if let loop { loop.execute(start) } else { start() }
                    }
                } onCancel: {
                    collector.cancel()
                }
            } catch let error as HTTPClientError where error == .getConnectionFromPoolTimeout && .now() < deadline {
                try _Concurrency.Task.checkCancellation()
            }
        }
    }
}
#endif
