import Foundation

/// How a download is checked and kept: a size limit, an expected checksum, whether an
/// interrupted download is kept to be resumed, and the idle timeout of its body.
public struct PrismDownloadPolicy: Sendable, Hashable {
    /// The most bytes the file may hold; a larger file fails with `responseTooLarge` (as soon as
    /// the server announces it, or when the bytes pass the limit). Nil: no limit.
    public var maximumBytes: Int64?
    /// The SHA-256 the file must have, as 64 hexadecimal digits (either case); a file with
    /// another fails with `integrityCheckFailed` and is not moved into place.
    public var expectedSHA256: String?
    /// Whether a download that fails or is cancelled midway keeps what it received, so that
    /// the next download to the same destination from the same URL asks only for the rest
    /// (`Range` and `If-Range`, when the server gave an `ETag` or `Last-Modified`). When false,
    /// what was received is removed at once.
    public var resumable: Bool
    /// The longest wait for more of the body; the request's timeout when nil.
    public var idleTimeout: Duration?

    /// A policy; by default no limit, no checksum, not resumable.
    public init(
        maximumBytes: Int64? = nil, expectedSHA256: String? = nil, resumable: Bool = false,
        idleTimeout: Duration? = nil
    ) {
        self.maximumBytes = maximumBytes
        self.expectedSHA256 = expectedSHA256
        self.resumable = resumable
        self.idleTimeout = idleTimeout
    }
}

/// How far a download has come.
public struct PrismDownloadProgress: Sendable, Hashable {
    /// The bytes of the file received so far, those of an earlier attempt that this one
    /// resumed included.
    public var bytesReceived: Int64
    /// The file's size, when the server announced it.
    public var totalBytes: Int64?

    /// A progress report.
    public init(bytesReceived: Int64, totalBytes: Int64?) {
        self.bytesReceived = bytesReceived
        self.totalBytes = totalBytes
    }

    /// `bytesReceived` over `totalBytes`, from 0 to 1; nil when the size is unknown.
    public var fraction: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(bytesReceived) / Double(totalBytes))
    }
}

/// A finished download: the file, in place.
public struct PrismDownload: Sendable, Hashable {
    /// The destination, which now holds the whole file.
    public var fileURL: URL
    /// The file's size.
    public var byteCount: Int64
    /// The file's SHA-256, as 64 lowercase hexadecimal digits.
    public var sha256: String
    /// Where this download started in the file: 0 for a whole download, the size of what an
    /// earlier, interrupted attempt had kept when it resumed.
    public var resumedAt: Int64
    /// The status of the final response (200, or 206 for a resumed download).
    public var statusCode: Int
    /// The final response's header fields.
    public var headers: PrismHTTPHeaders

    /// A finished download.
    public init(
        fileURL: URL, byteCount: Int64, sha256: String, resumedAt: Int64, statusCode: Int, headers: PrismHTTPHeaders
    ) {
        self.fileURL = fileURL
        self.byteCount = byteCount
        self.sha256 = sha256
        self.resumedAt = resumedAt
        self.statusCode = statusCode
        self.headers = headers
    }
}
