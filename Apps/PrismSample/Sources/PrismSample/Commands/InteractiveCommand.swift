import ArgumentParser

/// `prism-sample interactive`: a shell to drive the app a command at a time.
struct InteractiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interactive",
        abstract: "Drive the app a command at a time (add, list, done, undo, go <screen>, sync, ...).",
        discussion:
            "Reads commands from standard input, typed or piped: `printf 'add Milk\\nlist\\n' | prism-sample interactive`."
    )

    @OptionGroup var options: SessionOptions
    @OptionGroup var server: ServerOptions

    @MainActor
    func run() async throws {
        try await TaskSession.run(
            in: options.directory, server: server.target, timeout: server.requestTimeout
        ) { session in
            await InteractiveShell(session: session).run()
        }
    }
}
