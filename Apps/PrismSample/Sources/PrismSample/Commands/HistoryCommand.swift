import ArgumentParser

/// `prism-sample history`: the session's timeline, for time travel.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show every change of the task list; `travel <n>` goes back to one."
    )

    @OptionGroup var options: SessionOptions

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            Console.lines(Render.history(session.history.debugger))
        }
    }
}
