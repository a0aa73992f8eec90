import Foundation
import PrismHTTP
import Testing

@testable import PrismGraphQL

/// The subscription connection's state machine, event by event, without a socket or a clock:
/// each test feeds events and reads the actions.
@Suite("The subscription state machine, transition by transition")
struct SubscriptionStateMachineTests {
    typealias Machine = SubscriptionStateMachine
    typealias Action = SubscriptionStateMachine.Action

    static let url = URL(string: "http://127.0.0.1:1/graphql")!

    func machine(
        keepAlive: Duration? = nil, linger: Duration = .zero, attempts: Int = 3, reconnectDelay: Duration = .zero
    ) -> Machine {
        Machine(
            settings: .init(
                endpointURL: Self.url, webSocketURL: URL(string: "ws://127.0.0.1:1/graphql"),
                acknowledgementTimeout: .seconds(2), keepAliveInterval: keepAlive, stableInterval: .seconds(10),
                linger: linger,
                reconnectPolicy: PrismExponentialBackoff(
                    baseDelay: reconnectDelay, maxAttempts: attempts, jitter: .zero)))
    }

    func subscriber(_ id: String) -> Machine.Subscriber {
        Machine.Subscriber(message: "subscribe \(id)", operationName: "Op\(id)")
    }

    /// A machine with subscription "1" on an acknowledged socket 1.
    func ready(keepAlive: Duration? = nil, linger: Duration = .zero, attempts: Int = 3) -> Machine {
        var machine = machine(keepAlive: keepAlive, linger: linger, attempts: attempts)
        _ = machine.handle(.subscribed(id: "1", subscriber("1")))
        _ = machine.handle(.socketOpened(socket: 1, credential: "token-a"))
        _ = machine.handle(.received(socket: 1, .acknowledged))
        return machine
    }

    // MARK: Reading actions

    func opened(_ actions: [Action]) -> [Int] {
        actions.compactMap { if case .open(let socket) = $0 { socket } else { nil } }
    }

    func sent(_ actions: [Action]) -> [String] {
        actions.compactMap { if case .send(_, let text) = $0 { text } else { nil } }
    }

    func closes(_ actions: [Action]) -> [Int] {
        actions.compactMap { if case .close(_, let code, _) = $0 { code } else { nil } }
    }

    func scheduled(_ actions: [Action]) -> [Machine.Timer] {
        actions.compactMap { if case .schedule(let timer, _) = $0 { timer } else { nil } }
    }

    func finished(_ actions: [Action]) -> [String: PrismGraphQLError?] {
        var result: [String: PrismGraphQLError?] = [:]
        for action in actions { if case .finish(let id, let error) = action { result[id] = error } }
        return result
    }

    func abandoned(_ actions: [Action]) -> [Int] {
        actions.compactMap { if case .abandon(let socket) = $0 { socket } else { nil } }
    }

    // MARK: Opening and acknowledging

    @Test("the first subscription opens a socket and starts the acknowledgement timer; a second one waits for the ack")
    func firstSubscriptionOpens() {
        var machine = machine()
        let first = machine.handle(.subscribed(id: "1", subscriber("1")))
        #expect(opened(first) == [1])
        #expect(scheduled(first) == [.acknowledgement(socket: 1)])
        #expect(machine.phase == .connecting(socket: 1))
        let second = machine.handle(.subscribed(id: "2", subscriber("2")))
        #expect(opened(second).isEmpty && sent(second).isEmpty)
    }

    @Test("the acknowledgement sends every subscription in id order and starts the stable and keep-alive timers")
    func acknowledgementSubscribesAll() {
        var machine = machine(keepAlive: .seconds(15))
        for id in ["2", "1", "10"] { _ = machine.handle(.subscribed(id: id, subscriber(id))) }
        _ = machine.handle(.socketOpened(socket: 1, credential: nil))
        let actions = machine.handle(.received(socket: 1, .acknowledged))
        #expect(sent(actions) == ["subscribe 1", "subscribe 2", "subscribe 10"])
        #expect(Set(scheduled(actions)) == [.stable(socket: 1), .keepAlive(socket: 1)])
        #expect(machine.phase == .ready(socket: 1))
        // A second acknowledgement changes nothing; a new subscription is sent at once.
        #expect(machine.handle(.received(socket: 1, .acknowledged)).isEmpty)
        #expect(sent(machine.handle(.subscribed(id: "11", subscriber("11")))) == ["subscribe 11"])
    }

    @Test("the acknowledgement timer before the upgrade abandons the socket: a lost one, reconnected")
    func timerBeforeUpgrade() {
        var machine = machine()
        _ = machine.handle(.subscribed(id: "1", subscriber("1")))
        #expect(abandoned(machine.handle(.timerFired(.acknowledgement(socket: 1)))) == [1])
        let actions = machine.handle(.socketOpenFailed(socket: 1, .abandoned))
        #expect(opened(actions) == [2])
        #expect(machine.attempt == 1)
    }

    @Test("the acknowledgement timer after the upgrade closes with 4504, then fails every subscription")
    func timerAfterUpgrade() {
        var machine = machine()
        _ = machine.handle(.subscribed(id: "1", subscriber("1")))
        _ = machine.handle(.socketOpened(socket: 1, credential: nil))
        #expect(closes(machine.handle(.timerFired(.acknowledgement(socket: 1)))) == [4504])
        let actions = machine.handle(.socketEnded(socket: 1, .closed(code: 4504)))
        #expect(finished(actions)["1"]??.code == .connectionAckTimeout)
        #expect(machine.phase == .idle && machine.subscribers.isEmpty)
    }

    // MARK: Subscribers leaving

    @Test("the last subscriber leaving while the socket opens abandons it; the next subscription opens a new one")
    func leavingWhileConnecting() {
        var machine = machine()
        _ = machine.handle(.subscribed(id: "1", subscriber("1")))
        #expect(abandoned(machine.handle(.unsubscribed(id: "1"))) == [1])
        let end = machine.handle(.socketOpenFailed(socket: 1, .abandoned))
        #expect(opened(end).isEmpty && finished(end).isEmpty)
        #expect(machine.phase == .idle)
        #expect(opened(machine.handle(.subscribed(id: "2", subscriber("2")))) == [2])
    }

    @Test("the last subscriber leaving sends complete and closes the socket normally, after the linger if any")
    func leavingWhenReady() {
        var immediate = ready()
        let actions = immediate.handle(.unsubscribed(id: "1"))
        #expect(sent(actions) == [GraphQLTransportWS.complete(id: "1")])
        #expect(closes(actions) == [1000])
        let end = immediate.handle(.socketEnded(socket: 1, .closed(code: 1000)))
        #expect(opened(end).isEmpty && finished(end).isEmpty)
        #expect(immediate.phase == .idle)

        var lingering = ready(linger: .seconds(5))
        let leave = lingering.handle(.unsubscribed(id: "1"))
        #expect(scheduled(leave) == [.linger] && closes(leave).isEmpty)
        // Someone subscribes before the linger ends: the socket is reused.
        #expect(sent(lingering.handle(.subscribed(id: "2", subscriber("2")))) == ["subscribe 2"])
        #expect(closes(lingering.handle(.timerFired(.linger))).isEmpty)
    }

    @Test("an event that cannot be delivered completes that subscription only, with the error")
    func deliveryFailure() {
        var machine = ready()
        _ = machine.handle(.subscribed(id: "2", subscriber("2")))
        let error = PrismGraphQLError(code: .consumerTooSlow, message: "behind")
        let actions = machine.handle(.deliveryFailed(id: "2", error))
        #expect(sent(actions) == [GraphQLTransportWS.complete(id: "2")])
        #expect(finished(actions)["2"]??.code == .consumerTooSlow)
        #expect(closes(actions).isEmpty && machine.subscribers.keys.sorted() == ["1"])
    }

    // MARK: Messages

    @Test("next goes to its subscription; one that crossed a complete is dropped; an unknown id is a violation")
    func routing() {
        var machine = ready()
        let next = machine.handle(.received(socket: 1, .next(id: "1", message: Data("{}".utf8))))
        #expect(next.contains { if case .deliver("1", _) = $0 { true } else { false } })
        _ = machine.handle(.subscribed(id: "2", subscriber("2")))
        _ = machine.handle(.unsubscribed(id: "2"))
        #expect(machine.handle(.received(socket: 1, .next(id: "2", message: Data()))).isEmpty)
        let unknown = machine.handle(.received(socket: 1, .next(id: "99", message: Data())))
        #expect(closes(unknown) == [4004])
        let end = machine.handle(.socketEnded(socket: 1, .closed(code: 4004)))
        #expect(finished(end)["1"]??.code == .subscriptionProtocolViolation)
    }

    @Test("a next before connection_ack, or an invalid message, is a protocol violation")
    func beforeAcknowledgement() {
        var machine = machine()
        _ = machine.handle(.subscribed(id: "1", subscriber("1")))
        _ = machine.handle(.socketOpened(socket: 1, credential: nil))
        #expect(closes(machine.handle(.received(socket: 1, .next(id: "1", message: Data())))) == [4004])
        #expect(machine.phase == .closing(socket: 1))
        #expect(GraphQLTransportWS.parse("not json") == .invalid(GraphQLTransportWS.parseFailure))
    }

    @Test("the server's error and complete end their subscription; a ping is answered with a pong")
    func serverEnds() {
        var machine = ready()
        _ = machine.handle(.subscribed(id: "2", subscriber("2")))
        let error = machine.handle(
            .received(socket: 1, .error(id: "1", errors: [PrismGraphQLResponseError(message: "no")])))
        #expect(finished(error)["1"]??.code == .graphQLErrors)
        let complete = machine.handle(.received(socket: 1, .complete(id: "2")))
        #expect(finished(complete)["2"] != nil && finished(complete)["2"]! == nil)
        #expect(closes(complete) == [1000])
        var pinged = ready()
        #expect(sent(pinged.handle(.received(socket: 1, .ping))) == [GraphQLTransportWS.pong])
    }

    // MARK: Keep-alive, loss and reconnection

    @Test("a ping still unanswered when the next is due loses the socket; the client reconnects")
    func missedPong() {
        var machine = ready(keepAlive: .seconds(10))
        #expect(sent(machine.handle(.timerFired(.keepAlive(socket: 1)))) == [GraphQLTransportWS.ping])
        #expect(closes(machine.handle(.timerFired(.keepAlive(socket: 1)))) == [1001])
        #expect(opened(machine.handle(.socketEnded(socket: 1, .closed(code: 1001)))) == [2])
        // A pong in time keeps the socket.
        var answered = ready(keepAlive: .seconds(10))
        _ = answered.handle(.timerFired(.keepAlive(socket: 1)))
        _ = answered.handle(.received(socket: 1, .pong))
        #expect(closes(answered.handle(.timerFired(.keepAlive(socket: 1)))).isEmpty)
    }

    @Test("attempts start again only after a stable socket; when the policy gives up every subscription fails")
    func attemptsAndStability() {
        var machine = ready(attempts: 3)
        let dropped = Machine.SocketEnd.closed(code: 1001)
        _ = machine.handle(.socketEnded(socket: 1, dropped))
        #expect(machine.attempt == 1)
        _ = machine.handle(.socketOpened(socket: 2, credential: nil))
        _ = machine.handle(.received(socket: 2, .acknowledged))
        _ = machine.handle(.socketEnded(socket: 2, dropped))
        #expect(machine.attempt == 2)  // acknowledged, but not up for the stable interval
        _ = machine.handle(.socketOpened(socket: 3, credential: nil))
        _ = machine.handle(.received(socket: 3, .acknowledged))
        _ = machine.handle(.timerFired(.stable(socket: 3)))
        _ = machine.handle(.socketEnded(socket: 3, dropped))
        #expect(machine.attempt == 1)  // the stable socket started the count again
        _ = machine.handle(
            .socketOpenFailed(socket: 4, .transport(PrismHTTPError(code: .connectionFailed, message: "x"))))
        let givenUp = machine.handle(
            .socketOpenFailed(socket: 5, .transport(PrismHTTPError(code: .connectionFailed, message: "x"))))
        #expect(finished(givenUp)["1"]??.code == .requestFailed)
        #expect(machine.phase == .idle)
    }

    @Test("a reconnect delay waits on a timer; the last subscriber leaving meanwhile cancels it")
    func reconnectDelay() {
        var machine = machine(reconnectDelay: .seconds(5))
        _ = machine.handle(.subscribed(id: "1", subscriber("1")))
        _ = machine.handle(
            .socketOpenFailed(socket: 1, .transport(PrismHTTPError(code: .connectionFailed, message: "x"))))
        #expect(machine.phase == .waiting)
        #expect(opened(machine.handle(.timerFired(.reconnect))) == [2])
        _ = machine.handle(
            .socketOpenFailed(socket: 2, .transport(PrismHTTPError(code: .connectionFailed, message: "x"))))
        let leave = machine.handle(.unsubscribed(id: "1"))
        #expect(leave.contains { if case .cancel(.reconnect) = $0 { true } else { false } })
        #expect(machine.phase == .idle)
    }

    // MARK: Credentials and refusals

    @Test(
        "refused credentials are refreshed once, with the socket's credential; refused again, every subscription fails")
    func refreshOnce() {
        var machine = ready()
        let refusal = machine.handle(.socketEnded(socket: 1, .closed(code: 4401)))
        #expect(refusal.contains { if case .refresh(credential: "token-a") = $0 { true } else { false } })
        #expect(opened(machine.handle(.refreshed(.success(true)))) == [2])
        _ = machine.handle(.socketOpened(socket: 2, credential: "token-b"))
        _ = machine.handle(.received(socket: 2, .acknowledged))
        let again = machine.handle(.socketEnded(socket: 2, .closed(code: 4403)))
        #expect(finished(again)["1"]??.code == .subscriptionRejected)
        #expect(finished(again)["1"]??.closeCode == 4403)
    }

    @Test("with nothing to refresh, or a refresh that fails, the refusal ends every subscription")
    func refreshUnavailable() {
        var none = ready()
        _ = none.handle(.socketEnded(socket: 1, .closed(code: 4401)))
        #expect(finished(none.handle(.refreshed(.success(false))))["1"]??.closeCode == 4401)
        var failing = ready()
        _ = failing.handle(.socketEnded(socket: 1, .closed(code: 4401)))
        struct Denied: Error {}
        let failed = failing.handle(.refreshed(.failure(Denied())))
        #expect(finished(failed)["1"]??.underlying is Denied)
    }

    @Test("an upgrade refused with 401 refreshes, with 503 reconnects, with 404 fails")
    func refusedUpgrades() {
        for (status, expectation) in [(401, "refresh"), (503, "reconnect"), (404, "fail")] {
            var machine = machine()
            _ = machine.handle(.subscribed(id: "1", subscriber("1")))
            let actions = machine.handle(.socketOpenFailed(socket: 1, .refused(status: status)))
            switch expectation {
            case "refresh": #expect(actions.contains { if case .refresh = $0 { true } else { false } })
            case "reconnect": #expect(opened(actions) == [2])
            default: #expect(finished(actions)["1"]??.statusCode == 404)
            }
        }
    }

    @Test("close codes: 1001 reconnects, 4400 is a violation, 4500 a refusal; events of an old socket are ignored")
    func closeCodes() {
        var reconnect = ready()
        #expect(opened(reconnect.handle(.socketEnded(socket: 1, .closed(code: 1001)))) == [2])
        #expect(reconnect.handle(.received(socket: 1, .next(id: "1", message: Data()))).isEmpty)
        var violation = ready()
        #expect(
            finished(violation.handle(.socketEnded(socket: 1, .closed(code: 4400))))["1"]??.code
                == .subscriptionProtocolViolation)
        var rejected = ready()
        #expect(
            finished(rejected.handle(.socketEnded(socket: 1, .closed(code: 4500))))["1"]??.code == .subscriptionRejected
        )
    }
}
