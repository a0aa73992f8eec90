import ArgumentParser

/// `prism-sample redo`: redoes the change undone last.
struct RedoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "redo", abstract: "Redo the change undone last.")

    @OptionGroup var options: SessionOptions

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            Console.line("Redid: \(try session.redo())")
            Console.lines(Render.taskList(of: session))
        }
    }
}
