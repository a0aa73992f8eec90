import ArgumentParser

/// `prism-sample`: a task list built with Prism, to read and to run.
///
/// Each subcommand is a file in `Commands/`; they all open a ``TaskSession`` (the store, the
/// features, the router, persistence and history) and close it, saved, when done.
@main
struct SampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prism-sample",
        abstract: "A task list built with Prism: store, scoped features, router, persistence, sync, undo, time travel.",
        discussion: """
            With no subcommand it runs the tour. The task list is saved between runs in --data-dir \
            (or $PRISM_SAMPLE_DATA_DIR, else \(SessionOptions.defaultFolderForHelp)).
            """,
        subcommands: [
            TourCommand.self,
            AddCommand.self,
            ListCommand.self,
            DoneCommand.self,
            RemoveCommand.self,
            UndoCommand.self,
            RedoCommand.self,
            HistoryCommand.self,
            TravelCommand.self,
            SyncCommand.self,
            SettingsCommand.self,
            SignInCommand.self,
            SignOutCommand.self,
            LiveCommand.self,
            FollowCommand.self,
            DownloadCommand.self,
            InteractiveCommand.self,
            SoakCommand.self,
            ServeCommand.self,
        ]
    )

    /// With no subcommand: the tour. (Not a default subcommand, so that a mistyped subcommand
    /// is reported as one, with the list of subcommands.)
    @MainActor
    func run() async throws {
        try await Tour.run(keepFiles: false)
    }
}
