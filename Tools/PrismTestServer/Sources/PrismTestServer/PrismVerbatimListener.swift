import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP listener on 127.0.0.1 that answers each request head with the next of its answers,
/// written byte for byte: what an HTTP server library would not send (it drops a 304's
/// `Content-Length`, for one, and never ends a body short of it). The connection stays open
/// after each answer but the last, after which it is closed: a last answer whose body is shorter
/// than its `Content-Length` is a body cut off midway. A request after the last answer has its
/// connection closed unanswered.
///
/// ```swift
/// try await PrismVerbatimListener.withRunning(answering: [
///     "HTTP/1.1 304 Not Modified\r\nContent-Length: 5000000\r\n\r\n",
/// ]) { listener in
///     let url = URL(string: "http://127.0.0.1:\(listener.port)/")!
///     // a conditional GET of url gets the 304, with its Content-Length and no body
/// }
/// ```
///
/// A request is counted when its head has arrived (its blank line), so a request's body must
/// not contain a blank line.
public final class PrismVerbatimListener: Sendable {
    /// The port it listens on (ephemeral).
    public let port: Int
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>

    struct State {
        var answers: [String]
        var requests = 0
    }

    private init(channel: any Channel, state: NIOLockedValueBox<State>) {
        self.channel = channel
        self.state = state
        self.port = channel.localAddress?.port ?? 0
    }

    /// Request heads received so far, answered or not.
    public var requestsReceived: Int { state.withLockedValue { $0.requests } }

    /// Starts a listener on 127.0.0.1 and an ephemeral port that gives `answers`, in order, one
    /// to each request head, whichever connection it comes on.
    public static func start(answering answers: [String]) async throws -> PrismVerbatimListener {
        let state = NIOLockedValueBox(State(answers: answers.reversed()))
        let channel = try await bindLocalListener { AnswerVerbatim(state: state) }
        return PrismVerbatimListener(channel: channel, state: state)
    }

    /// Starts a listener giving `answers`, runs `body` with it (on the caller's actor,
    /// `isolation`), and stops it whatever happens.
    public static func withRunning<T>(
        answering answers: [String],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PrismVerbatimListener) async throws -> T
    ) async throws -> T {
        try await runStopping(
            try await start(answering: answers), stop: { try await $0.shutdown() }, isolation: isolation, body)
    }

    /// Stops listening. Connections still open close when their client closes them.
    public func shutdown() async throws {
        try await channel.close()
    }

    /// Writes the next answer for each request head; closes the connection when none is left.
    private final class AnswerVerbatim: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let state: NIOLockedValueBox<State>
        /// Where request heads end (event loop only).
        private var heads = RequestHeadEnds()

        init(state: NIOLockedValueBox<State>) { self.state = state }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            for _ in 0..<heads.count(in: unwrapInboundIn(data)) {
                let (answer, isLast) = state.withLockedValue { state -> (String?, Bool) in
                    state.requests += 1
                    return (state.answers.popLast(), state.answers.isEmpty)
                }
                guard let answer else {
                    context.close(promise: nil)
                    return
                }
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
                if isLast {
                    context.close(promise: nil)
                    return
                }
            }
        }
    }
}
