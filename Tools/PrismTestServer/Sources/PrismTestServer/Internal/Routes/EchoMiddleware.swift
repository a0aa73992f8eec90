import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `ANY /echo` and `ANY /echo/**`: answers with what it received.
///
/// A middleware rather than routes so that it answers every method, including ones the router does
/// not know (`PURGE`, say). The body is collected whole (up to the context's upload limit).
struct EchoMiddleware: RouterMiddleware {
    typealias Context = TestServerRequestContext

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard path == "/echo" || path.hasPrefix("/echo/") else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let bytes = body.readableBytesView
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        let text = bytes.isEmpty ? nil : String(validatingUTF8Bytes: bytes)
        let json: JSONValue = [
            "method": .string(request.method.rawValue),
            "path": .string(path),
            "query": .object(sorted: request.query),
            "headers": .object(sorted: headers),
            "body": .string(text),
            "bodyBase64": .string(Data(bytes).base64EncodedString()),
            "bodyLength": .int(bytes.count),
        ]
        let response = Response.json(json)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
