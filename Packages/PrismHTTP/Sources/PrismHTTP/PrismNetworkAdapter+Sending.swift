import Foundation
import Logging
import PrismCache

extension PrismNetworkAdapter {
    // MARK: Preparing

    /// The endpoint as a request with `options` applied, and its cache interval, checked.
    func prepare(_ endpoint: some PrismNetworkEndpoint, options: PrismRequestOptions) throws
        -> (PrismHTTPRequest, Duration?)
    {
        var request = try endpoint.makeHTTPRequest()
        for (name, value) in options.headers { request.headers[name] = value }
        if let timeout = options.timeout { request.timeout = timeout }
        let cacheInterval = try endpoint.cacheInterval.map { seconds throws(PrismHTTPError) in
            try RequestValidation.cacheInterval(seconds: seconds, url: request.url)
        }
        return (request, cacheInterval)
    }

    /// `request` as every interceptor adapted it, checked (URL, headers, timeout).
    func adapt(_ request: PrismHTTPRequest) async throws -> PrismHTTPRequest {
        var request = request
        for interceptor in interceptors { request = try await interceptor.adapt(request) }
        do {
            try RequestValidation.validate(request)
        } catch {
            logFailure(error, of: request)
            throw error
        }
        return request
    }

    /// `request` with the authenticator's credentials (as is without an authenticator).
    func authorize(_ request: PrismHTTPRequest) async throws -> Authorization {
        guard let authenticator else { return Authorization(request: request, credential: nil) }
        do {
            let (authorized, credential) = try await authenticator.authorize(request)
            return Authorization(request: authorized, credential: credential)
        } catch let error as PrismHTTPError {
            logFailure(error, of: request)
            throw error
        }
    }

    /// The request as it would be sent now: after the interceptors and with the
    /// authenticator's credentials. PrismGraphQL keys its cache on it.
    @_spi(PrismInternals)
    public func preparedForSending(_ request: PrismHTTPRequest) async throws -> PrismHTTPRequest {
        try await authorize(try await adapt(request)).request
    }

    /// Interceptors, then credentials, then the cache, then the network.
    func send(
        _ request: PrismHTTPRequest,
        cachePolicy: PrismCachePolicy?,
        cacheInterval: Duration?,
        retryPolicy: (any PrismRetryPolicy)?,
        store: Bool
    ) async throws -> PrismHTTPResponse {
        try await deliver(
            request, cachePolicy: cachePolicy, cacheInterval: cacheInterval, retryPolicy: retryPolicy, store: store,
            decodedBy: nil
        ).response
    }

    /// The network, retried as `retryPolicy` says: a transient status (408, 429, 5xx) counts as
    /// a failed attempt; when the attempts are spent the last response is an error that lists
    /// them. The first attempt uses `authorization` when given.
    func network(
        _ request: PrismHTTPRequest,
        authorization: Authorization?,
        retryPolicy: (any PrismRetryPolicy)?
    ) async throws -> Exchange {
        let transport = self.transport
        let send: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse = { try await transport.send($0) }
        guard let retryPolicy else { return try await attempt(request, authorization: authorization, send: send) }
        var first = authorization
        return try await Retrying.run(policy: retryPolicy, sleep: sleep) {
            let exchange = try await attempt(request, authorization: first, send: send)
            first = nil
            let failure = PrismHTTPError.unacceptable(exchange.response, method: request.method)
            if !exchange.response.isSuccess, PrismRetryFailure(error: failure).isTransient { throw failure }
            return exchange
        }
    }

    /// Credentials, the transport, and one more try after a refresh when credentials were
    /// rejected.
    func attempt(
        _ request: PrismHTTPRequest,
        authorization: Authorization?,
        send: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse
    ) async throws -> Exchange {
        guard let authenticator else {
            return Exchange(response: try await transmit(request, send: send), sent: request)
        }
        let authorized: Authorization
        if let authorization {
            authorized = authorization
        } else {
            authorized = try await authorize(request)
        }
        let response = try await transmit(authorized.request, send: send)
        guard authenticator.isAuthenticationFailure(response) else {
            return Exchange(response: response, sent: authorized.request)
        }
        do {
            try await authenticator.refresh(replacing: authorized.credential)
        } catch let error as PrismHTTPError {
            logFailure(error, of: request)
            throw error
        }
        let retried = try await authorize(request)
        return Exchange(response: try await transmit(retried.request, send: send), sent: retried.request)
    }

    /// Sends one request through `send` (the transport), checked and logged.
    func transmit(
        _ request: PrismHTTPRequest,
        send: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse
    ) async throws -> PrismHTTPResponse {
        do {
            // The authenticator may have added headers: they are checked before any transport.
            try RequestValidation.validateHeaders(request.headers, url: request.url)
            guard let logger else { return try await send(request) }
            return try await transmitLogged(request, logger: logger, send: send)
        } catch var error as PrismHTTPError {
            if error.method == nil { error.method = request.method }
            if logger != nil, error.code == .invalidHeader { logFailure(error, of: request) }
            throw error
        }
    }
}
