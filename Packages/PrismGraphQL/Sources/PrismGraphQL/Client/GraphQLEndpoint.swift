import Foundation
import PrismHTTP

/// The GraphQL endpoint as PrismHTTP sees it: a POST of a JSON body to the endpoint's URL.
struct GraphQLEndpoint: PrismNetworkEndpoint {
    /// The parts of the endpoint's URL, split once when the client is made.
    struct Template: Sendable {
        let scheme: PrismNetworkScheme
        let host: String
        let port: Int?
        let path: String
        let queryItems: [URLQueryItem]?
        let headers: [String: String]
        /// The POST every operation sends, its body left out: built (and its URL and headers
        /// checked) once, when the client is made. Nil when it cannot be built: each operation
        /// then builds its own and fails with the reason.
        private(set) var post: PrismHTTPRequest?

        /// The parts of `url`, sent with `additionalHeaders` and the GraphQL-over-HTTP headers,
        /// or nil when `url` is not an absolute `http` or `https` URL with a host.
        init?(url: URL, additionalHeaders: [String: String]) {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
                let scheme = components.scheme.flatMap({ PrismNetworkScheme(rawValue: $0.lowercased()) }),
                let host = components.host, !host.isEmpty
            else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = components.port
            self.path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            self.queryItems = components.queryItems
            // GraphQL over HTTP: the newer media type first, the older one for older servers.
            var headers = ["Accept": "application/graphql-response+json, application/json;q=0.9"]
            for (name, value) in additionalHeaders {
                if let existing = headers.keys.first(where: { $0.lowercased() == name.lowercased() }) {
                    headers[existing] = nil
                }
                headers[name] = value
            }
            // Always JSON, whatever the additional headers say: GraphQL over HTTP.
            headers = headers.filter { $0.key.lowercased() != "content-type" }
            headers["Content-Type"] = "application/json"
            self.headers = headers
            post = try? GraphQLEndpoint(template: self, payload: Data()).makeHTTPRequest()
        }
    }

    let template: Template
    /// The JSON body of a POST; nil for a GET.
    let payload: Data?
    /// The operation's members in the URL, for a GET.
    let operationItems: [URLQueryItem]

    /// A POST of `payload`.
    init(template: Template, payload: Data) {
        self.template = template
        self.payload = payload
        self.operationItems = []
    }

    /// A GET with `operationItems` after the endpoint's own query items.
    init(template: Template, operationItems: [URLQueryItem]) {
        self.template = template
        self.payload = nil
        self.operationItems = operationItems
    }

    var scheme: PrismNetworkScheme { template.scheme }
    var host: String { template.host }
    var port: Int? { template.port }
    var path: String { template.path }
    var queryItems: [URLQueryItem]? {
        payload == nil ? (template.queryItems ?? []) + operationItems : template.queryItems
    }
    var headers: [String: String] {
        payload == nil ? template.headers.filter { $0.key != "Content-Type" } : template.headers
    }
    var method: PrismNetworkMethod { payload == nil ? .get : .post }
    var body: (any Encodable)? { payload }
}
