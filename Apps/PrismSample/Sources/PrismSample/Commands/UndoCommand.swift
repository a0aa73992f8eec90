import ArgumentParser

/// `prism-sample undo`: undoes the last change, also one made by an earlier run.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Undo the last change.")

    @OptionGroup var options: SessionOptions

    @MainActor
    func run() async throws {
        try await TaskSession.run(in: options.directory) { session in
            Console.line("Undid: \(try session.undo())")
            Console.lines(Render.taskList(of: session))
        }
    }
}
