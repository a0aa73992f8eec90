// The OpenAPI trait turns this on (Package.swift): without it the module is empty, and nothing of
// swift-openapi-runtime is fetched or linked.
#if OpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import PrismHTTP

/// A `ClientTransport` for the clients swift-openapi-generator makes, that sends every operation
/// through a Prism client: its interceptors, authenticator, retry policy, response cache, logging
/// and transport settings (timeouts, size limit, redirects, TLS) apply, and in tests a client over
/// PrismHTTPTesting's stub transport answers without a server.
///
/// ```swift
/// let client = Client(
///     serverURL: try Servers.Server1.url(),
///     transport: PrismOpenAPITransport(client: PrismNetworkAdapter(authenticator: tokens))
/// )
/// let user = try await client.getUser(path: .init(login: "octocat")).ok.body.json
/// ```
///
/// Each operation is one `PrismHTTPRequest`: the server URL and the operation's path and query,
/// its header fields, and its body read whole (at most ``maximumRequestBodyBytes``). The response
/// comes back whatever its status (a `404` the document declares is the generated client's to
/// decode) with its whole body, from the network or from the cache. A failure is the
/// `PrismHTTPError` the client threw, which the generated client wraps in its `ClientError`
/// (`underlyingError`). Bodies are whole: for server-sent events or large downloads, use
/// PrismHTTP's streams and downloads.
public struct PrismOpenAPITransport: ClientTransport {
    /// The client every operation is sent through.
    public let client: any PrismNetworkClient
    /// The options each operation is sent with (cache policy, timeout, extra headers, retry
    /// policy).
    public var options: PrismRequestOptions
    /// The largest request body read and sent, in bytes; a larger one fails with
    /// `encodingFailed` before anything is sent.
    public var maximumRequestBodyBytes: Int

    /// A transport that sends through `client` with `options`.
    public init(
        client: any PrismNetworkClient = PrismNetworkAdapter(),
        options: PrismRequestOptions = PrismRequestOptions(),
        maximumRequestBodyBytes: Int = 64 * 1_024 * 1_024
    ) {
        self.client = client
        self.options = options
        self.maximumRequestBodyBytes = maximumRequestBodyBytes
    }

    /// Sends the operation `operationID` through ``client``.
    ///
    /// - Throws: `PrismHTTPError`: `invalidURL` for a path the server URL cannot take,
    ///   `encodingFailed` for a body past ``maximumRequestBodyBytes``, and whatever the client
    ///   throws (`timedOut`, `connectionFailed`, `responseTooLarge`, ...).
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let sent = try await prismRequest(request, body: body, baseURL: baseURL, operationID: operationID)
        let response = try await client.send(sent, options: options)
        return (Self.httpResponse(response), response.body.isEmpty ? nil : HTTPBody(response.body))
    }

    /// `request` as Prism sends it: `baseURL` joined with its path and query, its fields, its
    /// body read whole.
    func prismRequest(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> PrismHTTPRequest {
        let url = try Self.url(of: request, baseURL: baseURL, operationID: operationID)
        guard let method = PrismNetworkMethod(rawValue: request.method.rawValue) else {
            throw PrismHTTPError(
                code: .invalidURL,
                message: "\(operationID): the method \(request.method.rawValue) is not one Prism sends.",
                url: url)
        }
        var headers = PrismHTTPHeaders()
        for field in request.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        var data: Data?
        if let body {
            do {
                data = try await Data(collecting: body, upTo: maximumRequestBodyBytes)
            } catch let error as CancellationError {
                throw error
            } catch {
                throw PrismHTTPError(
                    code: .encodingFailed,
                    message: "\(operationID): the request body is larger than maximumRequestBodyBytes "
                        + "(\(maximumRequestBodyBytes) bytes), or could not be read. Nothing was sent.",
                    url: url, underlying: error)
            }
        }
        return PrismHTTPRequest(url: url, method: method, headers: headers, body: data)
    }

    /// `baseURL` with the request's path appended to its own, and the request's query.
    static func url(of request: HTTPRequest, baseURL: URL, operationID: String) throws(PrismHTTPError) -> URL {
        let target = request.path ?? "/"
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let operation = URLComponents(string: target)
        else {
            throw PrismHTTPError(
                code: .invalidURL, message: "\(operationID): the path \(target) does not join the server URL.")
        }
        let basePath =
            components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = basePath + operation.percentEncodedPath
        components.percentEncodedQuery = operation.percentEncodedQuery
        guard let url = components.url else {
            throw PrismHTTPError(
                code: .invalidURL, message: "\(operationID): the path \(target) does not join the server URL.")
        }
        return url
    }

    /// `response` as swift-http-types has it: its status and every field whose name is valid.
    static func httpResponse(_ response: PrismHTTPResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for field in response.headers {
            guard let name = HTTPField.Name(field.name) else { continue }
            fields.append(HTTPField(name: name, value: field.value))
        }
        return HTTPResponse(status: .init(code: response.statusCode), headerFields: fields)
    }
}
#endif
