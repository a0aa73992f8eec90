import Foundation
import Prism

/// The soak's GraphQL: a mutation, a long-lived subscription that hears it, and short
/// subscriptions opened and read to their end, against the demo server's `/graphql` (over HTTP
/// and graphql-transport-ws on one WebSocket).
struct SoakGraphQL: Sendable {
    let client: PrismGraphQLClient

    init(server: URL) {
        client = PrismGraphQLClient(endpointURL: server.appendingPathComponent("graphql"))
    }

    private struct Item: Decodable, Sendable {
        var id: Int
        var title: String
    }

    private struct AddTaskData: Decodable, Sendable {
        var addTask: Item
    }

    private struct TaskAddedData: Decodable, Sendable {
        var taskAdded: Item
    }

    private struct CounterData: Decodable, Sendable {
        var counter: Int
    }

    /// `mutation { addTask(title:) }`; GraphQL errors in the response are thrown.
    func addTask(title: String) async throws {
        let response: PrismGraphQLResponse<AddTaskData> = try await client.execute(
            PrismGraphQLQuery(
                query: "mutation AddTask($title: String!) { addTask(title: $title) { id title } }",
                variables: ["title": .string(title)],
                operationName: "AddTask"
            ))
        if let errors = response.errors, !errors.isEmpty {
            throw SampleError("addTask answered errors: \(errors.map(\.message).joined(separator: "; "))")
        }
    }

    /// Subscribes to `counter(to:)` and reads it to its end; returns how many events came.
    func count(to last: Int) async throws -> Int {
        let events = client.subscribe(
            PrismGraphQLSubscription(
                query: "subscription Count($to: Int!) { counter(to: $to, intervalMs: 10) }",
                variables: ["to": .int(last)],
                operationName: "Count"
            ),
            as: CounterData.self
        )
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
        let events = client.subscribe(
            PrismGraphQLSubscription(query: "subscription Added { taskAdded { id title } }", operationName: "Added"),
            as: TaskAddedData.self
        )
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
