/// What went over the network: the response, and the request as it was finally sent (with the
/// credentials it carried, refreshed or not).
struct Exchange: Sendable {
    var response: PrismHTTPResponse
    var sent: PrismHTTPRequest
}
