import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// An inspector's page, as far as the streaming benchmark needs one: it opens the WebSocket the
/// page opens, reads every message as it comes (decoding the batches of actions, as the page
/// does), and counts the actions it was sent and those it was told it will never see.
final class InspectorPageClient: Sendable {
    /// What the page was told so far.
    struct Counts: Sendable {
        /// The numbers of the actions the page received.
        var received = Set<Int>()
        /// The actions the inspector said the page will never see.
        var dropped = 0
        /// The newest action number the page received.
        var newest = -1
        /// How many `actions` messages came.
        var batches = 0
    }

    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private let task: Task<Void, Never>
    private let box: LockedCounts

    private init(outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>, task: Task<Void, Never>, box: LockedCounts) {
        self.outbound = outbound
        self.task = task
        self.box = box
    }

    /// What the page was told so far.
    var counts: Counts { box.value }

    /// Opens the page's WebSocket for the inspector at `url` (its printed URL).
    static func open(_ url: URL) async throws -> InspectorPageClient {
        let port = url.port ?? 80
        let path = url.path.hasSuffix("/") ? url.path + "socket" : url.path + "/socket"
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "127.0.0.1:\(port)")
        headers.add(name: "Origin", value: "http://127.0.0.1:\(port)")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        let upgrade: EventLoopFuture<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?> = try await ClientBootstrap(
            group: MultiThreadedEventLoopGroup.singleton
        )
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let upgrader = NIOTypedWebSocketClientUpgrader<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?>(
                    maxFrameSize: 1 << 26
                ) { channel, _ in
                    channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel(wrappingChannelSynchronously: channel) }
                }
                var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(
                    upgradeConfiguration: NIOTypedHTTPClientUpgradeConfiguration(
                        upgradeRequestHead: head,
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.close(promise: nil)
                            return channel.eventLoop.makeSucceededFuture(nil)
                        }
                    )
                )
                pipeline.leftOverBytesStrategy = .forwardBytes
                return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                    configuration: pipeline)
            }
        }
        guard let channel = try await upgrade.get() else {
            throw BenchmarkError("the inspector refused its page's WebSocket")
        }
        let (writers, writerContinuation) = AsyncStream.makeStream(
            of: NIOAsyncChannelOutboundWriter<WebSocketFrame>.self)
        let box = LockedCounts()
        let task = Task {
            try? await channel.executeThenClose { inbound, outbound in
                writerContinuation.yield(outbound)
                writerContinuation.finish()
                let decoder = JSONDecoder()
                for try await frame in inbound where frame.opcode == .text {
                    let data = Data(frame.unmaskedData.readableBytesView)
                    guard let batch = try? decoder.decode(Batch.self, from: data), batch.type == "actions" else {
                        continue
                    }
                    box.add(batch)
                }
            }
            writerContinuation.finish()
        }
        var iterator = writers.makeAsyncIterator()
        guard let writer = await iterator.next() else {
            throw BenchmarkError("the page's WebSocket closed at once")
        }
        return InspectorPageClient(outbound: writer, task: task, box: box)
    }

    /// Waits until the page received action `index` (or was told it missed it), for at most
    /// `timeout`; returns whether it did.
    @discardableResult
    func waitForAction(_ index: Int, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if counts.newest >= index { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// Closes the WebSocket.
    func close() async {
        outbound.finish()
        task.cancel()
        await task.value
    }
}

/// An `actions` message, as far as counting goes.
private struct Batch: Decodable {
    struct Entry: Decodable {
        var index: Int
        var name: String
    }

    var type: String
    var entries: [Entry]?
    var dropped: Int?
}

private final class LockedCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = InspectorPageClient.Counts()

    var value: InspectorPageClient.Counts { lock.withLock { counts } }

    func add(_ batch: Batch) {
        lock.withLock {
            counts.batches += 1
            counts.dropped += batch.dropped ?? 0
            for entry in batch.entries ?? [] {
                counts.received.insert(entry.index)
                counts.newest = max(counts.newest, entry.index)
            }
        }
    }
}

/// A benchmark that could not run as set up.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
