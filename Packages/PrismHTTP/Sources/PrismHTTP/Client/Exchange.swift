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
}
