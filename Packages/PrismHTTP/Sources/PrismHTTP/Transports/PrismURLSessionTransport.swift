import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests with Foundation's `URLSession`: the default transport on Apple platforms,
/// available on Linux too.
///
/// The session it creates has Foundation's own cache turned off (Prism caches responses with
/// `PrismResponseCache`, on every platform) and hands every response back as it arrived,
/// `304 Not Modified` included.
public final class PrismURLSessionTransport: PrismHTTPTransport {
    /// The session requests go through.
    public let session: URLSession
    /// The settings the transport was created with.
    public let configuration: PrismTransportConfiguration

    /// Creates a transport with a session of its own, configured with `configuration`.
    public init(configuration: PrismTransportConfiguration = .default) {
        let settings = URLSessionConfiguration.ephemeral
        settings.urlCache = nil
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.timeoutIntervalForRequest = configuration.requestTimeout.seconds
        settings.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
        self.session = URLSession(configuration: settings)
        self.configuration = configuration
    }

    /// Creates a transport that sends through `session`.
    public init(session: URLSession, configuration: PrismTransportConfiguration = .default) {
        self.session = session
        self.configuration = configuration
    }

    /// Sends `request` and returns the response, whatever its status.
    public func send(_ request: PrismHTTPRequest) async throws -> PrismHTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        let timeout = request.timeout ?? configuration.requestTimeout
        urlRequest.timeoutInterval = timeout.seconds
        let data: Data
        let response: URLResponse
        do {
            try Task.checkCancellation()
            #if canImport(FoundationNetworking)
            (data, response) = try await Self.data(for: urlRequest, in: session, timeout: timeout)
            #else
            (data, response) = try await session.data(for: urlRequest)
            #endif
        } catch {
            throw Self.translate(error, url: request.url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw PrismHTTPError(
                code: .transportFailed, message: "The response is not an HTTP response.", url: request.url)
        }
        guard data.count <= configuration.maximumResponseBytes else {
            throw PrismHTTPError(
                code: .responseTooLarge,
                message: "The response body (\(data.count) bytes) is larger than the transport accepts "
                    + "(\(configuration.maximumResponseBytes)).",
                url: request.url,
                statusCode: http.statusCode
            )
        }
        var headers = PrismHTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(name: "\(name)", value: "\(value)")
        }
        return PrismHTTPResponse(
            statusCode: http.statusCode, headers: headers, body: data, url: http.url ?? request.url)
    }

    #if canImport(FoundationNetworking)
    /// Sends `request` with a deadline of Prism's own.
    ///
    /// swift-corelibs-foundation lets a timed-out task poison the session's timer: every later
    /// request on the session then fails at once with `URLError.timedOut`, although the server
    /// answers. Prism therefore gives libcurl more time than the caller asked for, and ends the
    /// request itself, by cancelling it, when the caller's timeout passes.
    private static func data(
        for request: URLRequest, in session: URLSession, timeout: Duration
    ) async throws -> (Data, URLResponse) {
        var lenient = request
        lenient.timeoutInterval = timeout.seconds * 2 + 1
        let request = lenient
        return try await withThrowingTaskGroup(of: (Data, URLResponse)?.self) { group in
            group.addTask { try await session.data(for: request) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw URLError(.timedOut)
            }
            return result
        }
    }
    #endif

    static func translate(_ error: any Error, url: URL) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        guard let error = error as? URLError else {
            return PrismHTTPError(
                code: .transportFailed, message: "The request failed: \(error)", url: url, underlying: error)
        }
        switch error.code {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return PrismHTTPError(code: .timedOut, message: "No response arrived in time.", url: url, underlying: error)
        case .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet,
            .badServerResponse, .dnsLookupFailed, .secureConnectionFailed, .zeroByteResource:
            return PrismHTTPError(
                code: .connectionFailed,
                message: "The connection failed or closed before a complete response arrived (\(error.code.rawValue)).",
                url: url,
                underlying: error
            )
        default:
            return PrismHTTPError(
                code: .transportFailed, message: "The request failed: \(error)", url: url, underlying: error)
        }
    }
}
