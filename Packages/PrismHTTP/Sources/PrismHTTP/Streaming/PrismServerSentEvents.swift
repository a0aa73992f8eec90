import Foundation

extension PrismNetworkAdapter {
    /// The Server-Sent Events (`text/event-stream`) the endpoint sends, across reconnections:
    /// an `AsyncSequence` that connects when it is first read and keeps the stream going until
    /// the server says it is over.
    ///
    /// ```swift
    /// for try await event in client.events(on: ChatEndpoint(room: "swift")) {
    ///     let message = try event.decode(ChatMessage.self)
    ///     show(message)
    /// }
    /// ```
    ///
    /// Each connection is a request through the client's pipeline (interceptors, the
    /// authenticator, redirects, logging) with `Accept: text/event-stream`, `Cache-Control:
    /// no-cache` and, once an event carried an `id`, `Last-Event-ID`, as a browser's
    /// `EventSource` does:
    ///
    /// | what happens | what the sequence does |
    /// | --- | --- |
    /// | the server closes the stream, the connection drops, or no byte arrives for `idleTimeout` | counts as a failed attempt, and reconnects after the longer of the server's latest `retry` delay and `reconnection`'s delay (a server's `retry: 0` cannot make the client reconnect in a loop) |
    /// | a transient status (408, 429, 5xx) or a failed connection | counts as a failed attempt and reconnects the same way |
    /// | a connection that stayed open for 5 s or more is lost | the count of failed attempts starts again (a stream that works for a while and then drops is not failing) |
    /// | `reconnection` gives no more attempts (counted since the last connection that stayed open 5 s) | throws ``PrismHTTPError`` `retriesExhausted`, listing the attempts (or the one failure, when it was not transient) |
    /// | `204 No Content` | ends (the server's way to say: do not reconnect) |
    /// | another status | throws `unacceptableStatus` |
    /// | a `Content-Type` other than `text/event-stream` | throws `decodingFailed` |
    /// | an event or a line past `maximumEventBytes` | throws `responseTooLarge` |
    ///
    /// Leaving the loop or cancelling the task closes the connection.
    ///
    /// - Parameters:
    ///   - endpoint: The event stream's endpoint (a `GET`).
    ///   - options: Headers and a timeout for each connection's head.
    ///   - lastEventID: The ID of the last event seen before, to resume a stream an earlier run
    ///     left (sent as `Last-Event-ID` on the first connection).
    ///   - reconnection: How many reconnections in a row may fail, and the least wait before each
    ///     (the server's `retry` may ask for longer). The default tries 10 times, from 1 s up to
    ///     30 s apart.
    ///   - idleTimeout: The longest wait for a byte of an open stream (servers send comments to
    ///     keep one alive); the request's timeout when nil.
    ///   - maximumEventBytes: The most bytes one line, or one event's data, may hold.
    public func events(
        on endpoint: some PrismNetworkEndpoint,
        options: PrismRequestOptions = PrismRequestOptions(),
        lastEventID: String = "",
        reconnection: any PrismRetryPolicy = PrismExponentialBackoff(maxAttempts: 10),
        idleTimeout: Duration? = nil,
        maximumEventBytes: Int = 1 << 20
    ) -> PrismServerSentEvents {
        let client = self
        let connect: @Sendable (String) async throws -> PrismHTTPStreamedResponse = { lastEventID in
            var options = options
            options.headers["Accept"] = "text/event-stream"
            options.headers["Cache-Control"] = "no-cache"
            options.headers["Last-Event-ID"] = lastEventID.isEmpty ? nil : lastEventID
            // Each connection is one attempt: the sequence reconnects by its own rules.
            options.retryPolicy = PrismNoRetry()
            options.cachePolicy = .networkOnly
            return try await client.stream(on: endpoint, options: options, idleTimeout: idleTimeout)
        }
        return PrismServerSentEvents(
            connect: connect, sleep: sleep, now: retryNow, lastEventID: lastEventID, reconnection: reconnection,
            maximumEventBytes: maximumEventBytes)
    }
}

/// The events of a Server-Sent Events stream across reconnections: what
/// ``PrismNetworkAdapter/events(on:options:lastEventID:reconnection:idleTimeout:maximumEventBytes:)``
/// returns. Each iteration connects anew.
public struct PrismServerSentEvents: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = PrismServerSentEvent

    let connect: @Sendable (_ lastEventID: String) async throws -> PrismHTTPStreamedResponse
    let sleep: @Sendable (Duration) async throws -> Void
    /// The time on the clock `sleep` waits on.
    let now: @Sendable () -> Duration
    let lastEventID: String
    let reconnection: any PrismRetryPolicy
    let maximumEventBytes: Int

    /// How long a connection must stay open for its loss to start the count of failed attempts
    /// again. Shorter-lived connections count as failures even when they brought events: a
    /// server that sends one event and closes must not keep the client reconnecting for ever.
    static let healthyConnectionLifetime: Duration = .seconds(5)

    /// An iterator that connects when first asked for an event.
    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    /// Reads the events in order, reconnecting as the sequence's rules say.
    public struct Iterator: AsyncIteratorProtocol {
        private let sequence: PrismServerSentEvents
        private var parser: PrismServerSentEventParser
        private var chunks: PrismHTTPBodyStream.Iterator?
        private var pending: [PrismServerSentEvent] = []
        private var index = 0
        private var failures: [any Error] = []
        private var isOver = false
        /// When the open connection opened, on the sequence's clock.
        private var connectedAt: Duration?

        init(sequence: PrismServerSentEvents) {
            self.sequence = sequence
            parser = PrismServerSentEventParser(
                maximumEventBytes: sequence.maximumEventBytes, lastEventID: sequence.lastEventID)
        }

        /// The next event; nil once the server answered 204.
        public mutating func next() async throws -> PrismServerSentEvent? {
            while true {
                if index < pending.count {
                    defer { index += 1 }
                    return pending[index]
                }
                pending.removeAll(keepingCapacity: true)
                index = 0
                if isOver { return nil }
                guard var current = chunks else {
                    chunks = try await reconnect()
                    continue
                }
                let chunk: Data?
                do {
                    chunk = try await current.next()
                } catch let error as PrismHTTPError where error.code != .responseTooLarge {
                    // Whatever cut an open stream (a truncated body reads as a protocol error to
                    // AsyncHTTPClient, as an unknown error to URLSession) lost its connection.
                    try lost(
                        error.code == .transportFailed
                            ? PrismHTTPError(
                                code: .connectionFailed, message: "The event stream was cut: \(error.message)",
                                url: error.url, method: .get, underlying: error)
                            : error)
                    continue
                }
                chunks = current
                guard let chunk else {
                    try lost(PrismHTTPError(code: .connectionFailed, message: "The server closed the event stream."))
                    continue
                }
                pending = try parser.parse(chunk)
            }
        }

        /// The connection is gone: an event half received is dropped (the specification's rule),
        /// and the next read reconnects, unless the policy gives no more attempts.
        private mutating func lost(_ error: any Error) throws {
            chunks = nil
            parser.finish()
            if let connectedAt, sequence.now() - connectedAt >= PrismServerSentEvents.healthyConnectionLifetime {
                failures.removeAll()
            }
            connectedAt = nil
            failures.append(error)
            guard delay() != nil else { throw spent() }
        }

        /// What ends the sequence when the policy gives no more attempts: the one failure as it
        /// was, or `retriesExhausted` listing them.
        private func spent() -> any Error {
            failures.count == 1 ? failures[0] : Retrying.exhausted(failures)
        }

        /// The wait before the next connection: the policy's, or the server's `retry` when that
        /// is longer; nil when the policy gives no more attempts.
        private func delay() -> Duration? {
            guard let last = failures.last else { return .zero }
            guard
                let policyDelay = sequence.reconnection.delay(
                    afterAttempt: failures.count, failure: PrismRetryFailure(error: last))
            else { return nil }
            return Swift.max(parser.retry ?? .zero, policyDelay)
        }

        /// Waits as the rules say, then opens a stream; nil when it must be tried again, or
        /// when the server said the stream is over (then `isOver`).
        private mutating func reconnect() async throws -> PrismHTTPBodyStream.Iterator? {
            if !failures.isEmpty {
                guard let wait = delay() else { throw spent() }
                try await sequence.sleep(wait)
            }
            try Task.checkCancellation()
            let response: PrismHTTPStreamedResponse
            do {
                response = try await sequence.connect(parser.lastEventID)
            } catch let error as PrismHTTPError where PrismRetryFailure(error: error).isTransient {
                try lost(error)
                return nil
            }
            if response.statusCode == 204 {
                response.body.cancel()
                isOver = true
                return nil
            }
            guard response.statusCode == 200 else {
                response.body.cancel()
                let failure = PrismHTTPError.unacceptable(response.head, method: .get)
                guard PrismRetryFailure(error: failure).isTransient else { throw failure }
                try lost(failure)
                return nil
            }
            let mediaType = response.headers["Content-Type"]?.split(separator: ";").first
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard mediaType == "text/event-stream" else {
                response.body.cancel()
                throw PrismHTTPError(
                    code: .decodingFailed,
                    message: "The response is \(mediaType ?? "without a Content-Type"), not text/event-stream.",
                    url: response.url, method: .get, statusCode: response.statusCode, headers: response.headers)
            }
            connectedAt = sequence.now()
            return response.body.makeAsyncIterator()
        }
    }
}
