import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PrismTestServer

/// A response read whole, for assertions.
struct Reply: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: ByteBuffer

    /// The body's bytes.
    var bytes: [UInt8] { Array(self.body.readableBytesView) }

    /// The body as UTF-8 text.
    var text: String { String(decoding: self.body.readableBytesView, as: UTF8.self) }

    /// The first value of header `name`.
    func header(_ name: String) -> String? { self.headers.first(name: name) }

    /// The body parsed as a JSON object.
    func object() throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(self.bytes), options: [.fragmentsAllowed])
        guard let object = value as? [String: Any] else { throw TestFailure("not a JSON object: \(self.text)") }
        return object
    }

    /// The body parsed as a JSON array of objects.
    func array() throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(self.bytes))
        guard let array = value as? [[String: Any]] else { throw TestFailure("not a JSON array: \(self.text)") }
        return array
    }
}

/// An error thrown by the tests' helpers.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Sends requests with AsyncHTTPClient (the transport PrismHTTP uses on Linux).
enum TestClient {
    /// A client of its own: the process-wide shared one keeps connections alive between tests,
    /// which would hide connection-level behaviour.
    static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.connectionPool = .init(idleTimeout: .seconds(5))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Sends a request and reads the whole response.
    static func send(
        _ method: HTTPMethod = .GET,
        _ url: URL,
        headers: [(String, String)] = [],
        body: HTTPClientRequest.Body? = nil,
        timeout: TimeAmount = .seconds(60),
        maximumBody: Int = 128 << 20
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        for (name, value) in headers {
            request.headers.add(name: name, value: value)
        }
        request.body = body
        let response = try await http.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: maximumBody)
        return Reply(status: Int(response.status.code), headers: response.headers, body: bytes)
    }

    /// Sends a request with `text` (UTF-8) as its body.
    static func send(
        _ method: HTTPMethod,
        _ url: URL,
        headers: [(String, String)] = [],
        text: String
    ) async throws -> Reply {
        try await send(method, url, headers: headers, body: .bytes(ByteBuffer(string: text)))
    }
}

/// Runs `body` with a fresh server and always shuts it down afterwards.
func withServer(_ body: (PrismTestServer) async throws -> Void) async throws {
    try await PrismTestServer.withRunning(body)
}
