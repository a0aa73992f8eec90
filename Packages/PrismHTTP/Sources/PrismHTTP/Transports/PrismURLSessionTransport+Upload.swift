import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PrismURLSessionTransport {
    /// On Linux, the largest body sent from memory with a `Content-Length`; a larger body is
    /// streamed from its staged file with `Transfer-Encoding: chunked`. Servers that need a
    /// `Content-Length` for large uploads are reached with ``PrismAsyncHTTPClientTransport``.
    public static let inMemoryUploadLimit: Int64 = 8 << 20

    /// Sends `request` with `body`, reporting progress through URLSession's delegate.
    ///
    /// The body is checked first (``PrismUploadBody/validate()``: a file part that cannot be
    /// read fails before anything is sent), then staged in a temporary file, chunk by chunk, so
    /// that a large form never sits in memory: the file is created `0600` with `O_EXCL` in a
    /// private folder (`0700`) under ``temporaryDirectory``, and both are removed whatever happens
    /// (success, failure, cancellation, timeout). The request's timeout bounds every pause while
    /// the body is staged and sent, then the whole response once it is sent.
    ///
    /// On Linux, a body up to ``inMemoryUploadLimit`` is sent from memory with its
    /// `Content-Length`, and a larger one is streamed from the staged file, chunked.
    public func upload(
        _ request: PrismHTTPRequest,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse {
        try RequestValidation.validate(request)
        try body.validate()
        let timeout = try effectiveTimeout(of: request)
        let folder = temporaryDirectory
        let watchdog = Deadline.Watchdog(timeout: timeout, length: body.length, clock: deadlineClock)
        let reporting: @Sendable (Int64) -> Void = { sent in
            watchdog.progressed(to: sent)
            progress(sent)
        }
        return try await Deadline.run(timeout, url: request.url, watchdog: watchdog) { [self] in
            let staged = try await UploadStaging.stage(body, under: folder, url: request.url) { watchdog.touched() }
            defer { staged.remove() }
            return try await Redirects.follow(request, hasBody: true, policy: configuration.redirects) {
                hop, withBody in
                let urlRequest = urlRequest(for: hop, timeout: timeout)
                guard withBody else {
                    return try await exchange(hop.url, progress: nil) { $0.dataTask(with: urlRequest) }
                }
                #if canImport(FoundationNetworking)
                // swift-corelibs-foundation reads a file body on a queue of its own and resumes the
                // paused libcurl handle when more data is read; when the task has failed or been
                // cancelled in between, that resume reaches a handle libcurl no longer drives and
                // the process traps (`EasyHandle.swift`, `try!` on libcurl error 43). Bodies in
                // memory and stream bodies never pause the handle: a body up to
                // `inMemoryUploadLimit` is sent from memory with its Content-Length, a larger one
                // is read from the staged file as a stream, which libcurl sends chunked.
                if staged.length <= Self.inMemoryUploadLimit {
                    let data = try Data(contentsOf: staged.file)
                    return try await exchange(hop.url, progress: reporting) {
                        $0.uploadTask(with: urlRequest, from: data)
                    }
                }
                guard let stream = InputStream(url: staged.file) else {
                    throw PrismHTTPError(
                        code: .transportFailed, message: "Cannot read the upload's temporary file.", url: hop.url)
                }
                var streamed = urlRequest
                streamed.httpBodyStream = stream
                return try await exchange(hop.url, progress: reporting) { $0.dataTask(with: streamed) }
                #else
                return try await exchange(hop.url, progress: reporting) {
                    $0.uploadTask(with: urlRequest, fromFile: staged.file)
                }
                #endif
            }
        }
    }
}
