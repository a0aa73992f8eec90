import Foundation
import Prism

/// The soak's GraphQL: a mutation, a long-lived subscription that hears it, and short
/// subscriptions opened and read to their end, against the demo server's `/graphql` (over HTTP
/// and graphql-transport-ws on one WebSocket). The operations are generated from
/// `GraphQL/Soak.graphql` by `PrismGraphQLCodegenPlugin`.
struct SoakGraphQL: Sendable {
    let client: PrismGraphQLClient

    init(server: URL) {
        client = PrismGraphQLClient(endpointURL: server.appendingPathComponent("graphql"))
    }

    /// `mutation { addTask(title:) }`; GraphQL errors in the response are thrown.
    func addTask(title: String) async throws {
        let response = try await client.execute(AddTaskMutation(title: title))
        if let errors = response.errors, !errors.isEmpty {
            throw SampleError("addTask answered errors: \(errors.map(\.message).joined(separator: "; "))")
        }
    }

    /// Subscribes to `counter(to:)` and reads it to its end; returns how many events came.
    func count(to last: Int) async throws -> Int {
        let events = client.subscribe(CountSubscription(to: last))
        var received = 0
        for try await event in events where event.data != nil { received += 1 }
        return received
    }

    /// Follows `taskAdded` until the returned task is cancelled, calling `event` for each task
    /// added and `failed` if the subscription ends with an error.
    @MainActor
    func followTaskAdded(
        _ event: @escaping @MainActor () -> Void, failed: @escaping @MainActor (any Error) -> Void
    ) -> Task<Void, Never> {
        let events = client.subscribe(AddedSubscription())
        return Task { @MainActor in
            do {
                for try await added in events where added.data != nil { event() }
            } catch is CancellationError {
            } catch {
                failed(error)
            }
        }
    }
}
