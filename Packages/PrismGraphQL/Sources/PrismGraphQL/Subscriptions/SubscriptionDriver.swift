import Foundation
import Logging
import PrismHTTP

/// Runs a client's ``SubscriptionStateMachine``: one task reads every input (subscriptions from
/// the client, what sockets and timers report) in order, hands it to the machine, and carries out
/// the actions it returns: it opens sockets, queues what they write, schedules timers on the
/// configuration's clock, delivers events and finishes streams. Only this task touches the
/// machine, the subscribers' streams, the sockets and the timers.
struct SubscriptionDriver: Sendable {
    /// What reaches the driver.
    enum Input: Sendable {
        /// A subscription from the client, with where its events go.
        case add(id: String, SubscriptionConnection.Subscriber)
        /// The client's stream of `id` ended.
        case remove(id: String)
        /// Something a socket, a timer or a refresh reports.
        case event(SubscriptionStateMachine.Event)
    }

    let settings: SubscriptionSettings
    /// Where sockets, timers and refreshes post what happened.
    let post: AsyncStream<Input>.Continuation

    private var logger: Logger? { settings.logger }

    /// What the driver's task holds, besides the machine.
    private struct Running {
        var subscribers: [String: SubscriptionConnection.Subscriber] = [:]
        var sockets: [Int: SubscriptionSocket] = [:]
        var timers: [SubscriptionStateMachine.Timer: Task<Void, Never>] = [:]
    }

    /// Reads `inputs` until the client and its streams are gone, then closes what is open.
    func run(_ inputs: AsyncStream<Input>) async {
        var machine = SubscriptionStateMachine(settings: machineSettings)
        var running = Running()
        for await input in inputs {
            let event: SubscriptionStateMachine.Event
            switch input {
            case .add(let id, let subscriber):
                running.subscribers[id] = subscriber
                event = .subscribed(
                    id: id, .init(message: subscriber.message, operationName: subscriber.operationName))
            case .remove(let id):
                running.subscribers[id] = nil
                event = .unsubscribed(id: id)
            case .event(let happened):
                event = happened
                switch happened {
                case .socketEnded(let number, _), .socketOpenFailed(let number, _): running.sockets[number] = nil
                default: break
                }
            }
            var pending = machine.handle(event)
            while !pending.isEmpty {
                let action = pending.removeFirst()
                if let followUp = perform(action, &running) { pending += machine.handle(followUp) }
            }
        }
        for socket in running.sockets.values { socket.shutDown() }
        for timer in running.timers.values { timer.cancel() }
    }

    private var machineSettings: SubscriptionStateMachine.Settings {
        let configuration = settings.configuration
        return SubscriptionStateMachine.Settings(
            endpointURL: settings.endpointURL,
            webSocketURL: settings.webSocketURL,
            acknowledgementTimeout: configuration.connectionAckTimeout,
            keepAliveInterval: configuration.keepAliveInterval,
            stableInterval: configuration.stableConnectionInterval,
            linger: configuration.linger,
            reconnectPolicy: configuration.reconnectPolicy
        )
    }

    /// Carries out `action`; returns an event for the machine when the action could not be
    /// carried out as asked (an event that did not reach its consumer).
    private func perform(_ action: SubscriptionStateMachine.Action, _ running: inout Running)
        -> SubscriptionStateMachine.Event?
    {
        switch action {
        case .open(let number):
            running.sockets[number] = SubscriptionSocket.open(number: number, settings: settings, post: post)
        case .abandon(let number):
            running.sockets[number]?.abandon()
        case .send(let number, let text):
            running.sockets[number]?.send(text)
        case .close(let number, let code, let reason):
            running.sockets[number]?.close(code: code, reason: reason)
        case .schedule(let timer, let duration):
            running.timers[timer]?.cancel()
            let sleep = settings.configuration.sleep
            let post = self.post
            running.timers[timer] = Task {
                do { try await sleep(duration) } catch { return }
                post.yield(.event(.timerFired(timer)))
            }
        case .cancel(let timer):
            running.timers.removeValue(forKey: timer)?.cancel()
        case .deliver(let id, let message):
            if let error = running.subscribers[id]?.next(message) { return .deliveryFailed(id: id, error) }
        case .finish(let id, let error):
            running.subscribers.removeValue(forKey: id)?.finish(error)
        case .refresh(let credential):
            let client = settings.networkClient
            let post = self.post
            Task {
                do {
                    let renewed = try await client.refreshCredentials(replacing: credential)
                    post.yield(.event(.refreshed(.success(renewed))))
                } catch {
                    post.yield(.event(.refreshed(.failure(error))))
                }
            }
        case .log(let log):
            var metadata: Logger.Metadata = ["url": "\(settings.redactedURL)"]
            for (name, value) in log.metadata { metadata[name] = "\(value)" }
            if log.warning {
                logger?.warning("\(log.message)", metadata: metadata)
            } else {
                logger?.debug("\(log.message)", metadata: metadata)
            }
        }
        return nil
    }
}
