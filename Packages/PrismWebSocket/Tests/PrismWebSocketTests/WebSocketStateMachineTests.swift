import Foundation
import PrismHTTP
import Testing

@testable import PrismWebSocket

/// The socket's rules, one event at a time: no socket, no clock.
@Suite("PrismWebSocket's state machine")
struct WebSocketStateMachineTests {
    private func machine(
        policy: (any PrismRetryPolicy)? = Immediately(maxAttempts: 3), ping: Duration? = .seconds(10)
    ) -> WebSocketStateMachine {
        WebSocketStateMachine(
            settings: .init(
                url: URL(string: "ws://example.com/live")!, pingInterval: ping, openTimeout: .seconds(10),
                closeTimeout: .seconds(5), stableInterval: .seconds(30), reconnectPolicy: policy,
                reconnectingCloseCodes: PrismWebSocketCloseCode.reconnecting))
    }

    /// The machine with connection 1 open.
    private func opened(policy: (any PrismRetryPolicy)? = Immediately(maxAttempts: 3)) -> WebSocketStateMachine {
        var machine = machine(policy: policy)
        _ = machine.handle(.start)
        _ = machine.handle(.opened(connection: 1, credential: nil))
        return machine
    }

    @Test("start opens connection 1 with its open timer; opened starts the stable and ping timers")
    func opens() {
        var machine = machine()
        let started = machine.handle(.start)
        #expect(started.contains { if case .open(1) = $0 { true } else { false } })
        #expect(started.contains { if case .schedule(.open, .seconds(10)) = $0 { true } else { false } })
        let opened = machine.handle(.opened(connection: 1, credential: nil))
        #expect(opened.contains { if case .cancel(.open) = $0 { true } else { false } })
        #expect(opened.contains { if case .schedule(.ping, .seconds(10)) = $0 { true } else { false } })
        #expect(opened.contains { if case .schedule(.stable, .seconds(30)) = $0 { true } else { false } })
    }

    @Test("a ping unanswered at the next one aborts the connection, unless the socket waits for its consumer")
    func unansweredPing() {
        var machine = opened()
        #expect(machine.handle(.timerFired(.ping)).contains { if case .ping(1) = $0 { true } else { false } })
        _ = machine.handle(.consumerWaiting(true))
        let waiting = machine.handle(.timerFired(.ping))
        #expect(!waiting.contains { if case .abort = $0 { true } else { false } })
        _ = machine.handle(.consumerWaiting(false))
        // Reading again, the peer gets a whole interval: the next timer pings.
        #expect(machine.handle(.timerFired(.ping)).contains { if case .ping(1) = $0 { true } else { false } })
        #expect(machine.handle(.timerFired(.ping)).contains { if case .abort(1) = $0 { true } else { false } })
        let ended = machine.handle(
            .ended(connection: 1, .dropped(PrismWebSocketError(code: .connectionLost, message: ""))))
        #expect(
            ended.contains {
                if case .report(.disconnected(let error, _)) = $0 { error.code == .unresponsive } else { false }
            })
    }

    @Test("a pong clears the ping")
    func pong() {
        var machine = opened()
        _ = machine.handle(.timerFired(.ping))
        _ = machine.handle(.pong(connection: 1))
        #expect(machine.handle(.timerFired(.ping)).contains { if case .ping(1) = $0 { true } else { false } })
    }

    @Test(
        "close codes: 1000 ends with closed, a reconnecting code asks the policy, an application's code ends with closedByServer"
    )
    func closeCodes() {
        var normal = opened()
        let closed = normal.handle(.ended(connection: 1, .closedByPeer(code: .normalClosure, reason: "bye")))
        #expect(closed.contains { if case .report(.closed(.normalClosure, "bye")) = $0 { true } else { false } })
        #expect(closed.contains { if case .finish(nil) = $0 { true } else { false } })

        var restarting = opened()
        let lost = restarting.handle(.ended(connection: 1, .closedByPeer(code: .serviceRestart, reason: "")))
        #expect(lost.contains { if case .schedule(.reconnect, .zero) = $0 { true } else { false } })
        #expect(restarting.handle(.timerFired(.reconnect)).contains { if case .open(2) = $0 { true } else { false } })

        var application = opened()
        let refused = application.handle(
            .ended(connection: 1, .closedByPeer(code: .init(rawValue: 4403), reason: "no")))
        #expect(
            refused.contains {
                if case .finish(let error?) = $0 {
                    error.code == .closedByServer && error.closeCode?.rawValue == 4403
                } else {
                    false
                }
            })
    }

    @Test("a 401 with a credential refreshes once; a second 401 before a stable connection ends the socket")
    func refreshOnce() {
        var machine = machine(policy: PrismExponentialBackoff(baseDelay: .zero, maxAttempts: 3, jitter: .zero))
        _ = machine.handle(.start)
        let refused = machine.handle(.openFailed(connection: 1, .refused(status: 401, headers: [:]), credential: "a"))
        #expect(refused.contains { if case .refresh("a") = $0 { true } else { false } })
        #expect(machine.handle(.refreshed(.success(true))).contains { if case .open(2) = $0 { true } else { false } })
        let again = machine.handle(.openFailed(connection: 2, .refused(status: 401, headers: [:]), credential: "b"))
        #expect(!again.contains { if case .refresh = $0 { true } else { false } })
        // 401 is not transient: the policy does not try again.
        #expect(again.contains { if case .finish(let error?) = $0 { error.statusCode == 401 } else { false } })
    }

    @Test("the policy's count starts again after a stable connection")
    func stableResetsCount() {
        var machine = opened(policy: Immediately(maxAttempts: 2))
        let lostError = PrismWebSocketError(code: .connectionLost, message: "")
        _ = machine.handle(.timerFired(.stable))
        _ = machine.handle(.ended(connection: 1, .dropped(lostError)))
        _ = machine.handle(.timerFired(.reconnect))
        _ = machine.handle(.opened(connection: 2, credential: nil))
        _ = machine.handle(.timerFired(.stable))
        // Without the stable connection this second loss would be the policy's last.
        let second = machine.handle(.ended(connection: 2, .dropped(lostError)))
        #expect(second.contains { if case .schedule(.reconnect, _) = $0 { true } else { false } })
        _ = machine.handle(.timerFired(.reconnect))
        _ = machine.handle(.opened(connection: 3, credential: nil))
        let third = machine.handle(.ended(connection: 3, .dropped(lostError)))
        #expect(third.contains { if case .finish(let error?) = $0 { error.code == .connectionLost } else { false } })
    }

    @Test("the app's close: a close frame and its timer when open; at once when connecting; nothing twice")
    func appClose() {
        var open = opened()
        let closing = open.handle(.closeRequested(code: .goingAway, reason: "bye"))
        #expect(closing.contains { if case .sendClose(1, .goingAway, "bye") = $0 { true } else { false } })
        #expect(closing.contains { if case .schedule(.close, .seconds(5)) = $0 { true } else { false } })
        #expect(open.handle(.closeRequested(code: .normalClosure, reason: "")).isEmpty)
        #expect(open.handle(.timerFired(.close)).contains { if case .abort(1) = $0 { true } else { false } })
        let ended = open.handle(
            .ended(connection: 1, .dropped(PrismWebSocketError(code: .connectionLost, message: ""))))
        #expect(ended.contains { if case .report(.closed(nil, "")) = $0 { true } else { false } })
        #expect(ended.contains { if case .finish(nil) = $0 { true } else { false } })

        var connecting = machine()
        _ = connecting.handle(.start)
        let abandoned = connecting.handle(.closeRequested(code: .normalClosure, reason: ""))
        #expect(abandoned.contains { if case .abort(1) = $0 { true } else { false } })
        #expect(abandoned.contains { if case .finish(nil) = $0 { true } else { false } })
        // A connection that opens after all is cut.
        #expect(
            connecting.handle(.opened(connection: 1, credential: nil)).contains {
                if case .abort(1) = $0 { true } else { false }
            })
    }

    @Test("an open timeout counts as a failed attempt; reports of an earlier connection are ignored")
    func openTimeout() {
        var machine = machine(policy: nil)
        _ = machine.handle(.start)
        #expect(machine.handle(.timerFired(.open)).contains { if case .abort(1) = $0 { true } else { false } })
        #expect(machine.handle(.pong(connection: 7)).isEmpty)
        let failed = machine.handle(.openFailed(connection: 1, .aborted, credential: nil))
        #expect(failed.contains { if case .finish(let error?) = $0 { error.code == .connectionLost } else { false } })
    }

    @Test("a connection that opens as its open timer fires is not taken: its end counts as the open timeout")
    func openedAfterOpenTimeout() {
        var machine = machine()
        _ = machine.handle(.start)
        #expect(machine.handle(.timerFired(.open)).contains { if case .abort(1) = $0 { true } else { false } })
        // The upgrade was answered while the abort was on its way: no timers for a connection
        // that is being closed, and no ping on it.
        #expect(machine.handle(.opened(connection: 1, credential: nil)).isEmpty)
        #expect(machine.handle(.timerFired(.ping)).isEmpty)
        // The abort ends it: the open timed out, and the policy decides.
        let ended = machine.handle(
            .ended(connection: 1, .dropped(PrismWebSocketError(code: .connectionLost, message: "closed"))))
        #expect(
            ended.contains {
                if case .report(.disconnected(let error, _)) = $0 {
                    error.code == .connectionLost && error.message.contains("did not open within")
                } else {
                    false
                }
            })
        #expect(machine.handle(.timerFired(.reconnect)).contains { if case .open(2) = $0 { true } else { false } })
    }
}
