import Foundation
@_spi(PrismInternals) import PrismHTTP
import PrismSupport

/// An answer's `data` as the normalizing client writes it into the normalized cache: a
/// ``PrismGraphQLValue`` read by Prism's own JSON reader (see `GraphQLResponseDecoding`).
struct NormalizingAnswer: Decodable, Sendable, Hashable {
    var value: PrismGraphQLValue

    init(value: PrismGraphQLValue) { self.value = value }

    /// The value, through `JSONDecoder` (a body that is not UTF-8).
    init(from decoder: any Decoder) throws { value = try PrismGraphQLValue(from: decoder) }
}

/// Turns a response body into a ``PrismGraphQLResponse``, telling a body that is not GraphQL
/// (`invalidResponse`) from GraphQL whose data is not the expected type (`decodingFailed`).
enum GraphQLResponseDecoding {
    /// What an error about a response says besides its code.
    struct Context {
        var url: URL
        var operationName: String?
        var statusCode: Int?
    }

    /// The decoder for `T`: its own when it is a `PrismEntity`, else one that takes keys as
    /// spelled (GraphQL's camelCase) and ISO 8601 dates.
    static func decoder<T>(for type: T.Type) -> JSONDecoder {
        (type as? any PrismEntity.Type)?.decoder ?? plainDecoder
    }

    private static let plainDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    static func decode<T: Decodable & Sendable>(
        _ type: T.Type,
        from body: Data,
        context: Context
    ) throws(PrismGraphQLError) -> PrismGraphQLResponse<T> {
        if T.self == NormalizingAnswer.self, let envelope = valueEnvelope(in: body, payload: false),
            let typed = try response(from: envelope, body: body, context: context) as? PrismGraphQLResponse<T>
        {
            return typed
        }
        // The common answer, `{"data": ...}` and nothing else: its data decoded directly (see
        // AnswerShortcut) into the response, with no envelope between; whatever does not decode
        // so takes the full decode, for its error.
        if let range = AnswerShortcut.dataRange(in: body),
            let data = try? PrismJSON.decoder(decoder(for: T.self), for: body).decode(
                T.self, from: body[(body.startIndex + range.lowerBound)..<(body.startIndex + range.upperBound)])
        {
            var response = PrismGraphQLResponse(data: data, errors: nil, extensions: nil)
            response.statusCode = context.statusCode
            return response
        }
        return try fullDecode(T.self, from: body, context: context)
    }

    /// ``decode(_:from:context:)`` without the shortcut: the whole body through `Envelope<T>`.
    static func fullDecode<T: Decodable & Sendable>(
        _ type: T.Type,
        from body: Data,
        context: Context
    ) throws(PrismGraphQLError) -> PrismGraphQLResponse<T> {
        try response(in: body, as: Envelope<T>.self, named: "The response", context: context, envelope: { $0 })
    }

    /// Decodes the `payload` of a `graphql-transport-ws` `next` message, `{"id", "type": "next",
    /// "payload": {"data", "errors"}}`, as ``decode(_:from:context:)`` decodes a response body.
    static func decodePayload<T: Decodable & Sendable>(
        _ type: T.Type,
        ofMessage message: Data,
        context: Context
    ) throws(PrismGraphQLError) -> PrismGraphQLResponse<T> {
        if T.self == NormalizingAnswer.self, let envelope = valueEnvelope(in: message, payload: true),
            let typed = try response(from: envelope, body: message, context: context) as? PrismGraphQLResponse<T>
        {
            return typed
        }
        return try response(
            in: message, as: PayloadMessage<T>.self, named: "The next message's payload", context: context,
            envelope: \.payload)
    }

    /// The envelope of an answer for the normalized cache (``NormalizingAnswer``), read by
    /// ``JSONValueReader`` rather than `JSONDecoder`, whose `PrismGraphQLValue.init(from:)` tries
    /// each kind of value in turn and throws an error for each miss (28x slower for a 1,000-object
    /// answer, `make bench ARGS="--filter normalized"`). The same
    /// envelope as `Envelope.init(from:)` gives, but for numbers: `1.0` stays a `double`, as
    /// ``PrismGraphQLValue/init(json:)`` reads it (JSONDecoder's path makes it `int(1)`; the
    /// generated types decode either). Nil when the text is not UTF-8 JSON of that shape, so that
    /// `JSONDecoder` decodes it (other encodings) or says what is wrong, as before.
    private static func valueEnvelope(in body: Data, payload: Bool) -> Envelope<NormalizingAnswer>? {
        guard case .object(var top)? = try? PrismGraphQLValue(json: body) else { return nil }
        if payload {
            guard case .object(let members)? = top["payload"] else { return nil }
            top = members
        }
        var errors: [PrismGraphQLResponseError]?
        if let value = top["errors"], value != .null {
            guard let decoded = try? value.decoded(as: [PrismGraphQLResponseError].self) else { return nil }
            errors = decoded
        }
        var extensions: [String: PrismGraphQLValue]?
        if case .object(let members)? = top["extensions"] { extensions = members }
        let data = top["data"].flatMap { $0 == .null ? nil : NormalizingAnswer(value: $0) }
        return Envelope(hasData: top["data"] != nil, data: .success(data), errors: errors, extensions: extensions)
    }

    /// Decodes `body` as `Wrapper` with `T`'s decoder and returns the response of the envelope it
    /// holds; `name` says what was not a GraphQL response in the error.
    private static func response<T: Decodable & Sendable, Wrapper: Decodable>(
        in body: Data,
        as wrapper: Wrapper.Type,
        named name: String,
        context: Context,
        envelope: (Wrapper) -> Envelope<T>
    ) throws(PrismGraphQLError) -> PrismGraphQLResponse<T> {
        let decoded: Wrapper
        do {
            decoded = try PrismJSON.decoder(decoder(for: T.self), for: body).decode(Wrapper.self, from: body)
        } catch {
            throw PrismGraphQLError(
                code: .invalidResponse,
                message: "\(name) is not a GraphQL response (a JSON object with data or errors): "
                    + DecodingErrorText.describe(error),
                url: context.url,
                operationName: context.operationName,
                statusCode: context.statusCode,
                body: body,
                underlying: error
            )
        }
        return try response(from: envelope(decoded), body: body, context: context)
    }

    /// The response an envelope holds, or the error that says why it cannot be one.
    private static func response<T: Decodable & Sendable>(
        from envelope: Envelope<T>,
        body: Data,
        context: Context
    ) throws(PrismGraphQLError) -> PrismGraphQLResponse<T> {
        guard envelope.hasData || envelope.errors != nil else {
            throw PrismGraphQLError(
                code: .invalidResponse,
                message: "The response is JSON but not a GraphQL response: it has neither data nor errors.",
                url: context.url,
                operationName: context.operationName,
                statusCode: context.statusCode,
                body: body
            )
        }
        switch envelope.data {
        case .success(let data):
            var response = PrismGraphQLResponse(data: data, errors: envelope.errors, extensions: envelope.extensions)
            response.statusCode = context.statusCode
            return response
        case .failure(let error):
            throw PrismGraphQLError(
                code: .decodingFailed,
                message:
                    "Could not decode \(T.self) from the response's data: \(DecodingErrorText.describe(error))",
                url: context.url,
                operationName: context.operationName,
                statusCode: context.statusCode,
                body: body,
                errors: envelope.errors ?? [],
                underlying: error
            )
        }
    }

    /// The media types of a GraphQL response.
    static let mediaTypes: Set<String> = ["application/graphql-response+json", "application/json"]

    /// Whether a response with a non-2xx status is still a GraphQL response for the app: its
    /// media type is one of ``mediaTypes`` and its body a well-formed GraphQL response (a JSON
    /// object with `data`, or with a non-empty `errors` list). A proxy's HTML error page or a
    /// JSON body of another shape is not.
    static func isGraphQLResponse(body: Data?, contentType: String?) -> Bool {
        guard let body, let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let mediaType, mediaTypes.contains(mediaType),
            let envelope = try? plainDecoder.decode(Envelope<PrismGraphQLValue>.self, from: body)
        else { return false }
        return envelope.hasData || !(envelope.errors ?? []).isEmpty
    }

    /// The GraphQL errors in `body`, if it is a GraphQL response; empty otherwise.
    static func errors(in body: Data?) -> [PrismGraphQLResponseError] {
        guard let body, let envelope = try? plainDecoder.decode(Envelope<PrismGraphQLValue>.self, from: body) else {
            return []
        }
        return envelope.errors ?? []
    }

    /// A `graphql-transport-ws` message whose payload is a GraphQL response.
    private struct PayloadMessage<Value: Decodable>: Decodable {
        let payload: Envelope<Value>
    }

    /// The members of a GraphQL response, the data decoded apart so that its failure is told
    /// from a malformed response.
    private struct Envelope<Value: Decodable>: Decodable {
        let hasData: Bool
        let data: Result<Value?, any Error>
        let errors: [PrismGraphQLResponseError]?
        let extensions: [String: PrismGraphQLValue]?

        private enum CodingKeys: String, CodingKey {
            case data
            case errors
            case extensions
        }

        init(
            hasData: Bool, data: Result<Value?, any Error>, errors: [PrismGraphQLResponseError]?,
            extensions: [String: PrismGraphQLValue]?
        ) {
            self.hasData = hasData
            self.data = data
            self.errors = errors
            self.extensions = extensions
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            hasData = container.contains(.data)
            errors = try container.decodeIfPresent([PrismGraphQLResponseError].self, forKey: .errors)
            extensions = try? container.decodeIfPresent([String: PrismGraphQLValue].self, forKey: .extensions)
            data = Result { try container.decodeIfPresent(Value.self, forKey: .data) }
        }
    }
}
