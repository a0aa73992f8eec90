import Foundation
import Prism

/// The task server as the sample's live features reach it: a dependency
/// (`@Dependency(\.taskAPI)`), so that the app gives them a client of the real server and a test
/// gives them one whose transport is a `PrismStubTransport`.
struct TaskAPI: Sendable {
    /// Reads the server's list (`GET /tasks`).
    var list: @Sendable () async throws -> RemoteTaskList
    /// Replaces the server's list (`PUT /tasks`) and returns what it stored.
    var replace: @Sendable (_ tasks: [RemoteTask]) async throws -> RemoteTaskList
    /// The server's list each time it changes (`GET /tasks/events`, Server-Sent Events that
    /// reconnect with `Last-Event-ID`), the current one first, until the stream is left.
    var follow: @Sendable () -> AsyncThrowingStream<RemoteTaskList, any Error>

    /// The API of the server at `server`, reached through `client` with `options` (its retry
    /// policy and timeout).
    static func live(server: URL, client: PrismNetworkAdapter, options: PrismRequestOptions) -> TaskAPI {
        TaskAPI(
            list: {
                let endpoint = TaskEndpoint(server: server, route: .list(maxAge: nil))
                return try await client.request(on: TaskListRequest(endpoint: endpoint), options: options)
            },
            replace: { tasks in
                let endpoint = TaskEndpoint(server: server, route: .replace(RemoteTaskUpload(tasks: tasks)))
                return try await client.request(on: TaskListRequest(endpoint: endpoint), options: options)
            },
            follow: {
                let events = client.events(
                    on: TaskEndpoint(server: server, route: .events), options: options,
                    reconnection: TaskSyncClient.retryPolicy, idleTimeout: .seconds(30))
                return AsyncThrowingStream { continuation in
                    let reading = Task {
                        do {
                            for try await event in events where event.type == "revision" {
                                continuation.yield(try event.decode(RemoteTaskList.self))
                            }
                            continuation.finish()
                        } catch {
                            continuation.finish(throwing: error)
                        }
                    }
                    // Leaving the stream ends the reading, which closes the connection.
                    continuation.onTermination = { _ in reading.cancel() }
                }
            }
        )
    }
}

extension TaskAPI: TestDependencyKey {
    /// In a test that did not set `\.taskAPI`, any use fails the test, naming the dependency.
    static let testValue = TaskAPI(
        list: unimplemented("TaskAPI.list"),
        replace: unimplemented("TaskAPI.replace"),
        follow: unimplemented("TaskAPI.follow", placeholder: AsyncThrowingStream { $0.finish() })
    )
}

extension DependencyValues {
    /// The task server the live features talk to.
    var taskAPI: TaskAPI {
        get { self[TaskAPI.self] }
        set { self[TaskAPI.self] = newValue }
    }
}
