import Foundation

extension PrismNetworkAdapter {
    /// Downloads the endpoint's response body to the file at `destination`, streamed to disk (never
    /// whole in memory), and moves it into place only once it is complete and checked.
    ///
    /// ```swift
    /// let video = try await client.download(
    ///     on: VideoEndpoint(id: 42), to: folder.appendingPathComponent("42.mp4"),
    ///     policy: PrismDownloadPolicy(resumable: true)
    /// ) { progress in
    ///     print("\(Int((progress.fraction ?? 0) * 100))%")
    /// }
    /// ```
    ///
    /// See ``download(_:to:options:policy:progress:)``.
    public func download(
        on endpoint: some PrismNetworkEndpoint,
        to destination: URL,
        options: PrismRequestOptions = PrismRequestOptions(),
        policy: PrismDownloadPolicy = PrismDownloadPolicy(),
        progress: (@Sendable (PrismDownloadProgress) -> Void)? = nil
    ) async throws -> PrismDownload {
        let built = try build(endpoint, options: options)
        return try await download(built.request, to: destination, options: options, policy: policy, progress: progress)
    }

    /// Downloads `request`'s response body to the file at `destination`.
    ///
    /// The body is written, as it arrives, to a hidden file in the destination's folder,
    /// readable by the user only; when the whole body is there (as long as the server said) and
    /// its SHA-256 is the one `policy` expects, the file is synchronized to disk and renamed to
    /// `destination`, replacing what was there. Until then, `destination` is untouched.
    ///
    /// The request goes through the client's pipeline like a stream
    /// (``stream(_:options:idleTimeout:)``): interceptors, the authenticator, redirects, the
    /// retry policy for the head. A status other than 200 (or 206 for a resumed download)
    /// throws `unacceptableStatus`.
    ///
    /// When `policy` is resumable, a download that fails or is cancelled keeps what it received;
    /// the next download of the same URL to the same destination sends `Range` from there and
    /// `If-Range` with the validator of the first response (its `ETag`, else its
    /// `Last-Modified`). The server's 206 continues the file; a 200 (it ignores ranges, or the
    /// file changed) starts it over; a 416 starts over too. Without a validator nothing is kept.
    ///
    /// - Parameters:
    ///   - request: The request (a `GET`).
    ///   - destination: The file URL to write; its folder must exist.
    ///   - options: Headers and a timeout for the head.
    ///   - policy: A size limit, an expected SHA-256, resumability, the idle timeout.
    ///   - progress: Called as bytes arrive, from the downloading task.
    /// - Returns: The file in place, its size and SHA-256.
    /// - Throws: ``PrismHTTPError``: `fileFailed` (the folder is missing, the disk is full),
    ///   `responseTooLarge`, `integrityCheckFailed`, `connectionFailed` (the body ended short),
    ///   `timedOut`, `unacceptableStatus`; or `CancellationError`.
    public func download(
        _ request: PrismHTTPRequest,
        to destination: URL,
        options: PrismRequestOptions = PrismRequestOptions(),
        policy: PrismDownloadPolicy = PrismDownloadPolicy(),
        progress: (@Sendable (PrismDownloadProgress) -> Void)? = nil
    ) async throws -> PrismDownload {
        if let expected = policy.expectedSHA256 {
            guard expected.count == 64, expected.allSatisfy(\.isHexDigit) else {
                throw PrismHTTPError(
                    code: .integrityCheckFailed,
                    message: "The expected SHA-256 is not 64 hexadecimal digits: \(expected.prefix(80)).",
                    url: request.url)
            }
        }
        let file = try DownloadFile(destination: destination)
        let resume = policy.resumable ? file.resumePoint(for: request.url) : nil
        if resume == nil { file.discard() }
        do {
            return try await download(
                request, file: file, resume: resume, options: options, policy: policy, progress: progress)
        } catch RangeRefused.startOver {
            // A range the server cannot satisfy: what was kept is not a part of its file.
            file.discard()
            return try await download(
                request, file: file, resume: nil, options: options, policy: policy, progress: progress)
        }
    }

    private enum RangeRefused: Error {
        case startOver
    }

    private func download(
        _ request: PrismHTTPRequest,
        file: DownloadFile,
        resume: (offset: Int64, validator: String)?,
        options: PrismRequestOptions,
        policy: PrismDownloadPolicy,
        progress: (@Sendable (PrismDownloadProgress) -> Void)?
    ) async throws -> PrismDownload {
        var sent = request
        // The file is the resource's own bytes: what a resume's Range counts, what a checksum or
        // Content-Length is of. Asked for unencoded, unless the app asked otherwise.
        if !sent.headers.contains("Accept-Encoding") { sent.headers["Accept-Encoding"] = "identity" }
        if let resume {
            sent.headers["Range"] = "bytes=\(resume.offset)-"
            sent.headers["If-Range"] = resume.validator
        }
        let response = try await stream(sent, options: options, idleTimeout: policy.idleTimeout)
        var keeps = false
        do {
            let resumedAt: Int64
            let total: Int64?
            switch response.statusCode {
            case 206 where resume != nil:
                guard let range = ContentRange(response.headers["Content-Range"]), range.first == resume?.offset else {
                    throw PrismHTTPError(
                        code: .transportFailed,
                        message:
                            "The server answered the range with another: \(response.headers["Content-Range"] ?? "none").",
                        url: response.url, statusCode: 206, headers: response.headers)
                }
                resumedAt = range.first
                total = range.total
            case 200:
                resumedAt = 0
                total = response.headers["Content-Length"].flatMap { Int64($0) }
            case 416 where resume != nil:
                response.body.cancel()
                throw RangeRefused.startOver
            default:
                response.body.cancel()
                throw PrismHTTPError.unacceptable(response.head, method: request.method)
            }
            if let limit = policy.maximumBytes, let total, total > limit {
                throw Self.tooLarge(announced: total, limit: limit, url: response.url)
            }
            let validator = response.headers["ETag"] ?? response.headers["Last-Modified"]
            let note =
                policy.resumable
                ? validator.map { DownloadFile.Note(url: request.url.absoluteString, validator: $0) } : nil
            try file.open(appending: resumedAt > 0, note: note)
            keeps = note != nil
            progress?(PrismDownloadProgress(bytesReceived: file.byteCount, totalBytes: total))
            for try await chunk in response.body {
                if let limit = policy.maximumBytes, file.byteCount + Int64(chunk.count) > limit {
                    keeps = false
                    throw Self.tooLarge(announced: nil, limit: limit, url: response.url)
                }
                try file.write(chunk)
                progress?(PrismDownloadProgress(bytesReceived: file.byteCount, totalBytes: total))
            }
            if let total, file.byteCount != total {
                throw PrismHTTPError(
                    code: .connectionFailed,
                    message: "The body ended after \(file.byteCount) of the file's \(total) bytes.",
                    url: response.url, statusCode: response.statusCode)
            }
            let sha256 = file.sha256
            if let expected = policy.expectedSHA256, expected.lowercased() != sha256 {
                keeps = false
                throw PrismHTTPError(
                    code: .integrityCheckFailed,
                    message: "The downloaded file's SHA-256 is \(sha256), not the expected \(expected.lowercased()).",
                    url: response.url, statusCode: response.statusCode)
            }
            try file.finish()
            return PrismDownload(
                fileURL: file.destination, byteCount: file.byteCount, sha256: sha256, resumedAt: resumedAt,
                statusCode: response.statusCode, headers: response.headers)
        } catch {
            response.body.cancel()
            file.abandon(keeping: keeps && file.byteCount > 0)
            throw error
        }
    }

    private static func tooLarge(announced: Int64?, limit: Int64, url: URL) -> PrismHTTPError {
        PrismHTTPError(
            code: .responseTooLarge,
            message: announced.map { "The file is \($0) bytes, more than the download's limit of \(limit)." }
                ?? "The file passed the download's limit of \(limit) bytes.",
            url: url)
    }
}

/// `Content-Range: bytes <first>-<last>/<total or *>`.
private struct ContentRange {
    var first: Int64
    var last: Int64
    var total: Int64?

    init?(_ value: String?) {
        guard let value, value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst("bytes ".count).split(separator: "/")
        let bounds = parts.first?.split(separator: "-") ?? []
        guard parts.count == 2, bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]),
            first <= last
        else { return nil }
        self.first = first
        self.last = last
        total = parts[1] == "*" ? nil : Int64(parts[1])
    }
}
