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
        try await logged(request) { try await base.send($0) }
    }

    /// Streams through the base transport (a wrapper must forward this, or streams would be
    /// collected whole by the protocol's default): the head is logged as it arrives.
    func stream(_ request: PrismHTTPRequest, idleTimeout: Duration) async throws -> PrismHTTPStreamedResponse {
        try await logged(request) { try await base.stream($0, idleTimeout: idleTimeout) }
    }

    private func logged<Answer>(
        _ request: PrismHTTPRequest, _ exchange: (PrismHTTPRequest) async throws -> Answer
    ) async throws -> Answer where Answer: Sendable {
        var target = request.url.path
        if let query = request.url.query { target += "?" + query }
        var line = "  -> \(request.method.rawValue) \(target)"
        if let etag = request.headers["If-None-Match"] { line += " (If-None-Match: \(etag))" }
        if let range = request.headers["Range"] { line += " (Range: \(range))" }
        do {
            let answer = try await exchange(request)
            let status =
                (answer as? PrismHTTPResponse)?.statusCode ?? (answer as? PrismHTTPStreamedResponse)?.statusCode ?? 0
            write("\(line): \(status) \(Self.reason(status))")
            return answer
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
        case 206: return "Partial Content"
        case 304: return "Not Modified"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return ""
        }
    }
}
