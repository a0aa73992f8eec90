import ArgumentParser

/// `prism-sample add Buy milk`: adds a task.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a task.")

    @OptionGroup var options: SessionOptions

    @Argument(help: "What there is to do (the words are joined).")
    var title: [String]

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            let item = try session.add(title.joined(separator: " "))
            Console.line("Added #\(item.id): \(item.title)")
        }
    }
}
