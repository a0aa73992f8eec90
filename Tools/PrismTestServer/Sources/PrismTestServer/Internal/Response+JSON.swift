import HTTPTypes
import Hummingbird
import NIOCore

extension Response {
    /// The `Content-Type` of every JSON answer.
    static let jsonContentType = "application/json; charset=utf-8"

    /// A response whose body is `json`, with `Content-Type` and `Content-Length` set.
    static func json(_ json: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        Self.json(buffer: json.byteBuffer, status: status, headers: headers)
    }

    /// A response whose body is the already serialized JSON in `buffer`.
    static func json(buffer: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = Self.jsonContentType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: buffer))
    }

    /// A JSON error body `{"message": message}` plus any `extra` members.
    static func jsonMessage(
        _ message: String,
        status: HTTPResponse.Status,
        extra: [JSONValue.Member] = [],
        headers: HTTPFields = [:]
    ) -> Response {
        let members = [JSONValue.Member(key: "message", value: .string(message))] + extra
        return Self.json(.object(members), status: status, headers: headers)
    }

    /// The answer of a route whose wait was cut short by the client leaving or the server stopping.
    ///
    /// If the client left, nobody reads it; during shutdown it tells the client why.
    static var interrupted: Response {
        .jsonMessage("the server is shutting down", status: .serviceUnavailable, headers: [.connection: "close"])
    }
}
