import HTTPTypes
import Hummingbird
import NIOCore

/// Routes that behave like a hostile or broken server, for the tests of a client's defences:
/// bodies that stall or drip after the head, bodies larger than any limit, redirects anywhere, and
/// an endless 401.
///
/// Each body route records, per path, how many responses the client abandoned (closed the
/// connection before the body ended) and how many body bytes were written
/// (``PrismTestServer/abandonedResponses(_:)``, ``PrismTestServer/bodyBytesSent(_:)``), so that a
/// test can tell a client that gave up from one that read on.
struct HostileRoutes: RouteGroup {
    /// The longest a stall or a drip may last: 10 minutes.
    static let maximumDuration = 600_000
    /// The largest body `/hostile/stall` and `/hostile/drip` announce: 1 GB.
    static let maximumLength = 1 << 30

    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.get("/hostile/stall") { request, context -> Response in
            let query = request.query
            let length = Self.number(query["length"], default: 1 << 20, in: 1...Self.maximumLength)
            let sent = Self.number(query["sent"], default: 1_024, in: 0...length)
            let wait = Self.number(query["ms"], default: 10_000, in: 0...Self.maximumDuration)
            let path = request.uri.path
            let state = self.state
            let body = ResponseBody(contentLength: length) { writer in
                do {
                    try await Self.writePattern(from: 0, count: sent, to: &writer, path: path, state: state)
                    guard await context.pause(milliseconds: wait), context.channel.isActive else {
                        state.recordAbandoned(path)
                        return
                    }
                    try await Self.writePattern(from: sent, count: length - sent, to: &writer, path: path, state: state)
                    try await writer.finish(nil)
                } catch {
                    state.recordAbandoned(path)
                    throw error
                }
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }

        router.get("/hostile/drip") { request, context -> Response in
            let query = request.query
            let length = Self.number(query["bytes"], default: 100, in: 1...Self.maximumLength)
            let interval = Self.number(query["interval"], default: 100, in: 1...Self.maximumDuration)
            let path = request.uri.path
            let state = self.state
            let body = ResponseBody(contentLength: length) { writer in
                do {
                    for offset in 0..<length {
                        try await Self.writePattern(from: offset, count: 1, to: &writer, path: path, state: state)
                        if offset + 1 < length {
                            guard await context.pause(milliseconds: interval), context.channel.isActive else {
                                state.recordAbandoned(path)
                                return
                            }
                        }
                    }
                    try await writer.finish(nil)
                } catch {
                    state.recordAbandoned(path)
                    throw error
                }
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }

        router.get("/hostile/oversized/:bytes") { request, context -> Response in
            guard let length = Int(context.parameter("bytes")), (0...PayloadRoutes.maximumLarge).contains(length)
            else {
                return .jsonMessage(
                    "bytes must be a number from 0 to \(PayloadRoutes.maximumLarge)", status: .badRequest)
            }
            let path = request.uri.path
            let state = self.state
            // No Content-Length: the body is chunked, so a client learns its size only by reading it.
            let body = ResponseBody { writer in
                do {
                    try await Self.writePattern(from: 0, count: length, to: &writer, path: path, state: state)
                    try await writer.finish(nil)
                } catch {
                    state.recordAbandoned(path)
                    throw error
                }
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }

        router.on("/hostile/redirect", methods: anyMethod) { request, _ -> Response in
            let query = request.query
            guard let target = query["to"], !target.isEmpty else {
                return .jsonMessage("?to=<url> is required", status: .badRequest)
            }
            let status = Self.number(query["status"], default: 302, in: 300...399)
            return Self.redirect(to: target, status: status)
        }

        router.on("/hostile/redirect-chain/:count", methods: anyMethod) { request, context -> Response in
            guard let count = Int(context.parameter("count")), (0...1_000).contains(count) else {
                return .jsonMessage("count must be a number from 0 to 1000", status: .badRequest)
            }
            guard count > 0 else {
                return .json(["chain": "end", "method": .string(request.method.rawValue)])
            }
            let status = Self.number(request.query["status"], default: 302, in: 300...399)
            let query = request.uri.query.map { "?" + $0 } ?? ""
            return Self.redirect(to: "/hostile/redirect-chain/\(count - 1)\(query)", status: status)
        }

        router.on("/hostile/unauthorized", methods: anyMethod) { _, _ -> Response in
            .jsonMessage("credentials rejected", status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
        }
    }

    /// A redirect with `Location: target` and a small JSON body.
    static func redirect(to target: String, status: Int) -> Response {
        .jsonMessage(
            "redirecting", status: HTTPResponse.Status(code: status),
            extra: [.init(key: "location", value: .string(target))],
            headers: [.location: target])
    }

    /// `text` as a number in `range`, or `fallback` when it is missing or not such a number.
    static func number(_ text: String?, default fallback: Int, in range: ClosedRange<Int>) -> Int {
        guard let value = text.flatMap({ Int($0) }), range.contains(value) else { return fallback }
        return value
    }

    /// Writes `count` bytes of the `/large` pattern starting at body offset `offset`, counting
    /// them for `path` as they are handed to the connection.
    static func writePattern(
        from offset: Int,
        count: Int,
        to writer: inout any ResponseBodyWriter,
        path: String,
        state: ServerState
    ) async throws {
        var written = 0
        while written < count {
            let chunk = min(PayloadCache.chunkSize, count - written)
            try await writer.write(PayloadCache.pattern(offset: offset + written, count: chunk))
            written += chunk
            state.recordBodyBytes(chunk, for: path)
        }
    }
}
