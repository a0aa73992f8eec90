import Foundation

/// A typed request: an endpoint and the type its response decodes to.
///
/// ```swift
/// struct GetUserRequest: PrismNetworkRequest {
///     typealias Endpoint = GitHubEndpoint
///     typealias Response = GitHubUser
///
///     let endpoint: GitHubEndpoint
///
///     init(login: String) {
///         self.endpoint = .user(login: login)
///     }
/// }
///
/// let user = try await client.request(on: GetUserRequest(login: "octocat"))
/// ```
///
/// Implement ``decode(data:with:)`` to decode the body yourself, or rely on the default when
/// `Response` is a ``PrismEntity``.
public protocol PrismNetworkRequest: Sendable {
    /// The endpoint the request goes to.
    associatedtype Endpoint: PrismNetworkEndpoint
    /// What the response body decodes to.
    associatedtype Response: Sendable

    /// The endpoint the request goes to.
    var endpoint: Endpoint { get }

    /// Decodes the response body with `decoder`.
    func decode(data: Data, with decoder: JSONDecoder) throws -> Response

    /// Whether a response with `statusCode` is a success; by default, 2xx.
    func accepts(statusCode: Int) -> Bool

    /// Whether a cache hit may return the value decoded by an earlier request of this type for
    /// the same cached body, without decoding again; by default ``PrismDecodedResponseReuse/automatic``:
    /// only when the default ``PrismEntity`` decode produced it.
    static var decodedResponseReuse: PrismDecodedResponseReuse { get }
}

extension PrismNetworkRequest {
    /// 200 to 299.
    public func accepts(statusCode: Int) -> Bool {
        (200..<300).contains(statusCode)
    }

    /// ``PrismDecodedResponseReuse/automatic``: a decoded value is reused when the default
    /// ``PrismEntity`` decode produced it.
    public static var decodedResponseReuse: PrismDecodedResponseReuse { .automatic }
}

extension PrismNetworkRequest where Response: PrismEntity {
    /// Decodes `Response` with `decoder` (by default `Response.decoder`: snake_case keys, Swift
    /// acronyms, ISO 8601 dates).
    public func decode(data: Data, with decoder: JSONDecoder) throws -> Response {
        DefaultDecodeProbe.ran(for: Self.self)
        return try PrismJSON.decode(Response.self, from: data, with: decoder)
    }
}

extension PrismNetworkRequest where Response == Data {
    /// The body as is.
    public func decode(data: Data, with decoder: JSONDecoder) throws -> Data { data }
}

/// A request built from any endpoint, decoding the body as `Response`.
///
/// ```swift
/// let user = try await client.request(on: PrismEndpointRequest<GitHubEndpoint, GitHubUser>(.user(login: "octocat")))
/// ```
public struct PrismEndpointRequest<Endpoint: PrismNetworkEndpoint, Response: PrismEntity>: PrismNetworkRequest {
    /// The endpoint the request goes to.
    public let endpoint: Endpoint

    /// Creates a request to `endpoint`.
    public init(_ endpoint: Endpoint) {
        self.endpoint = endpoint
    }

    /// Decodes `Response` with `decoder`, as every ``PrismEntity`` response is.
    ///
    /// Spelled out so that `Response` is the generic parameter, not `Data` from the
    /// raw-body default.
    public func decode(data: Data, with decoder: JSONDecoder) throws -> Response {
        DefaultDecodeProbe.ran(for: Self.self)
        return try PrismJSON.decode(Response.self, from: data, with: decoder)
    }
}
