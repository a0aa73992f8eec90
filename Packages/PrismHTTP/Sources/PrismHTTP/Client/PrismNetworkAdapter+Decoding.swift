import Foundation
import PrismCache

extension PrismNetworkAdapter {
    /// The value `delivery` holds for `request`.
    ///
    /// A cache hit that comes with a value a request of the same type decoded from the same
    /// entry returns it as it is, when `request` accepts the entry's status: no decoding.
    /// Otherwise the status is validated and the body decoded, and when the body is what the
    /// cache holds and the decode may be reused (``PrismNetworkRequest/decodedResponseReuse``),
    /// the value is kept beside it for the next hit.
    nonisolated(nonsending) func value<Request: PrismNetworkRequest>(of delivery: Delivery, for request: Request)
        async throws
        -> Request.Response
    {
        let response: PrismHTTPResponse
        let slot: CacheSlot?
        switch delivery {
        case .cached(let entry, let sent, let decoded, let cached, let source):
            if let value = decoded as? Request.Response, request.accepts(statusCode: entry.statusCode) {
                return value
            }
            response = PrismHTTPResponse(cached: entry, request: sent, source: source)
            slot = cached
        case .network(let fetched, let stored):
            response = fetched
            slot = stored
        }
        guard let slot, let identity = DecodedReuse.identity(of: Request.self),
            request.accepts(statusCode: response.statusCode)
        else {
            return try Self.validateAndDecode(response, for: request)
        }
        let value: Request.Response
        let reusable: Bool
        if Request.decodedResponseReuse == .always {
            value = try Self.validateAndDecode(response, for: request)
            reusable = true
        } else {
            let probe = DefaultDecodeProbe.Probe(requestType: ObjectIdentifier(Request.self))
            value = try DefaultDecodeProbe.$current.withValue(probe) {
                try Self.validateAndDecode(response, for: request)
            }
            reusable = probe.ranDefault
        }
        if reusable {
            await slot.cache.keepDecoded(
                value, decodedBy: identity, from: response.body,
                cost: DecodedReuse.cost(of: Request.Response.self, body: response.body), for: slot.key)
        }
        return value
    }

    /// Validates the status and decodes the body (stage 8 of the pipeline).
    static func validateAndDecode<Request: PrismNetworkRequest>(
        _ response: PrismHTTPResponse,
        for request: Request
    ) throws -> Request.Response {
        guard request.accepts(statusCode: response.statusCode) else {
            throw PrismHTTPError.unacceptable(response, method: request.endpoint.method)
        }
        do {
            return try request.decode(data: response.body, with: Self.decoder(for: Request.Response.self))
        } catch let error as PrismHTTPError {
            throw error
        } catch {
            throw PrismHTTPError.decoding(error, response: response, type: Request.Response.self)
        }
    }

    private static func decoder<Response>(for type: Response.Type) -> JSONDecoder {
        (type as? any PrismEntity.Type)?.decoder ?? PrismJSON.sharedDecoder
    }
}
