import Foundation
import Prism

/// Talks to a task server with PrismHTTP: typed requests, retries with exponential backoff, and
/// a response cache that revalidates with `ETag`s.
///
/// ```swift
/// let client = TaskSyncClient(server: url, token: "abc", log: { print($0) })
/// let report = try await client.sync(session.tasks.state.items)
/// ```
struct TaskSyncClient: Sendable {
    /// How failed requests are retried: transient failures (a 503, a refused connection) are
    /// tried again up to 4 times in all, 100 ms, 200 ms, 400 ms apart (plus a little jitter).
    static let retryPolicy = PrismExponentialBackoff(
        baseDelay: .milliseconds(100),
        maxDelay: .seconds(2),
        maxAttempts: 4,
        jitter: .milliseconds(50)
    )

    /// The server, such as `http://127.0.0.1:8080`.
    let server: URL
    /// The client: its cache lives as long as this value.
    let adapter: PrismNetworkAdapter
    /// How each request is sent: its timeout and the retry policy.
    let options: PrismRequestOptions

    /// Creates a client for `server` that sends `token` as a bearer token (when there is one),
    /// gives each attempt `timeout`, and reports every network exchange to `log`.
    init(server: URL, token: String?, timeout: Duration, log: @escaping @Sendable (String) -> Void) {
        self.server = server
        self.options = PrismRequestOptions(timeout: timeout, retryPolicy: Self.retryPolicy)
        var interceptors: [any PrismRequestInterceptor] = []
        if let token { interceptors.append(PrismInterceptor.headers(["Authorization": "Bearer \(token)"])) }
        self.adapter = PrismNetworkAdapter(
            transport: LoggingTransport(base: PrismNetworkAdapter.defaultTransport, write: log),
            cache: PrismResponseCache(maxSize: 50),
            interceptors: interceptors
        )
    }

    /// The server's list: `GET /tasks`, retried, through the cache.
    ///
    /// The server answers with an `ETag` and `Cache-Control: no-cache`, so the client keeps the
    /// list and revalidates it next time (a `304` costs no body). With `maxAge`, the server lets
    /// the client keep it that long without asking at all.
    func fetch(maxAge: Int? = nil) async throws -> RemoteTaskList {
        let request = TaskListRequest(endpoint: TaskEndpoint(server: server, route: .list(maxAge: maxAge)))
        return try await adapter.request(on: request, options: options)
    }

    /// Replaces the server's list with `tasks`: `PUT /tasks`, retried (PUT is idempotent).
    func upload(_ tasks: [TaskItem]) async throws -> RemoteTaskList {
        let upload = RemoteTaskUpload(tasks: tasks.map(RemoteTask.init))
        let request = TaskListRequest(endpoint: TaskEndpoint(server: server, route: .replace(upload)))
        return try await adapter.request(on: request, options: options)
    }

    /// Makes the demo server fail the next `count` requests to `/tasks` (sent once, no retry).
    func failNext(_ count: Int) async throws {
        let request = try TaskEndpoint(server: server, route: .failNext(count: count)).makeHTTPRequest()
        let response = try await adapter.send(request, options: PrismRequestOptions(timeout: options.timeout))
        guard response.isSuccess else {
            throw SampleError("\(server.absoluteString) did not accept /tasks/fail-next (\(response.statusCode)).")
        }
    }

    /// Brings the server up to date with `tasks`; the local list wins.
    ///
    /// Reads the server's list (revalidating the cached copy: a `304` when nothing changed) and,
    /// only when it differs, uploads the local one and reads it back to check that the server
    /// kept it. The read-back also refreshes the cache, so the next sync's read is a `304`.
    func sync(_ tasks: [TaskItem]) async throws -> SyncReport {
        let wanted = tasks.map(RemoteTask.init)
        let remote = try await fetch()
        if remote.tasks == wanted {
            return SyncReport(
                serverURL: server.absoluteString, revision: remote.revision, uploaded: false, taskCount: tasks.count)
        }
        _ = try await upload(tasks)
        let stored = try await fetch()
        guard stored.tasks == wanted else {
            throw SampleError(
                "\(server.absoluteString) did not keep the uploaded list (it has revision \(stored.revision)).")
        }
        return SyncReport(
            serverURL: server.absoluteString, revision: stored.revision, uploaded: true, taskCount: stored.tasks.count)
    }
}
