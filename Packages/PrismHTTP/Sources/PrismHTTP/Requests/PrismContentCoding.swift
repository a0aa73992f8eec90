import CPrismZlib
import Foundation

/// A way to compress a body, named by its `Content-Encoding` token (RFC 9110 §8.4.1).
///
/// ```swift
/// let compressed = try request.compressingBody(with: .gzip)
/// ```
///
/// Responses need nothing of this: every transport that ships with Prism asks for `gzip` and
/// `deflate` and hands you the decoded body (see <doc:ChoosingATransport>).
public struct PrismContentCoding: Hashable, Sendable, CustomStringConvertible {
    /// The token in `Content-Encoding`: `gzip` or `deflate`.
    public let token: String
    private let format: prism_zlib_format

    private init(token: String, format: prism_zlib_format) {
        self.token = token
        self.format = format
    }

    /// A gzip member (RFC 1952): what servers accept most widely.
    public static let gzip = PrismContentCoding(token: "gzip", format: prism_zlib_gzip)

    /// A zlib stream (RFC 1950), which is what HTTP's `deflate` means (RFC 9110 §8.4.1.2), not
    /// raw DEFLATE data.
    public static let deflate = PrismContentCoding(token: "deflate", format: prism_zlib_zlib)

    /// The token.
    public var description: String { token }

    /// Whether the codings have the same token.
    public static func == (lhs: PrismContentCoding, rhs: PrismContentCoding) -> Bool {
        lhs.token == rhs.token
    }

    /// Hashes the token.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(token)
    }

    /// `data` compressed whole with this coding, at zlib's default level.
    ///
    /// - Throws: ``PrismHTTPError`` `encodingFailed` when zlib fails (it is out of memory).
    public func compress(_ data: Data) throws(PrismHTTPError) -> Data {
        let capacity = prism_zlib_bound(data.count)
        var output = Data(count: capacity)
        var written = 0
        let status = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                prism_zlib_compress(input.baseAddress, input.count, format, out.baseAddress, capacity, &written)
            }
        }
        guard status == 0 else {
            throw PrismHTTPError(
                code: .encodingFailed, message: "zlib could not compress the body as \(token) (zlib error \(status)).")
        }
        output.count = written
        return output
    }
}

extension PrismHTTPRequest {
    /// The request with its body compressed with `coding`: `Content-Encoding` names it, after any
    /// coding the body had already (RFC 9110 §8.4 lists codings in the order they were applied),
    /// and a `Content-Length` set by hand is removed (the transport sends the new length).
    ///
    /// ```swift
    /// var request = PrismHTTPRequest(url: url, method: .post, body: report)
    /// request = try request.compressingBody(with: .gzip)
    /// ```
    ///
    /// A request with no body, or an empty one, is returned as it is. Only send a compressed body
    /// to a server that reads it: one that does not answers `415 Unsupported Media Type` at best.
    /// To compress every request's body, add ``PrismInterceptor/compressingBodies(with:minimumBytes:)``.
    ///
    /// - Throws: ``PrismHTTPError`` `encodingFailed` when zlib fails.
    public func compressingBody(with coding: PrismContentCoding = .gzip) throws(PrismHTTPError) -> PrismHTTPRequest {
        guard let body, !body.isEmpty else { return self }
        var request = self
        do {
            request.body = try coding.compress(body)
        } catch {
            var error = error
            error.url = url
            throw error
        }
        let applied = headers.values(for: "Content-Encoding").joined(separator: ", ")
        request.headers["Content-Encoding"] = applied.isEmpty ? coding.token : "\(applied), \(coding.token)"
        request.headers["Content-Length"] = nil
        return request
    }
}

extension PrismInterceptor {
    /// An interceptor that compresses each request's body of at least `minimumBytes` with
    /// `coding` (``PrismHTTPRequest/compressingBody(with:)``).
    ///
    /// ```swift
    /// let client = PrismNetworkAdapter(interceptors: [PrismInterceptor.compressingBodies(with: .gzip)])
    /// ```
    ///
    /// A body that has a `Content-Encoding` already (one the app compressed itself) is left as
    /// it is, and so is a smaller one: below about a kilobyte, compressing saves too little to
    /// pay for itself. List it before an interceptor that signs or hashes the body, so that the
    /// signature covers the bytes sent.
    public static func compressingBodies(
        with coding: PrismContentCoding = .gzip, minimumBytes: Int = 1_024
    ) -> PrismInterceptor {
        PrismInterceptor { request in
            guard let body = request.body, body.count >= max(1, minimumBytes),
                !request.headers.contains("Content-Encoding")
            else { return request }
            return try request.compressingBody(with: coding)
        }
    }
}
