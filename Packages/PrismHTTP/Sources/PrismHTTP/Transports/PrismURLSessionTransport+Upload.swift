import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PrismURLSessionTransport {
    /// Sends `request` with `body`, reporting progress through URLSession's delegate.
    ///
    /// The body is checked first (``PrismUploadBody/validate()``: a file part that cannot be
    /// read fails before anything is sent), then staged in a temporary file, chunk by chunk, so
    /// that a large form never sits in memory: the file is created `0600` with `O_EXCL` in a
    /// private folder (`0700`) under ``temporaryDirectory``, and both are removed whatever happens
    /// (success, failure, cancellation, timeout). The request's timeout bounds every pause while
    /// the body is staged and sent, then the whole response once it is sent.
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
                return try await exchange(hop.url, progress: reporting) {
                    $0.uploadTask(with: urlRequest, fromFile: staged.file)
                }
            }
        }
    }
}
