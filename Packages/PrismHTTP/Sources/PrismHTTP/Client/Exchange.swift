import Foundation

/// What went over the network: the response, and the request as it was finally sent (with the
/// credentials it carried, refreshed or not).
struct Exchange: Sendable {
    var response: PrismHTTPResponse
    var sent: PrismHTTPRequest
    /// When the request was sent and the response received, in seconds since 1970: the age of
    /// the response on arrival depends on both (RFC 9111 §4.2.3).
    var requestTime: Double
    var responseTime: Double

    init(
        response: PrismHTTPResponse, sent: PrismHTTPRequest, requestTime: Double, responseTime: Double = Exchange.now()
    ) {
        self.response = response
        self.sent = sent
        self.requestTime = requestTime
        self.responseTime = responseTime
    }

    /// The wall clock, in seconds since 1970.
    static func now() -> Double { Date().timeIntervalSince1970 }

    /// Whether this exchange invalidates stored responses: a method that is not safe (or not known
    /// to be) answered with a non-error status (RFC 9111 §4.4).
    var invalidates: Bool {
        !sent.method.isSafe && (200..<400).contains(response.statusCode)
    }

    /// The URLs such an answer invalidates: its target, and its `Location` and
    /// `Content-Location` when they are on the same origin (§4.4: another origin's entries are
    /// not its to drop).
    var invalidatedURLs: [URL] {
        let target = sent.url
        var urls = [target]
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name],
                let url = URL(string: value, relativeTo: response.url)?.absoluteURL,
                url.scheme?.lowercased() == target.scheme?.lowercased(),
                url.host?.lowercased() == target.host?.lowercased(), url.port == target.port
            else { continue }
            urls.append(url)
        }
        return urls
    }
}
