import ArgumentParser

/// `prism-sample travel 2`: time travel to a moment of the history.
struct TravelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travel",
        abstract: "Put the task list back as it was at a moment of the history (time travel).",
        discussion:
            "The moments are numbered by `history`. `undo` goes back from there; `redo` and `travel` go forward."
    )

    @OptionGroup var options: SessionOptions

    @Argument(help: "The moment's number, as `history` shows it.")
    var index: Int

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            let snapshot = try session.travel(to: index)
            Console.line("Traveled to moment \(snapshot.index) (after \(snapshot.action)):")
            Console.lines(Render.taskList(of: session))
        }
    }
}
