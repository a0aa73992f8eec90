/// PrismHTTP's two transports, by name: what Prism's own tests (PrismHTTP's and PrismGraphQL's)
/// run every behaviour on. Where AsyncHTTPClient is not built (Apple platforms),
/// ``asyncHTTPClient`` makes a URLSession transport too.
///
/// Internal: the tests import PrismHTTP `@testable`.
enum PrismTransportKind: String, CaseIterable, Sendable {
    case asyncHTTPClient
    case urlSession

    /// A new transport of this kind with `configuration`.
    func make(_ configuration: PrismTransportConfiguration = .default) -> any PrismHTTPTransport {
        switch self {
        case .asyncHTTPClient:
            #if AsyncHTTPClient && os(Linux)
            return PrismAsyncHTTPClientTransport(configuration: configuration)
            #else
            return PrismURLSessionTransport(configuration: configuration)
            #endif
        case .urlSession:
            return PrismURLSessionTransport(configuration: configuration)
        }
    }
}
