import Foundation

/// A client's base URL as the parts an endpoint without a host takes from it: scheme, host,
/// port, and a path prefix (no trailing `/`), checked once when the client is made.
struct BaseURL: Sendable {
    let scheme: PrismNetworkScheme
    let host: String
    let port: Int?
    /// The base URL's path without its trailing `/` (`/v2` for `https://api.example.com/v2/`):
    /// an endpoint's path, which starts with `/`, is appended to it.
    let path: String

    /// The parts of `url`, or an `invalidURL` error saying what a base URL cannot be.
    static func parse(_ url: URL) -> Result<BaseURL, PrismHTTPError> {
        func invalid(_ reason: String) -> Result<BaseURL, PrismHTTPError> {
            .failure(
                PrismHTTPError(
                    code: .invalidURL,
                    message: "The client's baseURL \(RequestValidation.escaped(url.absoluteString)) \(reason).",
                    url: url))
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return invalid("is not a URL")
        }
        guard let scheme = components.scheme.flatMap({ PrismNetworkScheme(rawValue: $0.lowercased()) }) else {
            return invalid("is neither http nor https")
        }
        guard let host = components.host, !host.isEmpty else { return invalid("has no host") }
        guard components.query == nil, components.fragment == nil else {
            return invalid("has a query or a fragment; endpoints give their own query")
        }
        guard components.user == nil, components.password == nil else {
            return invalid("carries credentials; send them with an authenticator or an interceptor")
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return .success(BaseURL(scheme: scheme, host: bracketed, port: components.port, path: path))
    }

    /// The error of an endpoint without a host sent by a client without a base URL.
    static func missing(path: String) -> PrismHTTPError {
        PrismHTTPError(
            code: .invalidURL,
            message: "The endpoint for \(RequestValidation.escaped(path)) names no host: give its client a baseURL "
                + "(PrismNetworkAdapter(baseURL:)), or the endpoint a host.")
    }
}
