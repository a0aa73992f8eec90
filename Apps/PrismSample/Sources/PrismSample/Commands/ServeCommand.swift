import ArgumentParser
import PrismTestServer

/// `prism-sample serve`: runs the demo server until Ctrl-C, for `sync --server` and
/// `interactive --server` from other terminals.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the demo task server until Ctrl-C.",
        discussion: """
            The server is PrismTestServer (Hummingbird): GET, PUT and POST /tasks, POST /tasks/fail-next, and the \
            routes Prism's own tests use. Sync with it from another terminal: \
            prism-sample sync --server http://127.0.0.1:<port>
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 for any free port).")
    var port = 8080

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535.") }
    }

    @MainActor
    func run() async throws {
        let server: PrismTestServer
        do {
            server = try await PrismTestServer.start(host: host, port: port)
        } catch {
            throw SampleError(
                "Could not start the demo server on \(host):\(port): \(error). Is the port in use? Try --port 0.")
        }
        Console.line("Demo server listening on \(server.baseURL.absoluteString)")
        Console.line("  Sync with it:  prism-sample sync --server \(server.baseURL.absoluteString)")
        Console.line("  See the list:  curl \(server.url("/tasks").absoluteString)")
        Console.line("Press Ctrl-C to stop.")
        Console.flush()
        let signal = await InterruptSignal.wait()
        Console.line("")
        Console.line("Stopping (signal \(signal))...")
        try await server.shutdown()
        Console.line("Stopped.")
    }
}
