import ArgumentParser
import Foundation

/// Which server to sync with: `--server <url>`, else a demo server started for the run.
struct ServerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The task server to sync with, such as http://127.0.0.1:8080 (`prism-sample serve` runs one).",
            discussion: "Without it, the first sync starts a demo server inside prism-sample for the run.",
            valueName: "url"
        )
    )
    var server: String?

    @Option(help: ArgumentHelp("How long one attempt of a request may take, in seconds.", valueName: "seconds"))
    var timeout: Double = 2

    /// ``timeout`` as a duration.
    var requestTimeout: Duration {
        .milliseconds(Int64((timeout * 1_000).rounded()))
    }

    /// The server to talk to.
    var target: SyncConnection.Target {
        guard let server, let url = Self.url(server) else { return .demoServer }
        return .server(url)
    }

    func validate() throws {
        guard timeout > 0, timeout <= 600 else {
            throw ValidationError("--timeout must be more than 0 and at most 600.")
        }
        if let server, Self.url(server) == nil {
            throw ValidationError(
                "--server must be an http:// or https:// URL with a host, such as http://127.0.0.1:8080.")
        }
    }

    /// `text` as a server URL, or nil when it is not an http(s) URL with a host.
    static func url(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }
}

extension ServerOptions {
    /// Runs `body` in a task session of `directory` with a client of the server these options
    /// name, connected first; a server that cannot be reached is a ``SampleError`` that says so.
    @MainActor
    func withClient<Result>(
        in directory: URL, _ body: (TaskSession, TaskSyncClient) async throws -> Result
    ) async throws -> Result {
        try await TaskSession.run(in: directory, server: target, timeout: requestTimeout) { session in
            let client: TaskSyncClient
            do {
                client = try await session.connection.connect()
            } catch {
                throw SampleError("Could not reach the server: \(SyncConnection.describe(error))")
            }
            return try await body(session, client)
        }
    }
}
