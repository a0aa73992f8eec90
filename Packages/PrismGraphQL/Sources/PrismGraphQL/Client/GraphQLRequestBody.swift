import Foundation
import PrismHTTP

/// The JSON body of a GraphQL-over-HTTP POST: `{"query", "operationName", "variables",
/// "extensions": {"persistedQuery": {"version": 1, "sha256Hash"}}}`, keys sorted so that the
/// same operation always makes the same bytes (the cache key depends on it).
struct GraphQLRequestBody: Encodable {
    /// The document; nil for a persisted query sent by its hash alone.
    var query: String?
    var operationName: String?
    var variables: PrismGraphQLQuery.Variables
    /// The SHA-256 of the document, sent as `extensions.persistedQuery`.
    var persistedQueryHash: String?

    private enum CodingKeys: String, CodingKey {
        case query
        case operationName
        case variables
        case extensions
    }

    private struct Extensions: Encodable {
        struct PersistedQuery: Encodable {
            var version: Int
            var sha256Hash: String
        }

        var persistedQuery: PersistedQuery
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(query, forKey: .query)
        try container.encodeIfPresent(operationName, forKey: .operationName)
        switch variables {
        case .members(let members):
            if !members.isEmpty { try container.encode(EncodableMembers(members), forKey: .variables) }
        case .value(let value):
            try container.encode(AnyEncodable(value), forKey: .variables)
        }
        if let persistedQueryHash {
            let extensions = Extensions(persistedQuery: .init(version: 1, sha256Hash: persistedQueryHash))
            try container.encode(extensions, forKey: .extensions)
        }
    }

    /// The body as JSON.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `encodingFailed` when a variable does not encode.
    ///
    /// The bytes are those `encode(to:)` gives with the sorted-keys encoder, assembled from parts
    /// in one buffer: the document and the operation name as JSON strings come from
    /// ``DocumentMemo`` (escaping a long document was most of the cost of a body), the variables
    /// are written into the buffer each time (``FastJSON``), or encoded when they need the encoder.
    func encoded(url: URL) throws(PrismGraphQLError) -> Data {
        // Bytes first, one Data at the end: appending to a Data piece by piece costs more.
        var body: [UInt8] = []
        body.reserveCapacity((query?.utf8.count ?? 0) + 128)
        var first = true
        func name(_ key: StaticString) {
            body.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            body.append(UInt8(ascii: "\""))
            key.withUTF8Buffer { body.append(contentsOf: $0) }
            body.append(UInt8(ascii: "\""))
            body.append(UInt8(ascii: ":"))
        }
        func member(_ key: StaticString, _ value: Data) {
            name(key)
            // Through its bytes: appending a Data itself goes element by element.
            value.withUnsafeBytes { body.append(contentsOf: $0) }
        }
        // Sorted keys: extensions, operationName, query, variables.
        if let persistedQueryHash {
            let extensions = Extensions(persistedQuery: .init(version: 1, sha256Hash: persistedQueryHash))
            member("extensions", try json(of: extensions, url: url))
        }
        if let operationName { member("operationName", try memoized(operationName, url: url)) }
        if let query { member("query", try memoized(query, url: url)) }
        // The variables come last: written in place after their name, or, when they need the
        // encoder, the name taken back and the encoder's bytes appended instead.
        let beforeVariables = (count: body.count, first: first)
        name("variables")
        let written: Bool
        switch variables {
        case .members(let members): written = FastJSON.append(members, to: &body)
        case .value(let value): written = FastJSON.append(objectOf: value, to: &body)
        }
        if !written {
            body.removeSubrange(beforeVariables.count...)
            first = beforeVariables.first
            switch variables {
            case .members(let members):
                if !members.isEmpty { member("variables", try json(of: EncodableMembers(members), url: url)) }
            case .value(let value):
                member("variables", try json(of: AnyEncodable(value), url: url))
            }
        }
        if first { body.append(UInt8(ascii: "{")) }
        body.append(UInt8(ascii: "}"))
        return Data(body)
    }

    /// `text` as a JSON string, from the memo.
    private func memoized(_ text: String, url: URL) throws(PrismGraphQLError) -> Data {
        do {
            return try DocumentMemo.shared.jsonString(text, encoder: Self.encoder)
        } catch {
            throw PrismGraphQLError(
                code: .encodingFailed, message: "Could not encode the operation as JSON: \(error)", url: url,
                operationName: operationName, underlying: error)
        }
    }

    /// The members as URL query items, for a GET: `query`, `operationName`, and `variables` and
    /// `extensions` as JSON text.
    func queryItems(url: URL) throws(PrismGraphQLError) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let query { items.append(URLQueryItem(name: "query", value: query)) }
        if let operationName { items.append(URLQueryItem(name: "operationName", value: operationName)) }
        switch variables {
        case .members(let members) where !members.isEmpty:
            items.append(URLQueryItem(name: "variables", value: try text(of: EncodableMembers(members), url: url)))
        case .members:
            break
        case .value(let value):
            items.append(URLQueryItem(name: "variables", value: try text(of: AnyEncodable(value), url: url)))
        }
        if let persistedQueryHash {
            let extensions = Extensions(persistedQuery: .init(version: 1, sha256Hash: persistedQueryHash))
            items.append(URLQueryItem(name: "extensions", value: try text(of: extensions, url: url)))
        }
        return items
    }

    /// `value` as JSON text.
    private func text(of value: some Encodable, url: URL) throws(PrismGraphQLError) -> String {
        String(decoding: try json(of: value, url: url), as: UTF8.self)
    }

    /// `value` as JSON; a value that does not encode is an `encodingFailed` error.
    private func json(of value: some Encodable, url: URL) throws(PrismGraphQLError) -> Data {
        do {
            return try Self.encoder.encode(value)
        } catch {
            throw PrismGraphQLError(
                code: .encodingFailed,
                message: "Could not encode the variables of \(operationName ?? "the operation") as JSON: \(error)",
                url: url,
                operationName: operationName,
                underlying: error
            )
        }
    }

    private static let encoder = PrismJSON.makeEncoder()
}

/// A dictionary of existential values, encoded as a JSON object.
private struct EncodableMembers: Encodable {
    let members: [String: any Encodable & Sendable]

    init(_ members: [String: any Encodable & Sendable]) {
        self.members = members
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in members {
            try container.encode(AnyEncodable(value), forKey: Key(stringValue: name))
        }
    }
}

/// One existential value, encoded through the encoder's own container so that its strategies
/// (dates, data) apply.
private struct AnyEncodable: Encodable {
    let value: any Encodable

    init(_ value: any Encodable) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
