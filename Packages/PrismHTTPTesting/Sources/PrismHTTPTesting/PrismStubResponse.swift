import Foundation
import PrismHTTP

/// What a ``PrismStubTransport`` answers to a request: a status, headers and a body, or a
/// failure, optionally after a delay on the transport's clock.
///
/// ```swift
/// stub.on(.get, "/tasks", respond: .json([Task(id: 1, title: "Write docs")]))
/// stub.on(.post, "/tasks", respond: .status(201))
/// stub.on(.get, "/slow", respond: .json(results).delayed(by: .seconds(2)))
/// stub.on(.get, "/down", respond: .failure(.connectionFailed))
/// ```
public struct PrismStubResponse: Sendable {
    /// The status code (200 unless given).
    public var statusCode: Int
    /// The response headers.
    public var headers: PrismHTTPHeaders
    /// The response body.
    public var body: Data
    /// How long the transport waits on its clock before answering (`nil`: at once).
    public var delay: Duration?
    /// The error the transport throws instead of answering, if any.
    public var failure: PrismHTTPError?
    /// The entity tag of the body: a request whose `If-None-Match` names it gets
    /// `304 Not Modified` with no body, as a real server that supports revalidation answers.
    public var entityTag: String?
    /// The body in pieces, for a streamed request (`client.stream`, `client.events`,
    /// `client.download`): each arrives after its own wait on the transport's clock, and the
    /// stream then ends, or fails with ``streamFailure``. A request that is not streamed gets
    /// them joined. Nil: ``body`` in one piece.
    public var chunks: [PrismStubChunk]?
    /// The error a streamed body ends with after its chunks (a connection cut midway), if any.
    public var streamFailure: PrismHTTPError?

    /// A response with `statusCode`, `headers` and `body`.
    public init(statusCode: Int = 200, headers: PrismHTTPHeaders = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `value` encoded as JSON (`Content-Type: application/json`).
    ///
    /// A value that cannot be encoded makes the response a failure with the code
    /// `encodingFailed`, which the request that receives it throws.
    public static func json<Value: Encodable>(
        _ value: Value,
        statusCode: Int = 200,
        headers: PrismHTTPHeaders = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) -> PrismStubResponse {
        var headers = headers
        if !headers.contains("Content-Type") {
            headers["Content-Type"] = "application/json"
        }
        do {
            return PrismStubResponse(statusCode: statusCode, headers: headers, body: try encoder.encode(value))
        } catch {
            return .failure(
                PrismHTTPError(
                    code: .encodingFailed,
                    message: "PrismStubResponse.json could not encode \(Value.self): \(error)",
                    underlying: error
                )
            )
        }
    }

    /// A response whose body is `text` in UTF-8 (`Content-Type: text/plain; charset=utf-8`).
    public static func text(_ text: String, statusCode: Int = 200, headers: PrismHTTPHeaders = [:]) -> Self {
        var headers = headers
        if !headers.contains("Content-Type") {
            headers["Content-Type"] = "text/plain; charset=utf-8"
        }
        return PrismStubResponse(statusCode: statusCode, headers: headers, body: Data(text.utf8))
    }

    /// A response whose body arrives in `chunks`, each after its own wait on the transport's
    /// clock, then ends, or fails with `failure` (a connection cut midway):
    ///
    /// ```swift
    /// stub.on(.get, "/events", respond: .stream([
    ///     PrismStubChunk("data: one\n\n"),
    ///     PrismStubChunk("data: two\n\n", after: .seconds(1)),
    /// ], headers: ["Content-Type": "text/event-stream"]))
    /// ```
    public static func stream(
        _ chunks: [PrismStubChunk], statusCode: Int = 200, headers: PrismHTTPHeaders = [:],
        failingWith failure: PrismHTTPError? = nil
    ) -> Self {
        var response = PrismStubResponse(statusCode: statusCode, headers: headers)
        response.body = chunks.reduce(into: Data()) { $0.append($1.data) }
        response.chunks = chunks
        response.streamFailure = failure
        return response
    }

    /// A response with `statusCode`, no headers and no body.
    public static func status(_ statusCode: Int) -> Self {
        PrismStubResponse(statusCode: statusCode)
    }

    /// `304 Not Modified`: what a server answers a revalidation whose copy is still fresh.
    public static var notModified: Self { PrismStubResponse(statusCode: 304) }

    /// No response: the request throws `error` (its URL and method filled in when it has none).
    public static func failure(_ error: PrismHTTPError) -> Self {
        var response = PrismStubResponse(statusCode: 0)
        response.failure = error
        return response
    }

    /// No response: the request throws a `PrismHTTPError` with `code`, as a
    /// transport does when a connection fails (`.connectionFailed`) or a deadline passes
    /// (`.timedOut`).
    public static func failure(_ code: PrismHTTPError.Code, message: String? = nil) -> Self {
        .failure(PrismHTTPError(code: code, message: message ?? "PrismStubTransport: a stubbed \(code) failure"))
    }

    /// This response, answered after `delay` on the transport's clock (a test clock in tests:
    /// advance it to let the response through).
    public func delayed(by delay: Duration) -> Self {
        var response = self
        response.delay = delay
        return response
    }

    /// This response with an `ETag` header: a later request that sends `If-None-Match: tag`
    /// is answered `304 Not Modified`.
    public func entityTag(_ tag: String) -> Self {
        var response = self
        let quoted = tag.hasPrefix("\"") || tag.hasPrefix("W/") ? tag : "\"\(tag)\""
        response.entityTag = quoted
        response.headers["ETag"] = quoted
        return response
    }
}

/// A piece of a streamed stub body (``PrismStubResponse/stream(_:statusCode:headers:failingWith:)``).
public struct PrismStubChunk: Sendable, Hashable {
    /// The bytes.
    public var data: Data
    /// The wait before the piece, on the transport's clock (none: at once).
    public var delay: Duration?

    /// `data`, after `delay`.
    public init(data: Data, after delay: Duration? = nil) {
        self.data = data
        self.delay = delay
    }

    /// `text` in UTF-8, after `delay`.
    public init(_ text: String, after delay: Duration? = nil) {
        self.init(data: Data(text.utf8), after: delay)
    }
}
