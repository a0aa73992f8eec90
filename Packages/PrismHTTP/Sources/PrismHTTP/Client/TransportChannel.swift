import Foundation
import Logging
import PrismSupport

/// What a transport answers: a whole response, or a stream's head with its body still to read.
protocol TransportAnswer: Sendable {
    /// The request as it was finally sent.
    var request: PrismHTTPRequest? { get set }
    /// The status and headers: what an authenticator, a retry policy and the cache look at.
    var head: PrismHTTPResponse { get }
    /// Lets go of an answer nobody will read (refused, or retried): a stream closes its
    /// connection.
    func discard()
    /// The metadata of the log line that reports the answer.
    var logged: (suffix: String, metadata: Logger.Metadata) { get }
}

extension PrismHTTPResponse: TransportAnswer {
    var head: PrismHTTPResponse { self }

    func discard() {}

    var logged: (suffix: String, metadata: Logger.Metadata) {
        ("", ["bytes": "\(body.count)", "headers": "\(PrismHTTPRedaction.redact(headers).dictionary)"])
    }
}

extension PrismHTTPStreamedResponse: TransportAnswer {
    func discard() { body.cancel() }

    var logged: (suffix: String, metadata: Logger.Metadata) {
        (" (head of a stream)", ["headers": "\(PrismHTTPRedaction.redact(headers).dictionary)"])
    }
}

/// The transport as the pipeline reaches it, chosen once when the client is made: the
/// transport's entry points for a request the pipeline has checked (stage 4) where it has them
/// (AsyncHTTPClient then skips its own check of the same request), and the client's logger. A
/// whole response, an upload and a stream's head all go out through ``answer(_:streamed:open:)``,
/// which records the request as sent on the answer, names the method in an error, and logs.
///
/// | logged at | what |
/// |---|---|
/// | `.debug`, before | method, redacted URL, redacted request headers (`(streamed)` for a stream) |
/// | `.debug`, after | status, method, redacted URL; milliseconds, redacted response headers, bytes of a whole body |
/// | `.warning`, on a ``PrismHTTPError`` | method, redacted URL, the error's code and status: never its message, which may quote a secret |
/// | `.warning`, on another error | method, redacted URL, the error's type (a cancellation is not logged) |
struct TransportChannel: Sendable {
    /// The transport the client was made with.
    let transport: any PrismHTTPTransport
    /// The client's logger; nil logs nothing.
    let logger: Logger?
    /// What hears of each attempt (``PrismNetworkInstrument``); empty for most clients.
    let instruments: [any PrismNetworkInstrument]
    private let sendChecked: nonisolated(nonsending) @Sendable (PrismHTTPRequest) async throws -> PrismHTTPResponse
    private let streamChecked: @Sendable (PrismHTTPRequest, Duration) async throws -> PrismHTTPStreamedResponse

    init(_ transport: any PrismHTTPTransport, logger: Logger?, instruments: [any PrismNetworkInstrument] = []) {
        self.transport = transport
        self.logger = logger
        self.instruments = instruments
        #if AsyncHTTPClient && os(Linux)
        if let transport = transport as? PrismAsyncHTTPClientTransport {
            sendChecked = { try await transport.send(checked: $0) }
            streamChecked = { try await transport.stream(checked: $0, idleTimeout: $1) }
            return
        }
        #endif
        sendChecked = { try await transport.send($0) }
        streamChecked = { try await transport.stream($0, idleTimeout: $1) }
    }

    /// The whole response to `request`, the `resendCount`-th time it is sent again.
    nonisolated(nonsending) func send(_ request: PrismHTTPRequest, resendCount: Int) async throws -> PrismHTTPResponse {
        try await answer(request, resendCount: resendCount, streamed: false, open: sendChecked)
    }

    /// The response to `request` with `body` streamed, its progress reported to `progress`.
    func upload(
        _ request: PrismHTTPRequest,
        resendCount: Int,
        body: PrismUploadBody,
        progress: @escaping @Sendable (_ bytesSent: Int64) -> Void
    ) async throws -> PrismHTTPResponse {
        try await answer(request, resendCount: resendCount, streamed: false) { [transport] in
            try await transport.upload($0, body: body, progress: progress)
        }
    }

    /// The head of the response to `request`, its body read as it arrives; `idleTimeout` bounds
    /// each wait for more of it.
    func stream(_ request: PrismHTTPRequest, resendCount: Int, idleTimeout: Duration) async throws
        -> PrismHTTPStreamedResponse
    {
        try await answer(request, resendCount: resendCount, streamed: true) { [streamChecked] in
            try await streamChecked($0, idleTimeout)
        }
    }

    /// `open`'s answer to `request`, which the transport sends (following redirects), as the
    /// table above says; the instruments hear of it as an attempt.
    private nonisolated(nonsending) func answer<Answer: TransportAnswer>(
        _ request: PrismHTTPRequest,
        resendCount: Int,
        streamed: Bool,
        open: nonisolated(nonsending) (PrismHTTPRequest) async throws -> Answer
    ) async throws -> Answer {
        guard !instruments.isEmpty else { return try await answer(request, streamed: streamed, open: open) }
        var request = request
        let attempts = instruments.compactMap { $0.attemptStarting(&request, resendCount: resendCount) }
        do {
            let answer = try await answer(request, streamed: streamed, open: open)
            for attempt in attempts { attempt.answered(answer.head) }
            return answer
        } catch {
            for attempt in attempts { attempt.failed(error) }
            throw error
        }
    }

    /// `open`'s answer to `request`, logged.
    private nonisolated(nonsending) func answer<Answer: TransportAnswer>(
        _ request: PrismHTTPRequest,
        streamed: Bool,
        open: nonisolated(nonsending) (PrismHTTPRequest) async throws -> Answer
    ) async throws -> Answer {
        let start = logger == nil ? nil : ContinuousClock.now
        if let logger {
            logger.debug(
                "\(request.method.rawValue) \(PrismHTTPRedaction.redact(request.url))\(streamed ? " (streamed)" : "")",
                metadata: ["headers": "\(PrismHTTPRedaction.redact(request.headers).dictionary)"])
            // At .trace, the request as a curl command, its secrets redacted (made only then).
            logger.trace("as curl", metadata: ["curl": "\(request.curlCommand())"])
        }
        do {
            var answer = try await open(request)
            answer.request = request
            if let logger, let start {
                let (suffix, details) = answer.logged
                var metadata = details
                metadata["milliseconds"] = "\(Int(DurationMath.seconds(ContinuousClock.now - start) * 1_000))"
                logger.debug(
                    "\(answer.head.statusCode) \(request.method.rawValue) \(PrismHTTPRedaction.redact(request.url))\(suffix)",
                    metadata: metadata)
            }
            return answer
        } catch var error as PrismHTTPError {
            if error.method == nil { error.method = request.method }
            logFailure(error, of: request)
            throw error
        } catch {
            if let logger, !(error is CancellationError) {
                logger.warning(
                    "\(request.method.rawValue) \(PrismHTTPRedaction.redact(request.url)) failed",
                    metadata: ["error": "\(type(of: error))"])
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
