import Foundation

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
/// (``init(request:form:transport:)``). Cancelling the task that iterates the stream, or
/// calling ``cancel()``, stops the upload; ``response`` then throws `CancellationError`.
public actor PrismUploadTask {
    private let request: PrismHTTPRequest
    private let body: PrismUploadBody
    private let transport: any PrismHTTPTransport
    private var running: Task<PrismHTTPResponse, any Error>?

    /// Creates an upload of `data` with `request` (its URL, method and headers).
    public init(
        request: URLRequest, data: Data, transport: any PrismHTTPTransport = PrismNetworkAdapter.defaultTransport
    ) {
        self.init(request: PrismHTTPRequest(request), body: .data(data), transport: transport)
    }

    /// Creates an upload of `form` with `request`, setting its `Content-Type`; files are
    /// streamed from disk.
    public init(
        request: URLRequest, form: PrismMultipartFormData,
        transport: any PrismHTTPTransport = PrismNetworkAdapter.defaultTransport
    ) {
        var http = PrismHTTPRequest(request)
        http.headers["Content-Type"] = form.contentType
        self.init(request: http, body: .multipart(form), transport: transport)
    }

    /// Creates an upload of `body` with `request`.
    public init(
        request: PrismHTTPRequest, body: PrismUploadBody,
        transport: any PrismHTTPTransport = PrismNetworkAdapter.defaultTransport
    ) {
        self.request = request
        self.body = body
        self.transport = transport
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
        let transport = self.transport
        let request = self.request
        let body = self.body
        let task = Task {
            defer { continuation.finish() }
            let response = try await transport.upload(request, body: body) { sent in
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
final class LockedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var reported: Int64 = -1

    /// `value` if it is higher than anything reported before (and records it), else nil.
    func advance(to value: Int64) -> Int64? {
        lock.withLock {
            guard value > reported else { return nil }
            reported = value
            return value
        }
    }
}

extension PrismHTTPRequest {
    /// A request with the URL, method, headers, body and timeout of `request`.
    public init(_ request: URLRequest) {
        var headers = PrismHTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        self.init(
            url: request.url ?? URL(string: "about:blank")!,
            method: PrismNetworkMethod(rawValue: request.httpMethod?.uppercased() ?? "GET") ?? .get,
            headers: headers,
            body: request.httpBody,
            timeout: request.timeoutInterval > 0 ? .milliseconds(Int64(request.timeoutInterval * 1_000)) : nil
        )
    }
}
