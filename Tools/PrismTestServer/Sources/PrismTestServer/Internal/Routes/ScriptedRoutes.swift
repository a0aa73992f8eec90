import HTTPTypes
import Hummingbird

/// `ANY /scripted/:name`: the answers a test scripted with ``PrismTestServer/script(_:_:)``, one
/// per request, the last repeated; 404 for a name never scripted.
///
/// A middleware rather than a route so that it answers every method, including ones the router
/// does not know (`M-SEARCH`, `PROPFIND`).
struct ScriptedMiddleware: RouterMiddleware {
    typealias Context = TestServerRequestContext

    let state: ServerState

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix("/scripted/") else { return try await next(request, context) }
        let name = String(path.dropFirst("/scripted/".count))
        guard let answer = self.state.nextScriptedResponse(name) else {
            return .jsonMessage("nothing is scripted for '\(name)'", status: .notFound)
        }
        guard await context.pause(milliseconds: answer.delayMilliseconds) else { return .interrupted }
        var headers = HTTPFields()
        for (fieldName, value) in answer.headers {
            guard let name = HTTPField.Name(fieldName) else {
                return .jsonMessage("'\(fieldName)' is not a valid header name", status: .internalServerError)
            }
            headers.append(HTTPField(name: name, value: value))
        }
        let status = HTTPResponse.Status(code: answer.status)
        if [204, 205, 304].contains(answer.status) || request.method == .head {
            return Response(status: status, headers: headers)
        }
        let first = answer.bytes.map { ByteBuffer(bytes: $0) } ?? ByteBuffer(string: answer.body)
        guard !answer.parts.isEmpty || answer.dropsConnection else {
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: first))
        }
        let channel = context.channel
        let body = ResponseBody { writer in
            if first.readableBytes > 0 { try await writer.write(first) }
            for part in answer.parts {
                guard await context.pause(milliseconds: part.delayMilliseconds), channel.isActive else { return }
                if let name = part.releasedBy {
                    // Looked at every 5 ms: a test server's wait, ended by the test or by the
                    // client leaving.
                    while !self.state.isReleased(name) {
                        guard await context.pause(milliseconds: 5), channel.isActive else { return }
                    }
                }
                try await writer.write(ByteBuffer(string: part.text))
            }
            if answer.dropsConnection {
                // Each part was flushed as it was written; the body's end never is.
                try? await channel.close().get()
                return
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }
}
