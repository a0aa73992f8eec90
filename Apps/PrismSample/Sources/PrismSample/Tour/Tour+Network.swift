import Foundation
import Prism

extension Tour {
    func showKeychain() async {
        heading("A secret in the keychain (PrismKeychainPersistence)")
        switch vault.token() {
        case .stored(let saved), .created(let saved):
            token = saved.value
            code(
                "try keychain.save(token, key: \"sync-token\")",
                "saved in the keychain, service \(vault.keychain.service)")
            let loaded: TokenVault.Token? = try? vault.keychain.load(key: vault.key)
            code("try keychain.load(key: \"sync-token\")", loaded == saved ? "the same token" : "a different value")
            note("Secrets go to the keychain, never to the JSON files; sync sends this one as a bearer token.")
        case .unavailable(let reason):
            note("The keychain is not available here: \(reason).")
            note("(On Linux, run under Tools/scripts/with-keyring.sh for one.) The tour goes on without a token.")
        }
        await session.connection.use(token: token)
    }

    func showSyncWithRetries() async {
        heading("Sync over HTTP with retries (PrismHTTP, PrismExponentialBackoff)")
        note("The demo server (PrismTestServer) runs at \(server.baseURL.absoluteString).")
        note("It is told to fail the next 2 requests to /tasks:")
        do {
            try await session.connection.connect().failNext(2)
        } catch {
            note("Could not arm the server's failures: \(SyncConnection.describe(error))")
        }
        note("Syncing:")
        let state = await session.syncNow()
        note(state.summary)
        note("The 503s were retried after 100 ms, then 200 ms (plus jitter); the sync never saw them.")
        if let token {
            let sent = server.requests.filter { $0.path == "/tasks" }.map { $0.headers["authorization"] }
            if !sent.isEmpty, sent.allSatisfy({ $0 == "Bearer \(token)" }) {
                note("Every request carried the keychain's token (Authorization: Bearer \(token)).")
            }
        }
    }

    func showCaching() async throws {
        heading("Caching: ETag revalidation and max-age (PrismResponseCache)")
        note("Sync again; nothing changed, so the cached list is revalidated:")
        let state = await session.syncNow()
        note(state.summary)
        note("The server answered 304 Not Modified with no body; the client used its cached copy.")
        let client = try await session.connection.connect()
        let before = server.hits("/tasks")
        _ = try await client.fetch(maxAge: 60)
        _ = try await client.fetch(maxAge: 60)
        let requests = server.hits("/tasks") - before
        code("client.fetch(maxAge: 60), twice", "\(requests) request(s) reached the server; the second was a cache hit")
        note("The server has seen \(server.hits("/tasks")) requests to /tasks in all.")
    }

    func showGraphQL() async {
        heading("A GraphQL query (PrismGraphQL)")
        await GraphQLDemo.run(server: server.baseURL, token: token)
    }
}
