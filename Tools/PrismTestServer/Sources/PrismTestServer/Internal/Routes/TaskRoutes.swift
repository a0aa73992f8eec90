import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A task list to sync with, for the sample app's demo: `GET`, `PUT` and `POST /tasks`, and
/// `POST /tasks/fail-next` to make the next requests fail (to show retries).
///
/// | Route | Answer |
/// | --- | --- |
/// | `GET /tasks?max-age=<s>` | 200 `{"revision", "tasks": [{"id", "title", "done"}]}` with `ETag: "tasks-v<revision>"` and `Cache-Control: no-cache` (`max-age=<s>` when asked); 304 (ETag, no body) when `If-None-Match` matches |
/// | `PUT /tasks` | body `{"tasks": [{"id": <positive, unique>, "title": <non-empty>, "done": <optional bool>}]}` replaces the list (the revision grows only if it changed); 200 like `GET`; 400 `{"message"}` for any other body |
/// | `POST /tasks` | body `{"title": <non-empty>, "done": <optional bool>}` appends a task with the next id; 201 `{"id", "title", "done"}` with the new `ETag` and `Location: /tasks/<id>`; 400 `{"message"}` otherwise |
/// | `GET /tasks/events?limit=<n>&retry=<ms>` | `text/event-stream`: `retry`, then an event `revision` (`id: <revision>`, data as `GET /tasks`) now (unless `Last-Event-ID` is the current revision) and at each change; `: keep-alive` every 5 s; ends after `limit` events |
/// | `POST /tasks/fail-next?count=<n>&status=<code>&retryAfter=<s>` | the next `n` (default 1) requests to `/tasks` answer `status` (default 503, 400–599) `{"message": "simulated failure k of n"}`, with `Retry-After` when asked; 204 |
///
/// The list lives in ``ServerState`` (``TaskBoard``), so ``PrismTestServer/reset()`` empties it.
struct TaskRoutes: RouteGroup {
    /// The path of the task list.
    static let path = "/tasks"

    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.get(RouterPath(Self.path)) { request, _ -> Response in
            if let failure = self.takeFailure() { return failure }
            let board = self.state.withValues { $0.taskBoard }
            let maxAge = request.query["max-age"].flatMap { Int($0) }.map { max($0, 0) }
            let headers: HTTPFields = [.eTag: board.etag, .cacheControl: maxAge.map { "max-age=\($0)" } ?? "no-cache"]
            if let ifNoneMatch = request.headers[values: .ifNoneMatch].joined(separator: ",").nilIfEmpty,
                ConditionalRoutes.matches(ifNoneMatch, etag: board.etag)
            {
                return Response(status: .notModified, headers: headers)
            }
            return .json(Self.json(board), headers: headers)
        }

        router.put(RouterPath(Self.path)) { request, context -> Response in
            if let failure = self.takeFailure() { return failure }
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            let items: [TaskBoard.Item]
            switch Self.decodeList(Data(body.readableBytesView)) {
            case .success(let decoded): items = decoded
            case .failure(let problem): return .jsonMessage(problem.message, status: .badRequest)
            }
            let board = self.state.withValues { values in
                values.taskBoard.replace(with: items)
                return values.taskBoard
            }
            return .json(Self.json(board), headers: [.eTag: board.etag, .cacheControl: "no-cache"])
        }

        router.post(RouterPath(Self.path)) { request, context -> Response in
            if let failure = self.takeFailure() { return failure }
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            let new = try? JSONDecoder().decode(NewTask.self, from: Data(body.readableBytesView))
            guard let new, let title = new.title?.trimmingWhitespace(), !title.isEmpty else {
                return .jsonMessage(
                    "a JSON body {\"title\": \"...\", \"done\": false} with a non-empty title is required",
                    status: .badRequest
                )
            }
            let (item, etag) = self.state.withValues { values in
                (values.taskBoard.add(title: title, done: new.done ?? false), values.taskBoard.etag)
            }
            return .json(Self.json(item), status: .created, headers: [.eTag: etag, .location: "/tasks/\(item.id)"])
        }

        router.get("/tasks/events") { request, context -> Response in
            // The list's revisions as Server-Sent Events: the current one first (unless the
            // client's Last-Event-ID says it has it), then each new one as it happens; a comment
            // every few seconds keeps the stream alive. `limit=<n>` ends the stream after n
            // events; `retry=<ms>` sets the client's reconnection delay.
            let limit = request.query["limit"].flatMap { Int($0) }.map { max($0, 1) } ?? Int.max
            let retry = request.query["retry"].flatMap { Int($0) }.map { max($0, 0) } ?? 1_000
            let seen = request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { Int($0) }
            let state = self.state
            let channel = context.channel
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: \(retry)\n\n"))
                var sent = 0
                var last = seen
                var quiet = 0
                while sent < limit, channel.isActive {
                    let board = state.withValues { $0.taskBoard }
                    if board.revision != last {
                        var event = ByteBuffer(string: "id: \(board.revision)\nevent: revision\ndata: ")
                        Self.json(board).write(into: &event)
                        event.writeString("\n\n")
                        try await writer.write(event)
                        last = board.revision
                        sent += 1
                        quiet = 0
                        continue
                    }
                    quiet += 1
                    if quiet % 100 == 0 { try await writer.write(ByteBuffer(string: ": keep-alive\n\n")) }
                    guard await context.pause(milliseconds: 50) else { return }
                }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }

        router.post("/tasks/fail-next") { request, _ -> Response in
            let query = request.query
            let count = max(query["count"].flatMap { Int($0) } ?? 1, 0)
            let status = query["status"].flatMap { Int($0) }.flatMap { (400...599).contains($0) ? $0 : nil } ?? 503
            let retryAfter = query["retryAfter"].flatMap { Int($0) }.map { max($0, 0) }
            self.state.withValues { values in
                values.taskBoard.failuresLeft = count
                values.taskBoard.failuresArmed = count
                values.taskBoard.failureStatus = status
                values.taskBoard.failureRetryAfter = retryAfter
            }
            return Response(status: .noContent)
        }
    }

    /// The answer of an armed failure, or nil when none is armed.
    private func takeFailure() -> Response? {
        guard let failure = self.state.withValues({ $0.taskBoard.takeFailure() }) else { return nil }
        var headers = HTTPFields()
        if let retryAfter = failure.retryAfter { headers[.retryAfter] = String(retryAfter) }
        return .jsonMessage(
            "simulated failure \(failure.number) of \(failure.of)",
            status: HTTPResponse.Status(code: failure.status),
            headers: headers
        )
    }

    // MARK: JSON

    private static func json(_ board: TaskBoard) -> JSONValue {
        ["revision": .int(board.revision), "tasks": .array(board.items.map(json))]
    }

    private static func json(_ item: TaskBoard.Item) -> JSONValue {
        ["id": .int(item.id), "title": .string(item.title), "done": .bool(item.done)]
    }

    /// Why a `PUT` body was refused.
    private struct Problem: Error {
        var message: String
    }

    /// The tasks of a `PUT` body, or why it is not one.
    private static func decodeList(_ data: Data) -> Result<[TaskBoard.Item], Problem> {
        guard let list = try? JSONDecoder().decode(TaskList.self, from: data) else {
            return .failure(
                Problem(
                    message: "a JSON body {\"tasks\": [{\"id\": 1, \"title\": \"...\", \"done\": false}]} is required")
            )
        }
        var seen = Set<Int>()
        var items: [TaskBoard.Item] = []
        for task in list.tasks {
            guard task.id > 0 else { return .failure(Problem(message: "task ids must be positive (found \(task.id))")) }
            guard seen.insert(task.id).inserted else {
                return .failure(Problem(message: "task id \(task.id) appears more than once"))
            }
            let title = task.title.trimmingWhitespace()
            guard !title.isEmpty else { return .failure(Problem(message: "task \(task.id) has an empty title")) }
            items.append(TaskBoard.Item(id: task.id, title: title, done: task.done ?? false))
        }
        return .success(items)
    }

    private struct TaskList: Decodable {
        struct Task: Decodable {
            var id: Int
            var title: String
            var done: Bool?
        }

        var tasks: [Task]
    }

    private struct NewTask: Decodable {
        var title: String?
        var done: Bool?
    }
}
