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
        let listener = try await start()
        do {
            let result = try await body(listener)
            try await listener.shutdown()
            return result
        } catch {
            try? await listener.shutdown()
            throw error
        }
    }

    /// A server channel bound to 127.0.0.1 and an ephemeral port, each accepted connection set up
    /// by `handler`.
    static func bindLocal(
        _ handler: @escaping @Sendable () -> any ChannelHandler
    ) async throws -> any Channel {
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
}
