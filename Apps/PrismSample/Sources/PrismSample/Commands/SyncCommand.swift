import ArgumentParser

/// `prism-sample sync --server http://127.0.0.1:8080`: syncs the task list with a server.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the task list with a task server (PrismHTTP, with retries and caching).",
        discussion: """
            Reads the server's list (GET /tasks) and uploads the local one (PUT /tasks) when they differ; \
            failed requests are retried with exponential backoff. Every request that goes over the network \
            is shown.
            """
    )

    @OptionGroup var options: SessionOptions
    @OptionGroup var server: ServerOptions

    @Option(
        help: ArgumentHelp(
            "Make the server fail the next <n> requests first (0 to 3), to watch the retries.", valueName: "n")
    )
    var simulateFailures = 0

    func validate() throws {
        guard (0...3).contains(simulateFailures) else {
            throw ValidationError("--simulate-failures must be 0 to 3 (4 attempts are made in all).")
        }
    }

    @MainActor
    func run() async throws {
        try await TaskSession.run(
            in: options.directory, server: server.target, timeout: server.requestTimeout
        ) { session in
            if simulateFailures > 0 {
                do {
                    try await session.connection.connect().failNext(simulateFailures)
                } catch {
                    throw SampleError("Could not reach the server: \(SyncConnection.describe(error))")
                }
                Console.line("The server will fail the next \(simulateFailures) request(s).")
            }
            Console.line("Syncing \(session.tasks.state.items.count) task(s)...")
            let state = await session.syncNow()
            if case .failed(let reason) = state.status {
                throw SampleError("Could not sync: \(reason)")
            }
            Console.line(state.summary)
        }
    }
}
