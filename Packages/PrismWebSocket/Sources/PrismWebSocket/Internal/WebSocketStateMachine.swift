import Foundation
import PrismHTTP

/// Every decision of one ``PrismWebSocket``, and nothing else: events in (a connection opened,
/// failed or ended, a pong, a timer, the app's close), actions out (open, ping, close, abort,
/// schedule, report, finish). ``WebSocketDriver`` carries the actions out; the machine never
/// waits and touches no socket, so each rule is tested by feeding it events.
///
/// | State       | Event                              | Actions, and the next state                                |
/// |-------------|------------------------------------|------------------------------------------------------------|
/// | idle        | start                              | open 1, open timer → connecting                            |
/// | connecting  | opened                             | stable and ping timers → open                              |
/// | connecting  | open timer                         | abort; its failure counts as a lost connection             |
/// | connecting, timed out | opened, then ended       | nothing, then as the abort's failure (it opened too late)  |
/// | connecting  | refused 401, a credential, unused  | refresh it → refreshing (then open again, uncounted)       |
/// | connecting  | refused, transport failure         | the policy: `disconnected`, reconnect timer → waiting; or finish |
/// | connecting  | TLS, subprotocol, preparation      | finish with the error (another attempt would meet the same) |
/// | open        | ping timer, pong outstanding       | abort, unless the socket waits for the consumer; then the policy |
/// | open        | ping timer                         | ping, ping timer                                           |
/// | open        | stable timer                       | the policy's count and the refresh start again             |
/// | open        | peer's close 1000                  | `closed`, finish                                           |
/// | open        | peer's close in the reconnecting set, no close frame | the policy                               |
/// | open        | peer's close, any other code       | finish with `closedByServer`                               |
/// | open        | message too large, protocol broken | finish with the error (the connection sent 1009 or 1002)   |
/// | open        | app's close                        | close frame, close timer → closing                         |
/// | closing     | the connection ended, close timer  | abort on the timer; `closed` with the peer's code, finish  |
/// | waiting     | reconnect timer                    | open the next connection → connecting                      |
/// | any         | app's close, consumer gone         | abort what is opening; `closed`, finish                    |
struct WebSocketStateMachine {
    struct Settings {
        var url: URL
        var pingInterval: Duration?
        var openTimeout: Duration
        var closeTimeout: Duration
        var stableInterval: Duration
        var reconnectPolicy: (any PrismRetryPolicy)?
        var reconnectingCloseCodes: Set<PrismWebSocketCloseCode>
    }

    enum Timer: Hashable, CaseIterable {
        case open, ping, stable, reconnect, close
    }

    /// Why a connection did not open.
    enum OpenFailure {
        /// The server answered the upgrade with `status`.
        case refused(status: Int, headers: PrismHTTPHeaders)
        /// The connection failed before an answer (the policy decides).
        case transport(PrismWebSocketError)
        /// Trying again would fail again: TLS settings or pins, the subprotocol, the request.
        case fatal(PrismWebSocketError)
        /// The driver abandoned it (the open timer, the app's close).
        case aborted
    }

    /// How an open connection ended.
    enum End {
        /// The peer sent a close frame with this code (nil: none in the frame).
        case closedByPeer(code: PrismWebSocketCloseCode?, reason: String)
        /// The connection was lost without a close frame.
        case dropped(PrismWebSocketError)
        /// The peer sent what the client refuses (too large, against the protocol).
        case failed(PrismWebSocketError)
    }

    enum Event {
        case start
        case opened(connection: Int, credential: String?)
        case openFailed(connection: Int, OpenFailure, credential: String?)
        case ended(connection: Int, End)
        case pong(connection: Int)
        /// The socket holds as many messages as it may and has stopped reading (true), or the
        /// consumer read again (false).
        case consumerWaiting(Bool)
        case timerFired(Timer)
        case closeRequested(code: PrismWebSocketCloseCode, reason: String)
        case refreshed(Result<Bool, any Error>)
    }

    enum Action {
        case open(connection: Int)
        case abort(connection: Int)
        case ping(connection: Int)
        case sendClose(connection: Int, code: PrismWebSocketCloseCode, reason: String)
        case schedule(Timer, Duration)
        case cancel(Timer)
        case report(PrismWebSocketEvent)
        case finish(PrismWebSocketError?)
        case refresh(credential: String?)
        case log(String, warning: Bool)
    }

    private enum State {
        case idle
        case connecting(Int, timedOut: Bool)
        /// `lost`: the connection was aborted as unresponsive, and ends with that error.
        case open(Int, awaitingPong: Bool, lost: PrismWebSocketError?)
        case refreshing(PrismWebSocketError)
        case waiting
        /// The client's close frame is sent; the peer's answer (or the close timer) ends it.
        case closing(Int)
        case finished
    }

    let settings: Settings
    private var state = State.idle
    private var lastConnection = 0
    /// Failed attempts in a row, for the policy.
    private var attempts = 0
    /// Whether a refused credential was refreshed since the last stable connection.
    private var refreshed = false
    private var consumerWaiting = false

    init(settings: Settings) {
        self.settings = settings
    }

    var isFinished: Bool {
        if case .finished = state { true } else { false }
    }

    mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.idle, .start):
            return openNext()
        case (.finished, .opened(let number, _)):
            return [.abort(connection: number)]
        case (.finished, _), (_, .start):
            return []
        case (_, .closeRequested(let code, let reason)):
            return close(code: code, reason: reason)
        case (_, .consumerWaiting(let waiting)):
            consumerWaiting = waiting
            if !waiting, case .open(let number, _, let lost) = state {
                // Pongs waited behind the messages: the peer gets a whole interval again.
                state = .open(number, awaitingPong: false, lost: lost)
            }
            return []

        case (.connecting(let number, _), .timerFired(.open)):
            state = .connecting(number, timedOut: true)
            return [.abort(connection: number)]
        case (.connecting(let current, true), .opened(let number, _)) where current == number:
            // The upgrade was answered as the open timer fired: the abort is on its way, and
            // the connection's end comes next.
            return []
        case (.connecting(let current, true), .ended(let number, _)) where current == number:
            return openFailed(.aborted, timedOut: true, credential: nil)
        case (.connecting(let current, false), .opened(let number, _)) where current == number:
            state = .open(number, awaitingPong: false, lost: nil)
            var actions: [Action] = [.cancel(.open), .schedule(.stable, settings.stableInterval)]
            if let interval = settings.pingInterval { actions.append(.schedule(.ping, interval)) }
            return actions
        case (.connecting(let current, let timedOut), .openFailed(let number, let failure, let credential))
        where current == number:
            return [.cancel(.open)] + openFailed(failure, timedOut: timedOut, credential: credential)

        case (.open(let current, let awaitingPong, let lost), .timerFired(.ping)):
            guard lost == nil, let interval = settings.pingInterval else { return [] }
            if awaitingPong && !consumerWaiting {
                let error = PrismWebSocketError(
                    code: .unresponsive,
                    message: "The server answered no ping within \(interval): the connection counts as lost.",
                    url: settings.url)
                state = .open(current, awaitingPong: true, lost: error)
                return [.abort(connection: current)]
            }
            state = .open(current, awaitingPong: true, lost: nil)
            return [.ping(connection: current), .schedule(.ping, interval)]
        case (.open(let current, _, let lost), .pong(let number)) where current == number:
            state = .open(current, awaitingPong: false, lost: lost)
            return []
        case (.open, .timerFired(.stable)):
            attempts = 0
            refreshed = false
            return []
        case (.open(let current, _, let lost), .ended(let number, let end)) where current == number:
            return [.cancel(.ping), .cancel(.stable)] + ended(end, lost: lost)

        case (.refreshing(let refusal), .refreshed(let result)):
            if case .success(true) = result { return openNext() }
            var error = refusal
            if case .failure(let failure) = result {
                error.message += " Refreshing the credentials failed: \(failure)"
                error.underlying = failure
            }
            return finish(error)

        case (.waiting, .timerFired(.reconnect)):
            return openNext()

        case (.closing, .timerFired(.close)):
            if case .closing(let number) = state { return [.abort(connection: number)] }
            return []
        case (.closing(let current), .ended(let number, let end)) where current == number:
            let peer: (PrismWebSocketCloseCode?, String)
            if case .closedByPeer(let peerCode, let peerReason) = end {
                peer = (peerCode, peerReason)
            } else {
                peer = (nil, "")
            }
            return [.cancel(.close), .report(.closed(code: peer.0, reason: peer.1))] + finish(nil)

        default:
            // A report of a connection that is no longer the current one, or a timer that fired
            // as it was cancelled.
            return []
        }
    }

    // MARK: Rules

    private mutating func openNext() -> [Action] {
        lastConnection += 1
        state = .connecting(lastConnection, timedOut: false)
        return [.open(connection: lastConnection), .schedule(.open, settings.openTimeout)]
    }

    private mutating func openFailed(_ failure: OpenFailure, timedOut: Bool, credential: String?) -> [Action] {
        switch failure {
        case .aborted:
            guard timedOut else { return [] }
            let error = lost(
                "The WebSocket did not open within \(settings.openTimeout) (connect, TLS and upgrade).",
                code: .connectionLost)
            return reconnect(after: error, failure: connectionFailed(error))
        case .refused(let status, let headers):
            let error = PrismWebSocketError(
                code: .upgradeRefused,
                message: "The server refused the WebSocket upgrade with status \(status).",
                url: settings.url, statusCode: status, headers: headers)
            if status == 401, credential != nil, !refreshed {
                refreshed = true
                state = .refreshing(error)
                return [
                    .log("WebSocket upgrade refused with 401: refreshing the credentials", warning: false),
                    .refresh(credential: credential),
                ]
            }
            let failure = PrismHTTPError(
                code: .unacceptableStatus, message: error.message, url: settings.url, method: .get,
                statusCode: status, headers: headers)
            return reconnect(after: error, failure: failure)
        case .transport(let error):
            return reconnect(after: error, failure: connectionFailed(error))
        case .fatal(let error):
            return finish(error)
        }
    }

    private mutating func ended(_ end: End, lost unresponsive: PrismWebSocketError?) -> [Action] {
        if let unresponsive { return reconnect(after: unresponsive, failure: connectionFailed(unresponsive)) }
        switch end {
        case .closedByPeer(let code, let reason):
            if code == .normalClosure { return [.report(.closed(code: code, reason: reason))] + finish(nil) }
            let error = PrismWebSocketError(
                code: .closedByServer,
                message: "The server closed the WebSocket with code \(code.map(String.init(describing:)) ?? "none").",
                url: settings.url, closeCode: code, closeReason: reason)
            guard settings.reconnectingCloseCodes.contains(code ?? .noStatusReceived) else { return finish(error) }
            var lost = error
            lost.code = .connectionLost
            return reconnect(after: lost, failure: connectionFailed(lost))
        case .dropped(let error):
            return reconnect(after: error, failure: connectionFailed(error))
        case .failed(let error):
            return finish(error)
        }
    }

    /// Asks the policy whether to try again after `attempts` failures in a row.
    private mutating func reconnect(after error: PrismWebSocketError, failure: PrismHTTPError) -> [Action] {
        attempts += 1
        guard let policy = settings.reconnectPolicy,
            let delay = policy.delay(afterAttempt: attempts, failure: PrismRetryFailure(error: failure))
        else { return finish(error) }
        state = .waiting
        return [
            .log("WebSocket lost (\(error.message)); reconnecting in \(delay)", warning: false),
            .report(.disconnected(error, reconnectingIn: delay)),
            .schedule(.reconnect, delay),
        ]
    }

    private mutating func close(code: PrismWebSocketCloseCode, reason: String) -> [Action] {
        switch state {
        case .open(let number, _, _):
            state = .closing(number)
            return [
                .cancel(.ping), .cancel(.stable), .sendClose(connection: number, code: code, reason: reason),
                .schedule(.close, settings.closeTimeout),
            ]
        case .connecting(let number, _):
            return [.abort(connection: number), .report(.closed(code: code, reason: reason))] + finish(nil)
        case .idle, .waiting, .refreshing:
            return [.report(.closed(code: code, reason: reason))] + finish(nil)
        case .closing, .finished:
            return []
        }
    }

    private mutating func finish(_ error: PrismWebSocketError?) -> [Action] {
        state = .finished
        if let error {
            return Timer.allCases.map { .cancel($0) } + [
                .log("WebSocket ended: \(error)", warning: true), .finish(error),
            ]
        }
        return Timer.allCases.map { .cancel($0) } + [.finish(nil)]
    }

    private func lost(_ message: String, code: PrismWebSocketError.Code) -> PrismWebSocketError {
        PrismWebSocketError(code: code, message: message, url: settings.url)
    }

    private func connectionFailed(_ error: PrismWebSocketError) -> PrismHTTPError {
        PrismHTTPError(
            code: .connectionFailed, message: error.message, url: settings.url, method: .get, underlying: error)
    }
}
