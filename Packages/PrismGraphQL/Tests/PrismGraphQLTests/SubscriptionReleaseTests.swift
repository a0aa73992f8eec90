import Foundation
import PrismHTTP
import PrismTestServer
import PrismTestSupport
import Testing

@testable import PrismGraphQL

/// A subscription session (the connection every subscription of a client shares, its driver and
/// its socket) lives as long as the client or a stream of it does, and no longer: the socket
/// closes when the last of them goes, without a call to close it.
@MainActor
@Suite("Subscription sessions are freed, and their sockets closed, when their owners drop them")
struct SubscriptionReleaseTests {
    @Test("a client whose subscription ended is freed with its session, and the socket closes")
    func clientAndSessionFreed() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            weak var session: SubscriptionConnection?
            do {
                let client = server.subscriptionClient()
                session = client.subscriptionConnection
                var values: [Int] = []
                for try await event in client.subscribe(counterSubscription(to: 3), as: CounterData.self) {
                    values.append(try event.requireData().counter)
                }
                #expect(values == [1, 2, 3])
            }
            try await eventually { session == nil }
            try await eventually(server) { $0.openConnections == 0 && $0.activeSubscriptions == 0 }
        }
    }

    @Test("a stream outlives its client and still delivers; dropping it frees the session and closes the socket")
    func streamOutlivesClient() async throws {
        try await withServer { (server: PrismTestServer) async throws in
            weak var session: SubscriptionConnection?
            do {
                let stream: AsyncThrowingStream<PrismGraphQLResponse<TaskAddedData>, any Error>
                do {
                    let client = server.subscriptionClient()
                    session = client.subscriptionConnection
                    stream = client.subscribe(taskAddedSubscription, as: TaskAddedData.self)
                }
                var iterator = stream.makeAsyncIterator()
                try await eventually(server) { $0.activeSubscriptions == 1 }
                try await addTask("kept alive by its stream", on: server)
                let event = try await iterator.next()
                #expect(try event?.requireData().taskAdded.title == "kept alive by its stream")
                #expect(session != nil)
            }
            try await eventually { session == nil }
            try await eventually(server) { $0.openConnections == 0 && $0.activeSubscriptions == 0 }
        }
    }
}
