import ArgumentParser

/// `prism-sample tour` (the default): a scripted tour of every part of Prism.
struct TourCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour",
        abstract: "A scripted tour of Prism on a task list (what `make run` shows).",
        discussion: """
            Runs on its own: it starts the demo server on 127.0.0.1 and keeps its files in a temporary folder, \
            so it touches none of your tasks.
            """
    )

    @Flag(help: "Keep the tour's temporary folder (tasks.json, history.json) to look at.")
    var keepFiles = false

    @MainActor
    func run() async throws {
        try await Tour.run(keepFiles: keepFiles)
    }
}
