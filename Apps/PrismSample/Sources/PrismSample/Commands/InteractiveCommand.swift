import ArgumentParser
import PrismInspector

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

    @Flag(help: "Serve PrismInspector on 127.0.0.1 and print its URL: watch and steer the store from a browser.")
    var inspect = false

    @MainActor
    func run() async throws {
        try await TaskSession.run(
            in: options.directory, server: server.target, timeout: server.requestTimeout
        ) { session in
            let inspector =
                inspect
                ? try await PrismInspector.start(session.store, configuration: SampleInspector.configuration) : nil
            if let inspector {
                // Flushed at once: a reader at the other end of a pipe sees it before any command.
                Console.line("Inspector: \(inspector.url.absoluteString)   (open it in a browser; it closes at quit)")
                Console.flush()
            }
            await InteractiveShell(session: session).run()
            await inspector?.stop()
        }
    }
}
