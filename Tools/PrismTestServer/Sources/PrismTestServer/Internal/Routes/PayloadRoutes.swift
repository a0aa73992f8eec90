import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /json/:bytes` and `GET /large/:bytes`.
struct PayloadRoutes: RouteGroup {
    /// The largest `/json/:bytes` body: 64 MB.
    static let maximumJSON = 64 << 20
    /// The largest `/large/:bytes` body: 16 GB.
    static let maximumLarge = 16 << 30

    func register(on router: Router<TestServerRequestContext>) {
        router.get("/json/:bytes") { _, context -> Response in
            guard let bytes = Int(context.parameter("bytes")), (0...Self.maximumJSON).contains(bytes) else {
                return .jsonMessage("bytes must be a number from 0 to \(Self.maximumJSON)", status: .badRequest)
            }
            return .json(buffer: PayloadCache.json(bytes: bytes))
        }

        router.get("/large/:bytes") { _, context -> Response in
            guard let bytes = Int(context.parameter("bytes")), (0...Self.maximumLarge).contains(bytes) else {
                return .jsonMessage("bytes must be a number from 0 to \(Self.maximumLarge)", status: .badRequest)
            }
            let body = ResponseBody(contentLength: bytes) { writer in
                var written = 0
                while written < bytes {
                    let count = min(PayloadCache.chunkSize, bytes - written)
                    // Every chunk starts at a multiple of the pattern's period but the last may be short.
                    let chunk =
                        count == PayloadCache.chunkSize
                        ? PayloadCache.patternChunk : PayloadCache.pattern(offset: written, count: count)
                    // Suspends while the connection is not writable: back-pressure, no buffering.
                    try await writer.write(chunk)
                    written += count
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }
    }
}
