// A client that swift-openapi-generator made, sent through Prism's client. It compiles with the
// package; it needs a server, and the client the generator makes from the app's openapi.yaml, to
// run (PrismOpenAPI's tests run one against the test server).
// snippet.hide
// With the OpenAPI trait only (Prism's own builds turn it on), as an app that uses PrismOpenAPI.
#if OpenAPI
import Foundation
import OpenAPIRuntime
import PrismHTTP
import PrismOpenAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// snippet.show
// snippet.transport
/// The transport to give the generated client: `Client(serverURL: url, transport: transport)`.
func openAPITransport(tokens: PrismBearerTokenAuthenticator) -> PrismOpenAPITransport {
    // Every operation goes through this client: its interceptors, the authenticator (a 401
    // refreshes the token once), the retry policy, the response cache and the transport's
    // timeouts, size limit and TLS settings.
    let client = PrismNetworkAdapter(
        authenticator: tokens,
        retryPolicy: PrismExponentialBackoff()
    )
    return PrismOpenAPITransport(client: client)
}
// snippet.end

// snippet.failure
/// What a failed operation tells: the generated client wraps the client's error.
func describe(_ error: any Error) -> String {
    guard let failure = error as? ClientError, let http = failure.underlyingError as? PrismHTTPError else {
        return "\(error)"
    }
    return "\(failure.operationID) failed: \(http.code) (\(http.message))"
}
// snippet.end

// snippet.hide
#endif
