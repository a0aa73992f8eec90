import NIOCore
import NIOWebSocket
import PrismSupport

/// One open page: what it sends, in order, and what it is sent, built off the main actor and
/// written in order.
final class PageConnection: Sendable {
    private static let lastID = PrismLocked(0)

    /// Tells pages apart.
    let id: Int
    /// The store the page asked for (`socket?store=<id>`; 0 when it named none).
    let storeID: Int
    /// The page's text messages, in order; finishes when the page goes away.
    let messages: AsyncStream<String>
    private let messageContinuation: AsyncStream<String>.Continuation
    private let outgoing: AsyncStream<@Sendable () -> String?>
    private let outgoingContinuation: AsyncStream<@Sendable () -> String?>.Continuation
    private let queued = PrismLocked(0)
    /// The most messages queued and not written; one more closes the page.
    private let maxQueued: Int
    /// The page's channel while it runs: what an overflowing queue closes (a page that does
    /// not read would never take the goodbye frame).
    private let channel = PrismLocked<(any Channel)?>(nil)

    init(maxQueued: Int = .max, storeID: Int = 0) {
        self.maxQueued = maxQueued
        self.storeID = storeID
        id = Self.lastID.withLock { id in
            id += 1
            return id
        }
        (messages, messageContinuation) = AsyncStream.makeStream(of: String.self)
        (outgoing, outgoingContinuation) = AsyncStream.makeStream(of: (@Sendable () -> String?).self)
    }

    /// Queues a message whose text `make` builds when its turn comes, on the connection's own
    /// task, not on the caller's actor (nil: nothing to send after all).
    func send(_ make: @escaping @Sendable () -> String?) {
        let admitted = queued.withLock { count in
            guard count < maxQueued else { return false }
            count += 1
            return true
        }
        guard admitted else {
            // The page stopped reading: close it rather than queue without end.
            outgoingContinuation.finish()
            channel.withLock { $0 }?.close(promise: nil)
            return
        }
        if case .terminated = outgoingContinuation.yield(make) {
            queued.withLock { $0 -= 1 }
        }
    }

    /// Messages queued and not written yet: a page that reads slowly has a backlog.
    var backlog: Int { queued.withLock { $0 } }

    /// Closes the connection once what was queued is written.
    func close() {
        outgoingContinuation.finish()
    }

    /// Reads and writes until either side closes.
    func run(on channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async {
        self.channel.withLock { $0 = channel.channel }
        defer { self.channel.withLock { $0 = nil } }
        do {
            try await channel.executeThenClose { inbound, outbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await self.read(inbound, replyingOn: outbound) }
                    group.addTask { try await self.write(to: outbound) }
                    _ = try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            // The page went away or sent something that is not WebSocket: either way, done.
        }
        messageContinuation.finish()
        outgoingContinuation.finish()
    }

    private func read(
        _ inbound: NIOAsyncChannelInboundStream<WebSocketFrame>,
        replyingOn outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    ) async throws {
        for try await frame in inbound {
            switch frame.opcode {
            case .text:
                messageContinuation.yield(String(buffer: frame.unmaskedData))
            case .ping:
                try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readSlice(length: 2) ?? ByteBuffer()
                try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
                return
            default:
                // Binary frames and pongs mean nothing here.
                continue
            }
        }
    }

    private func write(to outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>) async throws {
        for await make in outgoing {
            defer { queued.withLock { $0 -= 1 } }
            guard let text = make() else { continue }
            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
        }
        // Closed by the inspector: say goodbye (1001, going away).
        var goodbye = ByteBuffer()
        goodbye.writeInteger(UInt16(1001))
        try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: goodbye))
    }
}
