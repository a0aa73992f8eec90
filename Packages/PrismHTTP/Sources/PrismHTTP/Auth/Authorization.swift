/// A request with credentials, and what identifies them for a refresh.
struct Authorization: Sendable {
    var request: PrismHTTPRequest
    var credential: String?
}
