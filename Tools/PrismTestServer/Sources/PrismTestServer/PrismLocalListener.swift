import NIOCore
import NIOPosix

/// A listener on 127.0.0.1 that a test starts, uses and stops: ``PrismSilentListener``,
/// ``PrismClosingListener``.
public protocol PrismLocalListener: Sendable {
    /// Starts a listener on 127.0.0.1 and an ephemeral port.
    static func start() async throws -> Self
    /// Stops listening.
    func shutdown() async throws
}

extension PrismLocalListener {
    /// Starts a listener, runs `body` with it (on the caller's actor, `isolation`), and stops it
    /// whatever happens.
    public static func withRunning<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Self) async throws -> T
    ) async throws -> T {
        try await runStopping(try await start(), stop: { try await $0.shutdown() }, isolation: isolation, body)
    }
}

/// Runs `body` with `listener` (on the caller's actor, `isolation`), then stops it with `stop`,
/// whether `body` returns or throws; a failure to stop is thrown only when `body` returned.
func runStopping<Listener: Sendable, T>(
    _ listener: Listener,
    stop: (Listener) async throws -> Void,
    isolation: isolated (any Actor)?,
    _ body: (Listener) async throws -> T
) async throws -> T {
    do {
        let result = try await body(listener)
        try await stop(listener)
        return result
    } catch {
        try? await stop(listener)
        throw error
    }
}

/// A server channel bound to 127.0.0.1 and an ephemeral port, each accepted connection set up by
/// `handler`: what every listener here listens with.
func bindLocalListener(_ handler: @escaping @Sendable () -> any ChannelHandler) async throws -> any Channel {
    try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.backlog, value: 64)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(handler())
            }
        }
        .bind(host: "127.0.0.1", port: 0)
        .get()
}

/// Finds where request heads end (a blank line) in the bytes a connection reads, a blank line
/// split across two reads included.
struct RequestHeadEnds {
    /// The last bytes seen, which may begin a blank line.
    private var tail: [UInt8] = []

    /// How many request heads end in `buffer`, read after the bytes before it.
    mutating func count(in buffer: ByteBuffer) -> Int {
        let bytes = tail + Array(buffer: buffer)
        var index = 0
        var ends = 0
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                ends += 1
                index += 4
            } else {
                index += 1
            }
        }
        tail = Array(bytes[max(index, bytes.count - 3)...])
        return ends
    }
}
