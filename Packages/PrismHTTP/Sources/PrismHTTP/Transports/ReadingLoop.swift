#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import NIOCore
import Synchronization

/// Where a client's connections last read, and how many of its exchanges are under way: where
/// its next exchange starts (``PrismAsyncHTTPClientTransport/collect(_:body:deadline:)``).
///
/// AsyncHTTPClient's delegate API calls the delegate on the exchange's own event loop, and
/// hops there from a connection on another loop: one wake-up of that loop's thread per call
/// (the head, each part of the body, the end). Its pool leases an idle connection on the loop
/// the exchange prefers first, any other idle one next, and opens a new one on the preferred
/// loop. So an exchange should start on the loop of the connection it will get, when that is
/// known:
///
/// | when the exchange starts | where it starts | why |
/// |---|---|---|
/// | no other exchange of the client under way, after a read | on the loop of the last read | one request at a time: the one kept-alive connection is there, and the exchange is registered, timed and written on that loop at once, for one wake-up of it (from the caller's thread, each of those steps would wake it, and so would each write of a body) |
/// | others under way | from the caller's thread, on AsyncHTTPClient's choice of loop (a body through the async API, which writes it on the connection's loop) | busy loops take those steps as they come; one loop for all would put every connection on it |
/// | nothing read yet, or an app's own client (no note taken) | the same | nothing tells where a connection waits |
final class ReadingLoop: Sendable {
    private let loops: [any EventLoop]
    /// The index in `loops` of the loop of the last read; -1 before any.
    private let last = Atomic<Int>(-1)
    /// The exchanges started (``begin()``) and not ended (``end()``).
    private let underWay = Atomic<Int>(0)

    init(group: any EventLoopGroup = HTTPClient.defaultEventLoopGroup) {
        loops = Array(group.makeIterator())
    }

    /// Counts an exchange as under way until ``end()``; the loop of the last read when no other
    /// one is, else nil.
    func begin() -> (any EventLoop)? {
        let others = underWay.wrappingAdd(1, ordering: .relaxed).oldValue
        guard others == 0 else { return nil }
        let index = last.load(ordering: .relaxed)
        return index >= 0 ? loops[index] : nil
    }

    /// An exchange counted by ``begin()`` has ended.
    func end() {
        underWay.wrappingSubtract(1, ordering: .relaxed)
    }

    /// A connection initializer that runs `then` (AsyncHTTPClient's debug initializer, when a
    /// configuration has one) and has the connection note its reads here.
    func noting(then: (@Sendable (any Channel) -> EventLoopFuture<Void>)? = nil)
        -> @Sendable (any Channel) -> EventLoopFuture<Void>
    {
        { [self] channel in
            let noted: EventLoopFuture<Void>
            if let index = loops.firstIndex(where: { $0 === channel.eventLoop }) {
                noted = channel.pipeline.addHandler(Note(reading: self, index: index), position: .first)
            } else {
                noted = channel.eventLoop.makeSucceededVoidFuture()
            }
            guard let then else { return noted }
            return noted.flatMap { then(channel) }
        }
    }

    /// Notes each read of a connection as its loop's.
    private final class Note: ChannelInboundHandler, Sendable {
        typealias InboundIn = NIOAny
        let reading: ReadingLoop
        let index: Int

        init(reading: ReadingLoop, index: Int) {
            self.reading = reading
            self.index = index
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            // Written only when it changes: loops that read by turns do not take the line
            // from each other on every read.
            if reading.last.load(ordering: .relaxed) != index { reading.last.store(index, ordering: .relaxed) }
            context.fireChannelReadComplete()
        }
    }
}
#endif
