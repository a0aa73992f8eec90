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
        do {
            return PrismStubResponse(
                statusCode: statusCode, headers: withJSONContentType(headers), body: try encoder.encode(value))
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

    /// A response whose body is JSON written as a literal whose values are of different
    /// kinds, as a test writes a server's answer (`Content-Type: application/json`):
    ///
    /// ```swift
    /// stub.on(.get, "/me", respond: .json([
    ///     "id": 7, "name": "Ada", "admin": true, "nickname": nil,
    ///     "address": ["city": "London", "zip": 1815],
    /// ]))
    /// ```
    ///
    /// (A literal whose values all have one type, and any `Encodable` value, go through
    /// ``json(_:statusCode:headers:encoder:)``, which encodes them with a `JSONEncoder`.)
    /// A number JSON has no form for (infinity, NaN) makes the response a failure with the code
    /// `encodingFailed` that says where it is, which the request that receives it throws.
    public static func json(_ value: PrismStubJSON, statusCode: Int = 200, headers: PrismHTTPHeaders = [:]) -> Self {
        if let problem = value.problem(at: "") {
            return .failure(PrismHTTPError(code: .encodingFailed, message: "PrismStubResponse.json: \(problem)"))
        }
        return PrismStubResponse(statusCode: statusCode, headers: withJSONContentType(headers), body: value.data)
    }

    /// A response whose body is `text`, JSON written out, as it is (`Content-Type:
    /// application/json`): a fixture copied from a real server's answer.
    ///
    /// ```swift
    /// stub.on(.get, "/me", respond: .json(text: #"{"id": 7, "name": "Ada"}"#))
    /// ```
    ///
    /// Text that is not JSON makes the response a failure with the code `encodingFailed` that
    /// says where the text goes wrong: a fixture with a typo fails where it is used, not in the
    /// decoder of the code under test. (To send text that is deliberately not JSON, use
    /// ``text(_:statusCode:headers:)`` with your own `Content-Type`.)
    public static func json(text: String, statusCode: Int = 200, headers: PrismHTTPHeaders = [:]) -> Self {
        let body = Data(text.utf8)
        do {
            _ = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        } catch {
            return .failure(
                PrismHTTPError(
                    code: .encodingFailed,
                    message: "PrismStubResponse.json(text:) was given text that is not JSON: \(error)",
                    underlying: error
                )
            )
        }
        return PrismStubResponse(statusCode: statusCode, headers: withJSONContentType(headers), body: body)
    }

    private static func withJSONContentType(_ headers: PrismHTTPHeaders) -> PrismHTTPHeaders {
        var headers = headers
        if !headers.contains("Content-Type") {
            headers["Content-Type"] = "application/json"
        }
        return headers
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

/// A JSON value written as a literal, for ``PrismStubResponse/json(_:statusCode:headers:)``:
/// strings, numbers, `true` and `false`, `nil` for null, and arrays and dictionaries of them,
/// nested as deep as the answer is.
///
/// ```swift
/// let user: PrismStubJSON = ["id": 7, "tags": ["a", "b"], "manager": nil]
/// ```
public enum PrismStubJSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction.
    case int(Int)
    /// A number with a fraction.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([PrismStubJSON])
    /// An object; written with its keys sorted.
    case object([String: PrismStubJSON])

    /// The JSON text of this value, keys sorted.
    public var data: Data {
        var text = ""
        write(to: &text)
        return Data(text.utf8)
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .int(let value): text += String(value)
        case .double(let value): text += value.isFinite ? "\(value)" : "null"
        case .string(let value): Self.write(string: value, to: &text)
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                Self.write(string: key, to: &text)
                text += ":"
                members[key]!.write(to: &text)
            }
            text += "}"
        }
    }

    private static func write(string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// Why this value (at `path`, "" for the top) cannot be written as JSON, or nil if it can.
    func problem(at path: String) -> String? {
        switch self {
        case .double(let value) where !value.isFinite:
            return "\(path.isEmpty ? "the value" : "'\(path)'") is \(value), which JSON has no number for"
        case .array(let values):
            for (index, value) in values.enumerated() {
                if let problem = value.problem(at: "\(path)[\(index)]") { return problem }
            }
            return nil
        case .object(let members):
            for key in members.keys.sorted() {
                if let problem = members[key]!.problem(at: path.isEmpty ? key : "\(path).\(key)") { return problem }
            }
            return nil
        default:
            return nil
        }
    }
}

extension PrismStubJSON: ExpressibleByNilLiteral {
    /// `null`, written `nil`.
    public init(nilLiteral: ()) { self = .null }
}

extension PrismStubJSON: ExpressibleByBooleanLiteral {
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PrismStubJSON: ExpressibleByIntegerLiteral {
    /// A number without a fraction.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension PrismStubJSON: ExpressibleByFloatLiteral {
    /// A number with a fraction.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension PrismStubJSON: ExpressibleByStringLiteral {
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PrismStubJSON: ExpressibleByArrayLiteral {
    /// An array of the elements.
    public init(arrayLiteral elements: PrismStubJSON...) { self = .array(elements) }
}

extension PrismStubJSON: ExpressibleByDictionaryLiteral {
    /// The last value wins where a key is written twice.
    public init(dictionaryLiteral elements: (String, PrismStubJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
