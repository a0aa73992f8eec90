import Foundation
import Prism
import PrismTestServer

/// The server the sync feature talks to, connected on first use.
///
/// With a server URL (`--server`), it talks to that server. Without one, the first sync starts
/// the demo server (`PrismTestServer`, on 127.0.0.1 with a free port) inside this process, and
/// ``shutdown()`` stops it. The bearer token comes from the keychain (``TokenVault``); without a
/// keychain, the sync goes on without a token and says so.
actor SyncConnection {
    /// Which server to talk to.
    enum Target: Sendable {
        /// The server at this URL.
        case server(URL)
        /// A demo server started in this process on first use.
        case demoServer
    }

    private let target: Target
    private let timeout: Duration
    private let vault: TokenVault?
    private let log: @Sendable (String) -> Void
    private var client: TaskSyncClient?
    private var demoServer: PrismTestServer?
    private var chosenToken: String??

    /// How long one attempt of a request may take unless told otherwise.
    static let defaultTimeout = Duration.seconds(2)

    /// A connection to `target` that gives each attempt `timeout`, takes its token from `vault`
    /// (none when nil), and reports what it does to `log`.
    init(
        target: Target,
        timeout: Duration = SyncConnection.defaultTimeout,
        vault: TokenVault? = TokenVault(),
        log: @escaping @Sendable (String) -> Void
    ) {
        self.target = target
        self.timeout = timeout
        self.vault = vault
        self.log = log
    }

    /// The client, made (and the demo server started) on the first call.
    func connect() async throws -> TaskSyncClient {
        if let client { return client }
        let url: URL
        switch target {
        case .server(let server):
            url = server
        case .demoServer:
            let server = try await PrismTestServer.start()
            demoServer = server
            url = server.baseURL
            log("No --server given: started a demo server at \(url.absoluteString) for this run.")
        }
        let client = TaskSyncClient(server: url, token: token(), timeout: timeout, log: log)
        self.client = client
        return client
    }

    /// Sends `token` (none when nil) instead of asking the keychain, from the next connection on.
    func use(token: String?) {
        chosenToken = .some(token)
        client = nil
    }

    /// Syncs `tasks` with the server (see ``TaskSyncClient/sync(_:)``).
    func sync(_ tasks: [TaskItem]) async throws -> SyncReport {
        try await connect().sync(tasks)
    }

    /// Stops the demo server, if this connection started one.
    func shutdown() async {
        client = nil
        if let server = demoServer {
            demoServer = nil
            try? await server.shutdown()
        }
    }

    private func token() -> String? {
        if let chosenToken { return chosenToken }
        guard let vault else { return nil }
        switch vault.token() {
        case .stored(let token):
            log("Keychain: using the saved sync token (service \(vault.keychain.service)).")
            return token.value
        case .created(let token):
            log("Keychain: made a sync token and saved it in the keychain (service \(vault.keychain.service)).")
            return token.value
        case .unavailable(let reason):
            log("Keychain: not available here (\(reason)); syncing without a token.")
            return nil
        }
    }

    /// A sync failure in a sentence for the user.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as PrismHTTPError:
            let url = error.url.map { " [\($0.absoluteString)]" } ?? ""
            if error.code == .retriesExhausted, let last = error.attempts.last {
                return "\(error.attempts.count) attempts failed; the last one: \(last.message)\(url)"
            }
            return "\(error.message)\(url)"
        case is CancellationError:
            return "the sync was cancelled"
        default:
            return "\(error)"
        }
    }
}
