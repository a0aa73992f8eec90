import Foundation
import Logging
import PrismSupport

extension PrismNetworkAdapter {
    /// Sends `request` through `send` with a `.debug` line before and after, and a `.warning`
    /// for a failure.
    func transmitLogged(
        _ request: PrismHTTPRequest,
        logger: Logger,
        send: @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse
    ) async throws -> PrismHTTPResponse {
        let start = ContinuousClock.now
        let url = PrismHTTPRedaction.redact(request.url)
        logger.debug(
            "\(request.method.rawValue) \(url)",
            metadata: ["headers": "\(PrismHTTPRedaction.redact(request.headers).dictionary)"]
        )
        do {
            let response = try await send(request)
            let elapsed = ContinuousClock.now - start
            logger.debug(
                "\(response.statusCode) \(request.method.rawValue) \(url)",
                metadata: [
                    "milliseconds": "\(Int(DurationMath.seconds(elapsed) * 1_000))",
                    "bytes": "\(response.body.count)",
                    "headers": "\(PrismHTTPRedaction.redact(response.headers).dictionary)",
                ]
            )
            return response
        } catch let error as PrismHTTPError {
            logFailure(error, of: request)
            throw error
        } catch {
            if !(error is CancellationError) {
                logger.warning(
                    "\(request.method.rawValue) \(url) failed", metadata: ["error": "\(type(of: error))"])
            }
            throw error
        }
    }

    /// Logs a failure at `.warning` with what cannot carry a secret: the method, the redacted
    /// URL, the error's code and the status. Never the message, the body or an underlying
    /// error's text, which may quote a URL, a header or a server's words.
    func logFailure(_ error: PrismHTTPError, of request: PrismHTTPRequest) {
        guard let logger else { return }
        var metadata: Logger.Metadata = ["error": "\(error.code)"]
        if let status = error.statusCode { metadata["status"] = "\(status)" }
        logger.warning(
            "\(request.method.rawValue) \(PrismHTTPRedaction.redact(request.url)) failed: \(error.code)",
            metadata: metadata)
    }
}
