import Prism

/// A `PrismHTTPTransport` that wraps another and reports every exchange that really goes over
/// the network, so that the sample can show what retries and caching did.
///
/// The client consults its cache before the transport: a response served fresh from the cache
/// never reaches this transport, and a revalidation shows up as a request with
/// `If-None-Match` answered `304`.
struct LoggingTransport: PrismHTTPTransport {
    /// The transport that sends the requests.
    let base: any PrismHTTPTransport
    /// Where the lines go.
    let write: @Sendable (String) -> Void

    func send(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        var target = request.url.path
        if let query = request.url.query { target += "?" + query }
        var line = "  -> \(request.method.rawValue) \(target)"
        if let etag = request.headers["If-None-Match"] { line += " (If-None-Match: \(etag))" }
        do {
            let response = try await base.send(request)
            write("\(line): \(response.statusCode) \(Self.reason(response.statusCode))")
            return response
        } catch let error as PrismHTTPError {
            write("\(line): \(error.code) (\(error.message))")
            throw error
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 304: return "Not Modified"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return ""
        }
    }
}
