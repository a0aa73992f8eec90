import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP listener on 127.0.0.1 that accepts every connection, reads what arrives and never
/// answers: a server that hangs in the middle of a WebSocket upgrade (or of any HTTP request).
///
/// ```swift
/// try await PrismSilentListener.withRunning { listener in
///     let url = URL(string: "ws://127.0.0.1:\(listener.port)/graphql")!
///     // ... a client that must give up on its own
///     #expect(listener.openConnections == 0)
/// }
/// ```
public final class PrismSilentListener: PrismLocalListener {
    /// The port it listens on (ephemeral).
    public let port: Int
    private let channel: any Channel
    private let counts: Counts

    private init(channel: any Channel, counts: Counts) {
        self.channel = channel
        self.counts = counts
        self.port = channel.localAddress?.port ?? 0
    }

    /// Connections accepted so far.
    public var acceptedConnections: Int { counts.value.withLockedValue { $0.accepted } }

    /// Connections accepted and not yet closed by the client.
    public var openConnections: Int { counts.value.withLockedValue { $0.open } }

    /// Bytes received on every connection.
    public var bytesReceived: Int { counts.value.withLockedValue { $0.bytes } }

    /// Starts a listener on 127.0.0.1 and an ephemeral port.
    public static func start() async throws -> PrismSilentListener {
        let counts = Counts()
        let channel = try await bindLocalListener { Silence(counts: counts) }
        return PrismSilentListener(channel: channel, counts: counts)
    }

    /// Stops listening and closes the connections still open.
    public func shutdown() async throws {
        try await channel.close()
        for child in counts.value.withLockedValue({ Array($0.children.values) }) {
            try? await child.close()
        }
    }

    final class Counts: Sendable {
        struct Values {
            var accepted = 0
            var open = 0
            var bytes = 0
            var children: [ObjectIdentifier: any Channel] = [:]
        }

        let value = NIOLockedValueBox(Values())
    }

    /// Reads and discards; counts connections and bytes.
    private final class Silence: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let counts: Counts

        init(counts: Counts) { self.counts = counts }

        func channelActive(context: ChannelHandlerContext) {
            let channel = context.channel
            counts.value.withLockedValue {
                $0.accepted += 1
                $0.open += 1
                $0.children[ObjectIdentifier(channel)] = channel
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            let channel = context.channel
            counts.value.withLockedValue {
                $0.open -= 1
                $0.children[ObjectIdentifier(channel)] = nil
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let count = unwrapInboundIn(data).readableBytes
            counts.value.withLockedValue { $0.bytes += count }
        }
    }
}
