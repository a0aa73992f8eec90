import Foundation
import PrismSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads a body and reports progress as it is sent; then gives the server's response.
///
/// ```swift
/// let task = PrismUploadTask(request: request, data: body)
/// for await progress in await task.upload() {
///     print("Uploaded \(Int(progress.fractionCompleted * 100))%")
/// }
/// let response = try await task.response
/// ```
///
/// Progress values only grow, and the last is 1.0 once the whole body is sent. A large body
/// from a ``PrismMultipartFormData`` with files is streamed from disk
/// (``init(request:form:transport:)``); a file part that can no longer be read fails the upload
/// before anything is sent. Cancelling the task that iterates the stream, or calling
/// ``cancel()``, stops the upload; ``response`` then throws `CancellationError`.
///
/// Give the task your ``PrismNetworkAdapter`` (`client:`) and the upload goes through its
/// interceptors, its authenticator (refreshing after a 401 and sending the body again) and its
/// logging, like every other request:
///
/// ```swift
/// let task = PrismUploadTask(request: request, form: form, client: client)
/// ```
public actor PrismUploadTask {
    private let request: PrismHTTPRequest
    private let body: PrismUploadBody
    private let client: PrismNetworkAdapter
    private var running: Task<PrismHTTPResponse, any Error>?

    /// Creates an upload of `data` with `request` (its URL, method and headers), sent through
    /// `transport` with no interceptor, authenticator or logging.
    public init(
        request: URLRequest, data: Data, transport: any PrismHTTPTransport = PrismNetworkAdapter.defaultTransport
    ) {
        self.init(request: PrismHTTPRequest(request), body: .data(data), transport: transport)
    }

    /// Creates an upload of `form` with `request`, setting its `Content-Type`, sent through
    /// `transport` with no interceptor, authenticator or logging; files are streamed from disk.
    public init(
        request: URLRequest, form: PrismMultipartFormData,
        transport: any PrismHTTPTransport = PrismNetworkAdapter.defaultTransport
    ) {
        self.init(request: Self.request(request, for: form), body: .multipart(form), transport: transport)
    }

    /// Creates an upload of `body` with `request`, sent through `transport` with no
    /// interceptor, authenticator or logging.
    public init(
        request: PrismHTTPRequest, body: PrismUploadBody,
        transport: any PrismHTTPTransport = PrismNetworkAdapter.defaultTransport
    ) {
        self.init(request: request, body: body, client: PrismNetworkAdapter(transport: transport, cache: nil))
    }

    /// Creates an upload of `data` with `request`, sent through `client`: its interceptors,
    /// authenticator, logging and transport.
    public init(request: URLRequest, data: Data, client: PrismNetworkAdapter) {
        self.init(request: PrismHTTPRequest(request), body: .data(data), client: client)
    }

    /// Creates an upload of `form` with `request`, setting its `Content-Type`, sent through
    /// `client`: its interceptors, authenticator, logging and transport.
    public init(request: URLRequest, form: PrismMultipartFormData, client: PrismNetworkAdapter) {
        self.init(request: Self.request(request, for: form), body: .multipart(form), client: client)
    }

    /// Creates an upload of `body` with `request`, sent through `client`: its interceptors,
    /// authenticator, logging and transport.
    public init(request: PrismHTTPRequest, body: PrismUploadBody, client: PrismNetworkAdapter) {
        self.request = request
        self.body = body
        self.client = client
    }

    private static func request(_ request: URLRequest, for form: PrismMultipartFormData) -> PrismHTTPRequest {
        var http = PrismHTTPRequest(request)
        http.headers["Content-Type"] = form.contentType
        return http
    }

    /// Starts the upload (once) and returns its progress, ending when the body is sent or the
    /// upload fails.
    public func upload() -> AsyncStream<PrismUploadProgress> {
        let (stream, continuation) = AsyncStream<PrismUploadProgress>.makeStream(bufferingPolicy: .bufferingNewest(64))
        guard running == nil else {
            continuation.finish()
            return stream
        }
        let total = body.length
        let highest = LockedProgress()
        let client = self.client
        let request = self.request
        let body = self.body
        let task = Task {
            defer { continuation.finish() }
            let response = try await client.upload(request, body: body) { sent in
                if let value = highest.advance(to: min(sent, total)) {
                    continuation.yield(PrismUploadProgress(bytesUploaded: value, totalBytes: total))
                }
            }
            if let value = highest.advance(to: total) {
                continuation.yield(PrismUploadProgress(bytesUploaded: value, totalBytes: total))
            }
            return response
        }
        running = task
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    /// The server's response, once the upload finished (starting it if needed).
    public var response: PrismHTTPResponse {
        get async throws {
            if running == nil { _ = upload() }
            return try await running!.value
        }
    }

    /// Stops the upload.
    public func cancel() {
        running?.cancel()
    }
}

/// The highest byte count reported, so that progress only grows.
final class LockedProgress: Sendable {
    private let reported = PrismLocked<Int64>(-1)

    /// `value` if it is higher than anything reported before (and records it), else nil.
    func advance(to value: Int64) -> Int64? {
        reported.withLock { reported in
            guard value > reported else { return nil }
            reported = value
            return value
        }
    }
}

extension PrismHTTPRequest {
    /// A request with the URL, method, headers, body and timeout of `request`.
    ///
    /// A `timeoutInterval` of zero or less means the transport's default; one that is infinite
    /// or longer than a year is kept as too long, so that sending fails with `invalidTimeout`.
    public init(_ request: URLRequest) {
        var headers = PrismHTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        self.init(
            url: request.url ?? URL(string: "about:blank")!,
            method: PrismNetworkMethod(rawValue: request.httpMethod?.uppercased() ?? "GET") ?? .get,
            headers: headers,
            body: request.httpBody,
            timeout: Self.timeout(request.timeoutInterval)
        )
    }

    private static func timeout(_ seconds: TimeInterval) -> Duration? {
        guard seconds > 0 else { return nil }
        guard seconds <= DurationMath.seconds(RequestValidation.maximumTimeout) else { return .seconds(Int64.max) }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
