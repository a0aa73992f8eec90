/// The scheme of an endpoint's URL.
public enum PrismNetworkScheme: String, Sendable, Hashable, Codable {
    /// `http`, for local servers and tests.
    case http
    /// `https`, the default.
    case https
}
