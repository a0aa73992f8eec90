import ArgumentParser

/// `prism-sample done 2`: marks a task done.
struct DoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark a task done.")

    @OptionGroup var options: SessionOptions

    @Argument(help: "The task's number, as `list` shows it.")
    var id: Int

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            let wasDone = session.tasks.state.item(id: id)?.isDone == true
            let item = try session.complete(id: id)
            Console.line(wasDone ? "#\(item.id) was already done: \(item.title)" : "Done #\(item.id): \(item.title)")
        }
    }
}
