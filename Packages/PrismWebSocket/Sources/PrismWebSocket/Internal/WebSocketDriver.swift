import Foundation
import Logging
import PrismHTTP

/// Runs a socket's ``WebSocketStateMachine``: one task reads every event (from connections,
/// timers, the app) in order, hands it to the machine, and carries out the actions it returns:
/// it starts and aborts connections, writes pings and the close frame, schedules timers on the
/// configuration's clock, reports to the queue and ends it. Only this task touches the machine,
/// the connections it holds and the timers.
struct WebSocketDriver: Sendable {
    let context: WebSocketContext

    private struct Running {
        var sessions: [Int: WebSocketSession] = [:]
        var timers: [WebSocketStateMachine.Timer: Task<Void, Never>] = [:]
        var pings: UInt64 = 0
    }

    func run(_ events: AsyncStream<WebSocketStateMachine.Event>) async {
        let configuration = context.configuration
        var machine = WebSocketStateMachine(
            settings: .init(
                url: context.url,
                pingInterval: configuration.pingInterval,
                openTimeout: configuration.openTimeout,
                closeTimeout: configuration.closeTimeout,
                stableInterval: configuration.stableConnectionInterval,
                reconnectPolicy: configuration.reconnectPolicy,
                reconnectingCloseCodes: configuration.reconnectingCloseCodes))
        var running = Running()
        for await event in events {
            switch event {
            case .ended(let number, _), .openFailed(let number, _, _): running.sessions[number] = nil
            default: break
            }
            for action in machine.handle(event) { perform(action, &running) }
            if machine.isFinished && running.sessions.isEmpty { break }
        }
        for session in running.sessions.values { session.abort() }
        for timer in running.timers.values { timer.cancel() }
        context.current.withLock { $0 = nil }
        context.post.finish()
    }

    private func perform(_ action: WebSocketStateMachine.Action, _ running: inout Running) {
        switch action {
        case .open(let number):
            running.sessions[number] = WebSocketSession.start(number: number, context: context)
        case .abort(let number):
            running.sessions[number]?.abort()
        case .ping(let number):
            running.pings &+= 1
            write(.ping(running.pings), on: running.sessions[number])
        case .sendClose(let number, let code, let reason):
            write(.close(code, reason: reason), on: running.sessions[number])
        case .schedule(let timer, let duration):
            running.timers[timer]?.cancel()
            let post = context.post
            if duration <= .zero {
                // A reconnection the policy wants at once does not wait for a clock's turn.
                post.yield(.timerFired(timer))
                return
            }
            let sleep = context.configuration.sleep
            running.timers[timer] = Task {
                do { try await sleep(duration) } catch { return }
                post.yield(.timerFired(timer))
            }
        case .cancel(let timer):
            running.timers.removeValue(forKey: timer)?.cancel()
        case .report(let event):
            context.queue.append(event)
        case .finish(let error):
            context.queue.finish(error)
        case .refresh(let credential):
            let client = context.client
            let post = context.post
            Task {
                do {
                    post.yield(.refreshed(.success(try await client.refreshCredentials(replacing: credential))))
                } catch {
                    post.yield(.refreshed(.failure(error)))
                }
            }
        case .log(let message, let warning):
            let metadata: Logger.Metadata = ["url": "\(context.redactedURL)"]
            if warning {
                context.logger?.warning("\(message)", metadata: metadata)
            } else {
                context.logger?.debug("\(message)", metadata: metadata)
            }
        }
    }

    /// Writes a ping or the close frame in a task of its own (the driver never waits on the
    /// socket); a connection that is gone has nothing to write to.
    private func write(_ outgoing: WebSocketSession.Outgoing, on session: WebSocketSession?) {
        guard let session else { return }
        Task { try? await session.write(outgoing) }
    }
}
