import ArgumentParser
import Foundation
import Prism

/// `prism-sample follow`: the server's list, live, as Server-Sent Events into a store.
struct FollowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Follow the server's list live (Server-Sent Events into a store) while it changes.",
        discussion: """
            TaskFeedFeature follows GET /tasks/events: each revision the server pushes becomes an \
            action, and the stream reconnects with Last-Event-ID if the connection drops. To show it \
            live, this command adds --changes tasks to the server's list, one every 0.3 s, while it \
            follows; then it stops the feed, which cancels its effect and closes the connection.
            """
    )

    @OptionGroup var options: SessionOptions
    @OptionGroup var server: ServerOptions

    @Option(help: ArgumentHelp("How many changes to make and see arrive, 1 to 20.", valueName: "n"))
    var changes = 3

    func validate() throws {
        guard (1...20).contains(changes) else { throw ValidationError("--changes must be 1 to 20.") }
    }

    @MainActor
    func run() async throws {
        try await server.withClient(in: options.directory) { _, client in
            let api = TaskAPI.live(server: client.server, client: client.adapter, options: client.options)
            try await Self.follow(changes: changes, api: api)
        }
    }

    @MainActor
    static func follow(changes: Int, api: TaskAPI) async throws {
        let store = PrismStore(initialState: TaskFeedFeature.State(), reducer: TaskFeedFeature()) {
            $0.taskAPI = api
        }
        store.send(.start)
        // The current revision arrives first.
        try await waitUntil { store.state.received >= 1 || store.state.failure != nil }
        if let failure = store.state.failure { throw SampleError("Could not follow the server: \(failure)") }
        Console.line("Following: revision \(store.state.revision ?? 0), \(store.state.titles.count) task(s).")
        var tasks = try await api.list().tasks
        for number in 1...changes {
            try await Task.sleep(for: .milliseconds(300))
            let id = (tasks.map(\.id).max() ?? 0) + 1
            tasks.append(RemoteTask(id: id, title: "Live change \(number)", done: false))
            _ = try await api.replace(tasks)
            try await waitUntil { store.state.received >= number + 1 || store.state.failure != nil }
            if let failure = store.state.failure { throw SampleError("The feed failed: \(failure)") }
            Console.line(
                "  pushed by the server: revision \(store.state.revision ?? 0), "
                    + "\(store.state.titles.count) task(s), the last \"\(store.state.titles.last ?? "")\"")
        }
        await store.send(.stop).finish()
        Console.line("Stopped following after \(store.state.received) revision(s): the connection is closed.")
    }

    /// Waits, a little at a time, until `condition` holds; gives up after 10 s.
    @MainActor
    private static func waitUntil(_ condition: @MainActor () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw SampleError("The server's events did not arrive in 10 s.")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
