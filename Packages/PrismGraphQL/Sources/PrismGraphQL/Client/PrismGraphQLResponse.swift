/// A GraphQL response: the data (typed), the errors, or both.
///
/// ```swift
/// let response: PrismGraphQLResponse<UserData> = try await graphql.execute(query)
/// if let errors = response.errors {
///     print("GraphQL errors: \(errors.map(\.message))")
/// } else if let user = response.data?.user {
///     print("Repos: \(user.publicRepos)")
/// }
/// ```
///
/// A field that fails leaves a partial result: `data` with `null` in that field (or up to the
/// nearest nullable parent) and an error whose ``PrismGraphQLResponseError/path`` names it. When
/// the failure reaches the root, or the request failed before it ran (a syntax or validation
/// error), ``data`` is nil and ``errors`` says why: none of these is thrown.
public struct PrismGraphQLResponse<T: Sendable>: Sendable {
    /// The decoded `data`; nil when the response had none or `"data": null`.
    public var data: T?
    /// The `errors`; nil when the response had none.
    public var errors: [PrismGraphQLResponseError]?
    /// The response's `extensions` (tracing, cost...), if any.
    public var extensions: [String: PrismGraphQLValue]?
    /// The HTTP status the response arrived with, when it came from a server (nil for one made
    /// in code). A GraphQL response is returned whatever its status: a server that speaks
    /// `application/graphql-response+json` answers a request error (no `data`) with a 4xx, and
    /// some answer `"data": null` with one too. Not part of equality, hashing or coding.
    public var statusCode: Int?

    /// Creates a response.
    public init(data: T?, errors: [PrismGraphQLResponseError]? = nil, extensions: [String: PrismGraphQLValue]? = nil) {
        self.data = data
        self.errors = errors
        self.extensions = extensions
    }

    /// Whether the response carries at least one error.
    public var hasErrors: Bool {
        !(errors ?? []).isEmpty
    }

    /// The data when the response has no errors.
    ///
    /// ```swift
    /// let user = try await graphql.execute(query, as: UserData.self).requireData().user
    /// ```
    ///
    /// - Throws: ``PrismGraphQLError`` with code `graphQLErrors` (the errors in
    ///   ``PrismGraphQLError/errors``) when there are errors, even alongside partial data, or
    ///   when there is no data.
    public func requireData() throws(PrismGraphQLError) -> T {
        if let errors, !errors.isEmpty {
            let messages = errors.map(\.description).joined(separator: "; ")
            throw PrismGraphQLError(
                code: .graphQLErrors, message: "The server reported errors: \(messages)", errors: errors)
        }
        guard let data else {
            throw PrismGraphQLError(code: .graphQLErrors, message: "The response has no data and no errors.")
        }
        return data
    }
}

extension PrismGraphQLResponse {
    private enum CodingKeys: String, CodingKey {
        case data
        case errors
        case extensions
    }
}

extension PrismGraphQLResponse: Decodable where T: Decodable {
    /// Decodes a GraphQL response; `data` absent or null decodes as nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.data = try container.decodeIfPresent(T.self, forKey: .data)
        self.errors = try container.decodeIfPresent([PrismGraphQLResponseError].self, forKey: .errors)
        self.extensions = try container.decodeIfPresent([String: PrismGraphQLValue].self, forKey: .extensions)
    }
}

extension PrismGraphQLResponse: Encodable where T: Encodable {
    /// Encodes the response as a server would send it (absent members omitted).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(data, forKey: .data)
        try container.encodeIfPresent(errors, forKey: .errors)
        try container.encodeIfPresent(extensions, forKey: .extensions)
    }
}

extension PrismGraphQLResponse: Equatable where T: Equatable {
    /// Whether the two have the same data, errors and extensions (the status is not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.data == rhs.data && lhs.errors == rhs.errors && lhs.extensions == rhs.extensions
    }
}

extension PrismGraphQLResponse: Hashable where T: Hashable {
    /// Hashes the data, errors and extensions.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(data)
        hasher.combine(errors)
        hasher.combine(extensions)
    }
}
