import ArgumentParser

/// `prism-sample list`: shows the tasks.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the tasks.")

    @OptionGroup var options: SessionOptions

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            Console.lines(Render.taskList(of: session))
        }
    }
}
