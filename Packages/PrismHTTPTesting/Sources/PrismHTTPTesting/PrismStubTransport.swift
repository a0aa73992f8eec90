import Foundation
import IssueReporting
import PrismHTTP
import PrismSupport

/// A `PrismHTTPTransport` for an app's unit tests: it answers requests from canned
/// responses or closures by route, records every request it gets, and can fail, answer
/// `304 Not Modified`, or wait on a clock the test controls. No socket is opened.
///
/// Give it to a `PrismNetworkAdapter` (and through it to a `PrismGraphQLClient` or a
/// `PrismUploadTask`): what the app's code sends goes through its interceptors, authenticator,
/// cache, retries and decoding as in production, and reaches the stub instead of a server.
///
/// ```swift
/// let stub = PrismStubTransport()
/// stub.on(.get, "/tasks", respond: .json([Task(id: 1, title: "Write docs")]))
/// stub.on(.post, "/sync", times: 2, respond: .status(503))   // fails twice,
/// stub.on(.post, "/sync", respond: .status(204))             // then succeeds
///
/// let client = PrismNetworkAdapter(transport: stub, cache: nil)
/// let tasks = try await client.request(on: TasksRequest())
/// #expect(stub.requests.map(\.url.path) == ["/tasks"])
/// ```
///
/// Routes are tried in the order they were added; a route added with `times:` answers that many
/// requests and then steps aside for the next route that matches. A request that no route
/// answers is a test failure (reported through IssueReporting, so Swift Testing and XCTest both
/// show it) and throws a `transportFailed` error that lists the routes; pass
/// `unmatched: .notFound` to answer `404` quietly instead.
///
/// A response with a ``PrismStubResponse/delayed(by:)`` delay waits on `clock`: give the stub a
/// `TestClock` and advance it to let the response through, so that a test of a timeout or a
/// slow network waits no real time. A request whose task is cancelled while it waits throws
/// `CancellationError`.
public final class PrismStubTransport: PrismHTTPTransport, Sendable {
    /// What the stub does with a request no route answers.
    public enum Unmatched: Sendable {
        /// Report a test failure and throw a `transportFailed` error (the default).
        case fail
        /// Answer `404 Not Found` with an empty body.
        case notFound
    }

    /// A route and what it answers.
    private struct Stub: Sendable {
        let route: PrismStubRoute
        var remaining: Int?
        let answer: @Sendable (PrismHTTPRequest) async throws -> PrismStubResponse
    }

    private struct Storage: Sendable {
        var stubs: [Stub] = []
        var requests: [PrismHTTPRequest] = []
    }

    private let storage = PrismLocked(Storage())
    private let clock: any Clock<Duration>
    private let unmatched: Unmatched

    /// Creates a stub with no routes whose delays are measured on `clock`.
    public init(clock: any Clock<Duration> = ContinuousClock(), unmatched: Unmatched = .fail) {
        self.clock = clock
        self.unmatched = unmatched
    }

    // MARK: Routes

    /// Answers requests that `route` matches with `response`, `times` times (every time when
    /// `nil`).
    public func on(_ route: PrismStubRoute, times: Int? = nil, respond response: PrismStubResponse) {
        on(route, times: times) { _ in response }
    }

    /// Answers requests that `route` matches with what `handler` returns for each of them,
    /// `times` times (every time when `nil`). An error the handler throws is what the request
    /// throws.
    public func on(
        _ route: PrismStubRoute,
        times: Int? = nil,
        handler: @escaping @Sendable (PrismHTTPRequest) async throws -> PrismStubResponse
    ) {
        precondition(times.map { $0 > 0 } ?? true, "PrismStubTransport.on(_:times:): times must be at least 1")
        storage.withLock { $0.stubs.append(Stub(route: route, remaining: times, answer: handler)) }
    }

    /// Answers `method` requests on paths that match `pattern` (see ``PrismStubRoute``) with
    /// `response`, `times` times (every time when `nil`).
    public func on(
        _ method: PrismNetworkMethod,
        _ pattern: String,
        times: Int? = nil,
        respond response: PrismStubResponse
    ) {
        on(PrismStubRoute(method, pattern), times: times, respond: response)
    }

    /// Answers `method` requests on paths that match `pattern` with what `handler` returns.
    public func on(
        _ method: PrismNetworkMethod,
        _ pattern: String,
        times: Int? = nil,
        handler: @escaping @Sendable (PrismHTTPRequest) async throws -> PrismStubResponse
    ) {
        on(PrismStubRoute(method, pattern), times: times, handler: handler)
    }

    /// Removes every route; the recorded requests stay.
    public func removeAllRoutes() {
        storage.withLock { $0.stubs.removeAll() }
    }

    /// The routes added with `times:` that have not answered as many requests as they were
    /// given, as they read in messages (for example `POST /sync`): what a test expected the app
    /// to send and it did not.
    public var unusedRoutes: [String] {
        storage.withLock { storage in
            storage.stubs.filter { ($0.remaining ?? 0) > 0 }.map(\.route.description)
        }
    }

    // MARK: Requests

    /// Every request the stub received, in order, as the transport saw it: after the client's
    /// interceptors and authenticator, with an upload's body collected.
    public var requests: [PrismHTTPRequest] {
        storage.withLock { $0.requests }
    }

    /// The recorded requests that `route` matches.
    public func requests(matching route: PrismStubRoute) -> [PrismHTTPRequest] {
        requests.filter(route.matches)
    }

    /// The recorded `method` requests on paths that match `pattern`.
    public func requests(_ method: PrismNetworkMethod, _ pattern: String) -> [PrismHTTPRequest] {
        requests(matching: PrismStubRoute(method, pattern))
    }

    /// Forgets the recorded requests; the routes stay.
    public func removeAllRequests() {
        storage.withLock { $0.requests.removeAll() }
    }

    // MARK: PrismHTTPTransport

    /// Records `request` and answers it from the first route that matches.
    public func send(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        try await answer(request)
    }

    /// Records `request` and answers it from the first route that matches; a response given as
    /// ``PrismStubResponse/stream(_:statusCode:headers:failingWith:)`` arrives chunk by chunk, each
    /// after its wait on the transport's clock. (`idleTimeout` is not applied: the clock is the
    /// test's.)
    public func stream(_ request: PrismHTTPRequest, idleTimeout: Duration) async throws -> PrismHTTPStreamedResponse {
        let (response, stubbed) = try await resolve(request)
        guard let stubbed, let chunks = stubbed.chunks, request.method != .head, response.statusCode != 304 else {
            return PrismHTTPStreamedResponse(
                statusCode: response.statusCode, headers: response.headers, url: response.url,
                body: PrismHTTPBodyStream(data: response.body))
        }
        let clock = self.clock
        let failure = stubbed.streamFailure.map { failure in
            var failure = failure
            if failure.url == nil { failure.url = request.url }
            return failure
        }
        // Each chunk's wait runs in the task that reads the body, not in a task of the stub's
        // own: cancelling the reader ends the wait, and nothing is left running after it.
        let next = PrismLocked(0)
        let pieces = AsyncThrowingStream<Data, any Error> {
            let index = next.withLock { index in
                defer { index += 1 }
                return index
            }
            guard index < chunks.count else {
                if index == chunks.count, let failure { throw failure }
                return nil
            }
            if let delay = chunks[index].delay { try await clock.sleep(for: delay) }
            return chunks[index].data
        }
        return PrismHTTPStreamedResponse(
            statusCode: response.statusCode, headers: response.headers, url: response.url,
            body: PrismHTTPBodyStream(pieces))
    }

    /// Reads `body` chunk by chunk (reporting each to `progress`, as a real transport reports
    /// bytes sent), records the request with the whole body, and answers it as ``send(_:)``
    /// does. An error the body throws while it is read is what the upload throws.
    public func upload(
        _ request: PrismHTTPRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse {
        var request = request
        var data = Data()
        for try await chunk in body.chunks() {
            try Task.checkCancellation()
            data.append(chunk)
            progress(Int64(data.count))
        }
        request.body = data
        return try await answer(request)
    }

    // MARK: Answering

    private func answer(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        let (response, stubbed) = try await resolve(request)
        // A streamed body sent whole: its chunks joined, or its failure.
        if let failure = stubbed?.streamFailure, stubbed?.chunks != nil, response.statusCode != 304 {
            var failure = failure
            if failure.url == nil { failure.url = request.url }
            if failure.method == nil { failure.method = request.method }
            throw failure
        }
        return response
    }

    /// The answer to `request`, and the stubbed response it came from (nil when no route matched).
    private func resolve(_ request: PrismHTTPRequest) async throws -> (PrismHTTPResponse, PrismStubResponse?) {
        try Task.checkCancellation()
        let found: Stub? = storage.withLock { storage in
            storage.requests.append(request)
            guard let index = storage.stubs.firstIndex(where: { $0.route.matches(request) }) else { return nil }
            let stub = storage.stubs[index]
            if let remaining = stub.remaining {
                if remaining <= 1 {
                    storage.stubs.remove(at: index)
                } else {
                    storage.stubs[index].remaining = remaining - 1
                }
            }
            return stub
        }
        guard let found else { return (try unanswered(request), nil) }

        let response = try await found.answer(request)
        if let delay = response.delay {
            try await clock.sleep(for: delay)
        }
        if var failure = response.failure {
            if failure.url == nil { failure.url = request.url }
            if failure.method == nil { failure.method = request.method }
            throw failure
        }
        if let tag = response.entityTag, Self.ifNoneMatch(request, includes: tag) {
            var headers = PrismHTTPHeaders()
            headers["ETag"] = tag
            for name in ["Cache-Control", "Expires", "Vary"] {
                if let value = response.headers[name] { headers[name] = value }
            }
            return (PrismHTTPResponse(statusCode: 304, headers: headers, body: Data(), url: request.url), response)
        }
        let answer = PrismHTTPResponse(
            statusCode: response.statusCode,
            headers: response.headers,
            body: request.method == .head ? Data() : response.body,
            url: request.url
        )
        return (answer, response)
    }

    private func unanswered(_ request: PrismHTTPRequest) throws -> PrismHTTPResponse {
        switch unmatched {
        case .notFound:
            return PrismHTTPResponse(statusCode: 404, url: request.url)
        case .fail:
            let routes = storage.withLock { $0.stubs.map(\.route.description) }
            let message =
                "PrismStubTransport: no route answers \(request.method.rawValue) \(request.url.path)"
                + (routes.isEmpty ? " (no routes)" : "; routes: \(routes.joined(separator: ", "))")
            reportIssue(message)
            throw PrismHTTPError(code: .transportFailed, message: message, url: request.url, method: request.method)
        }
    }

    private static func ifNoneMatch(_ request: PrismHTTPRequest, includes tag: String) -> Bool {
        let weakless = { (value: Substring) in value.hasPrefix("W/") ? value.dropFirst(2) : value }
        return request.headers.values(for: "If-None-Match").contains { header in
            header.split(separator: ",").contains { candidate in
                let candidate = candidate.trimmingCharacters(in: .whitespaces)[...]
                return candidate == "*" || weakless(candidate) == weakless(tag[...])
            }
        }
    }
}
