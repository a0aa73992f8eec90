import Foundation

extension TaskSession {
    /// Opens the session in `directory`, runs `body` with it, and closes it (saving what
    /// changed) whether `body` succeeds or throws.
    ///
    /// Network activity and keychain notes are printed as they happen.
    static func run<Result>(
        in directory: URL,
        server: SyncConnection.Target = .demoServer,
        timeout: Duration = SyncConnection.defaultTimeout,
        _ body: (TaskSession) async throws -> Result
    ) async throws -> Result {
        let connection = SyncConnection(target: server, timeout: timeout, log: { Console.line($0) })
        let session = try TaskSession(directory: directory, connection: connection)
        let result: Result
        do {
            result = try await body(session)
        } catch {
            try? await session.close()
            throw error
        }
        try await session.close()
        return result
    }
}
