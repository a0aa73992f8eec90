import Foundation
import PrismSupport

/// The events a socket holds for its one consumer: at most `limit` messages, then the reader
/// that pushes the next one waits (and with it the socket's reading, so the server waits in TCP).
/// The driver's own reports (`connected`, `disconnected`, `closed`) never wait: there are few.
final class EventQueue: Sendable {
    private struct State {
        var buffer: [PrismWebSocketEvent] = []
        var head = 0
        var messages = 0
        /// nil while open; then the end the consumer sees once the buffer is read.
        var end: Result<Void, PrismWebSocketError>?
        /// The consumer waiting for an event.
        var consumer: CheckedContinuation<PrismWebSocketEvent?, any Error>?
        /// Readers waiting for room, by id.
        var producers: [Int: CheckedContinuation<Void, Never>] = [:]
        var lastProducer = 0
        var consumerGone = false

        var count: Int { buffer.count - head }

        mutating func popFirst() -> PrismWebSocketEvent? {
            guard head < buffer.count else { return nil }
            let event = buffer[head]
            head += 1
            if head > 64 && head * 2 > buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            if case .message = event { messages -= 1 }
            return event
        }
    }

    let limit: Int
    private let state = PrismLocked(State())
    /// Called once when the consumer's task is cancelled while it waits.
    private let onConsumerGone: @Sendable () -> Void

    init(limit: Int, onConsumerGone: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.onConsumerGone = onConsumerGone
    }

    /// Adds a report without waiting.
    func append(_ event: PrismWebSocketEvent) {
        let consumer = state.withLock { state -> CheckedContinuation<PrismWebSocketEvent?, any Error>? in
            guard state.end == nil, !state.consumerGone else { return nil }
            if let consumer = state.consumer {
                state.consumer = nil
                return consumer
            }
            state.buffer.append(event)
            if case .message = event { state.messages += 1 }
            return nil
        }
        consumer?.resume(returning: event)
    }

    /// Adds a message, first waiting while `limit` messages are held. `waiting` is called before
    /// a wait and `resumed` after it. Returns at once when the task is cancelled or the queue has
    /// ended (the message is then dropped: nobody will read it).
    func push(_ message: PrismWebSocketMessage, waiting: () -> Void, resumed: () -> Void) async {
        let full = state.withLock { $0.messages >= limit && $0.end == nil && !$0.consumerGone }
        if full {
            waiting()
            await waitForRoom()
            resumed()
        }
        append(.message(message))
    }

    private func waitForRoom() async {
        let id = state.withLock { state -> Int in
            state.lastProducer += 1
            return state.lastProducer
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.messages < limit || state.end != nil || state.consumerGone || Task.isCancelled {
                        return true
                    }
                    state.producers[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.producers.removeValue(forKey: id) }?.resume()
        }
    }

    /// The next event; nil after the socket closed normally (or the consumer's task was
    /// cancelled).
    ///
    /// - Throws: The ``PrismWebSocketError`` that ended the socket, once every event before it
    ///   was read.
    func next() async throws -> PrismWebSocketEvent? {
        let taken = state.withLock {
            state -> (PrismWebSocketEvent?, Result<Void, PrismWebSocketError>?, CheckedContinuation<Void, Never>?) in
            if let event = state.popFirst() {
                let producer = state.messages < limit ? state.producers.popFirst()?.value : nil
                return (event, nil, producer)
            }
            if state.consumerGone { return (nil, .success(()), nil) }
            return (nil, state.end, nil)
        }
        taken.2?.resume()
        if let event = taken.0 { return event }
        if let end = taken.1 {
            try end.get()
            return nil
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<PrismWebSocketEvent?, any Error>) in
                let outcome = state.withLock { state -> Result<PrismWebSocketEvent?, any Error>? in
                    if let event = state.popFirst() { return .success(event) }
                    if state.consumerGone || Task.isCancelled { return .success(nil) }
                    if let end = state.end { return end.map { nil }.mapError { $0 } }
                    state.consumer = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let (consumer, producers) = state.withLock { state in
                defer {
                    state.consumer = nil
                    state.producers = [:]
                    state.consumerGone = true
                }
                return (state.consumer, Array(state.producers.values))
            }
            consumer?.resume(returning: nil)
            for producer in producers { producer.resume() }
            onConsumerGone()
        }
    }

    /// Ends the queue: the consumer reads what is held, then the end (nil, or `error` thrown).
    func finish(_ error: PrismWebSocketError?) {
        let (consumer, producers) = state.withLock { state in
            if state.end == nil { state.end = error.map { .failure($0) } ?? .success(()) }
            defer {
                state.consumer = nil
                state.producers = [:]
            }
            return (state.consumer, Array(state.producers.values))
        }
        if let consumer {
            if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
        }
        for producer in producers { producer.resume() }
    }
}
