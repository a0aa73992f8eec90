import HTTPTypes
import Hummingbird
import NIOCore
import PrismSupport

/// `POST /upload` (and `PUT`): parses a multipart/form-data or raw body while it streams in.
///
/// - `?requireToken=1`: answers 401 (without reading the body) unless the request carries the
///   current bearer token of ``AuthRoutes``.
/// - `?id=<tag>`: the key of this upload in ``PrismTestServer/uploadProgress(id:)``.
/// - `?slow=1`: reads at most 4 MB/s (`&bytesPerSecond=<n>` to choose), so that back-pressure
///   slows the client down and its progress can be watched; `?bytesPerSecond=<n>` alone works too.
///   Every connection's socket receive buffer is fixed at 256 KB (``ConnectionTapHandler``), or the
///   kernel would take in tens of megabytes before the route reads a byte.
///
/// A raw body (any other `Content-Type`) is reported as one file named `body` with a null
/// `filename`. Memory stays bounded whatever the size: only field values (≤ 16 MB each) are kept.
struct UploadRoutes: RouteGroup {
    /// The route's path.
    static let path = "/upload"
    /// The reading rate of `?slow=1` unless `bytesPerSecond` is given.
    static let slowBytesPerSecond = 4 << 20

    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.on(RouterPath(Self.path), methods: [.post, .put]) { request, context -> Response in
            try await self.upload(request, context: context)
        }
    }

    private func upload(_ request: Request, context: TestServerRequestContext) async throws -> Response {
        let query = request.query
        if query["requireToken"] == "1" {
            let current = self.state.withValues { $0.tokenIsValid ? "Bearer token-\($0.tokenNumber)" : nil }
            guard let current, request.headers[.authorization] == current else {
                return .jsonMessage("token expired", status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
            }
        }
        let id = query["id"] ?? ""
        let requestedRate = query["bytesPerSecond"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let rate = requestedRate ?? (query["slow"] == "1" ? Self.slowBytesPerSecond : nil)

        let contentType = HeaderParameters(request.headers[.contentType] ?? "")
        var parser: MultipartParser?
        if contentType.value == "multipart/form-data" {
            guard let boundary = contentType.parameters["boundary"], (1...70).contains(boundary.utf8.count) else {
                return .jsonMessage("multipart/form-data needs a boundary of 1 to 70 characters", status: .badRequest)
            }
            parser = MultipartParser(boundary: boundary)
        }

        self.state.beginUpload(id: id, expectedBytes: request.headers[.contentLength].flatMap { Int($0) })
        var summary = MultipartSummary()
        var rawHasher = SHA256()
        var received = 0
        let clock = ContinuousClock()
        let started = clock.now
        do {
            for try await chunk in request.body {
                received += chunk.readableBytes
                try chunk.withUnsafeReadableBytes { bytes in
                    if parser != nil {
                        try parser!.feed(bytes, delegate: &summary)
                    } else {
                        rawHasher.update(bufferPointer: bytes)
                    }
                }
                self.state.updateUpload(id: id, bytesReceived: received, isComplete: false)
                if let rate {
                    let due = Duration.milliseconds(received * 1000 / rate)
                    let ahead = due - (clock.now - started)
                    if ahead >= .milliseconds(5) {
                        let milliseconds = Int(ahead / .milliseconds(1))
                        guard await context.pause(milliseconds: milliseconds) else { return .interrupted }
                    }
                }
            }
            try parser?.finish()
        } catch let error as MultipartParser.Error {
            return .jsonMessage("malformed multipart body: \(error.description)", status: .badRequest)
        }
        self.state.updateUpload(id: id, bytesReceived: received, isComplete: true)

        if parser != nil {
            return .json(summary.json(bodyLength: received))
        }
        let file: JSONValue = [
            "name": "body",
            "filename": .null,
            "contentType": .string(request.headers[.contentType]),
            "size": .int(received),
            "sha256": .string(MultipartSummary.hex(rawHasher.finalize())),
        ]
        return .json(["fields": .object([]), "files": [file], "parts": [], "bodyLength": .int(received)])
    }
}
