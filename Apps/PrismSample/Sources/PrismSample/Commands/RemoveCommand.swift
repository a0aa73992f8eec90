import ArgumentParser

/// `prism-sample remove 2`: removes a task (`undo` brings it back).
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a task.")

    @OptionGroup var options: SessionOptions

    @Argument(help: "The task's number, as `list` shows it.")
    var id: Int

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            let item = try session.remove(id: id)
            Console.line("Removed #\(item.id): \(item.title) (undo brings it back)")
        }
    }
}
