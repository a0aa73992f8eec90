import ArgumentParser
import Foundation
import Prism

/// `prism-sample live`: the features that wait and call the network, run for real.
struct LiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Push the list, search it as you type, and watch the server's revision (retries, debounce, polling).",
        discussion: """
            Three features that wait and call the network, each tested without waiting or a server \
            (LiveFeatureTests, with a test clock and PrismStubTransport): TaskPushFeature uploads the \
            local list (failed attempts are retried with backoff), TaskSearchFeature searches the \
            server's list as the query is typed one letter at a time (one search runs, once typing \
            pauses), and RevisionWatchFeature polls the server's revision on a timer until stopped.
            """
    )

    @OptionGroup var options: SessionOptions
    @OptionGroup var server: ServerOptions

    @Argument(help: "What to search for in the task titles (typed one letter at a time).")
    var query = "a"

    @Option(help: ArgumentHelp("How many revision checks to watch for, 1 to 20.", valueName: "n"))
    var checks = 3

    func validate() throws {
        guard (1...20).contains(checks) else { throw ValidationError("--checks must be 1 to 20.") }
        guard !query.isEmpty else { throw ValidationError("The query cannot be empty.") }
    }

    @MainActor
    func run() async throws {
        try await server.withClient(in: options.directory) { session, client in
            let api = TaskAPI.live(server: client.server, client: client.adapter, options: client.options)
            try await Self.push(session.tasks.state.items.map(RemoteTask.init), api: api)
            try await Self.search(query, api: api)
            try await Self.watch(checks: checks, api: api)
        }
    }

    @MainActor
    static func push(_ tasks: [RemoteTask], api: TaskAPI) async throws {
        let store = PrismStore(initialState: TaskPushFeature.State(), reducer: TaskPushFeature()) {
            $0.taskAPI = api
        }
        await store.send(.push(tasks)).finish()
        if let failure = store.state.failure { throw SampleError("Could not push the list: \(failure)") }
        Console.line("Pushed \(tasks.count) task(s): the server is at revision \(store.state.revision ?? 0).")
    }

    @MainActor
    static func search(_ query: String, api: TaskAPI) async throws {
        let store = PrismStore(initialState: TaskSearchFeature.State(), reducer: TaskSearchFeature()) {
            $0.taskAPI = api
        }
        var typed = ""
        for letter in query.dropLast() {
            typed.append(letter)
            store.send(.queryChanged(typed))
            try await Task.sleep(for: .milliseconds(50))
        }
        // The last letter's search runs once typing pauses; the earlier ones were cancelled.
        await store.send(.queryChanged(query)).finish()
        if let failure = store.state.failure { throw SampleError("Could not search: \(failure)") }
        let titles = store.state.results.map { "\"\($0.title)\"" }.joined(separator: ", ")
        Console.line(
            "Typed \"\(query)\" one letter at a time: one search ran after the pause, "
                + "\(store.state.results.count) match(es)\(titles.isEmpty ? "" : ": \(titles)").")
    }

    @MainActor
    static func watch(checks: Int, api: TaskAPI) async throws {
        let store = PrismStore(
            initialState: RevisionWatchFeature.State(),
            reducer: RevisionWatchFeature(interval: .milliseconds(200))
        ) {
            $0.taskAPI = api
        }
        store.send(.start)
        while store.state.checks < checks, store.state.failure == nil {
            try await Task.sleep(for: .milliseconds(20))
        }
        await store.send(.stop).finish()
        if let failure = store.state.failure { throw SampleError("Could not watch the server: \(failure)") }
        Console.line(
            "Watched the server's revision (\(store.state.revision ?? 0)) for \(store.state.checks) check(s), "
                + "one every 0.2 s, then stopped the timer; \(store.state.changes) change(s) seen.")
    }
}
