import Foundation
import PrismHTTP
import Testing

@testable import PrismGraphQL

/// A subscription socket's queue of what to write, without a connection.
@Suite("A subscription socket's write queue")
struct SubscriptionSocketQueueTests {
    @Test("however many pings arrive before the writer gets to them, one pong waits to be written")
    func pongsAreCoalesced() async {
        let (_, post) = AsyncStream<SubscriptionDriver.Input>.makeStream()
        let settings = SubscriptionSettings(
            endpointURL: URL(string: "http://127.0.0.1:1/graphql")!, additionalHeaders: [:],
            networkClient: PrismNetworkAdapter(cache: nil), configuration: PrismGraphQLSubscriptionConfiguration())
        let socket = SubscriptionSocket(number: 1, settings: settings, post: post)
        for _ in 0..<10_000 { socket.send(GraphQLTransportWS.pong) }
        socket.send("subscribe 2")
        // The writer takes the pong: the next ping's pong may be queued again.
        socket.pongWritten()
        socket.send(GraphQLTransportWS.pong)
        socket.close(code: 1000, reason: "")
        var queued: [String] = []
        for await item in socket.outgoing {
            if case .text(let text) = item { queued.append(text) }
        }
        #expect(queued == [GraphQLTransportWS.pong, "subscribe 2", GraphQLTransportWS.pong])
    }
}
