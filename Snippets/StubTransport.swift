// An app's networking tested with PrismHTTPTesting's stub transport: canned routes, a route that
// fails twice and then succeeds, a handler, retries on a test clock, and a feature that follows
// Server-Sent Events, tested with a test store on a PrismTestClock. No server, no socket.
// These are tests: PrismStubTransportSnippetTests runs them.
// snippet.hide
import Foundation
import PrismHTTP
import PrismHTTPTesting
import PrismStore
import PrismTesting
import Testing

struct TaskItem: PrismEntity, Equatable {
    var id: Int
    var title: String
}

struct TasksEndpoint: PrismNetworkEndpoint {
    var host: String { "api.example.com" }
    var path: String { "/tasks" }
}

struct TasksRequest: PrismNetworkRequest {
    typealias Response = [TaskItem]
    let endpoint = TasksEndpoint()
}

struct SyncEndpoint: PrismNetworkEndpoint {
    var host: String { "api.example.com" }
    var path: String { "/sync" }
    var method: PrismNetworkMethod { .put }
}

struct SyncReport: PrismEntity, Equatable {
    var synced: Int
}

struct SearchEndpoint: PrismNetworkEndpoint {
    var term: String
    var host: String { "api.example.com" }
    var path: String { "/search" }
    var queryItems: [URLQueryItem]? { [URLQueryItem(name: "q", value: term)] }
}

struct ScoresEndpoint: PrismNetworkEndpoint {
    var host: String { "api.example.com" }
    var path: String { "/scores" }
}

// snippet.show
// snippet.test
@Test func loadingTasks() async throws {
    let stub = PrismStubTransport()
    stub.on(.get, "/tasks", respond: .json([TaskItem(id: 1, title: "Write docs")]))
    let client = PrismNetworkAdapter(transport: stub, cache: nil)

    let tasks = try await client.request(on: TasksRequest())

    #expect(tasks.map(\.title) == ["Write docs"])
    #expect(stub.requests(.get, "/tasks").count == 1)
}
// snippet.end

// snippet.hide
@Test func failingTwiceThenSucceeding() async throws {
    let stub = PrismStubTransport()
    // snippet.show
    // snippet.times
    stub.on(.put, "/sync", times: 2, respond: .status(503))
    stub.on(.put, "/sync", respond: .status(204))
    // snippet.end
    // snippet.hide
    let client = PrismNetworkAdapter(transport: stub, cache: nil)
    let sync = PrismHTTPRequest(url: URL(string: "https://api.example.com/sync")!, method: .put)
    var statuses: [Int] = []
    for _ in 1...3 { statuses.append(try await client.send(sync).statusCode) }
    #expect(statuses == [503, 503, 204])
    #expect(stub.unusedRoutes.isEmpty)
}

@Test func answeringFromAHandler() async throws {
    let stub = PrismStubTransport()
    let results = [TaskItem(id: 1, title: "Write docs"), TaskItem(id: 2, title: "Ship")]
    // snippet.show
    // snippet.handler
    stub.on(.get, "/search") { request in
        let term =
            URLComponents(url: request.url, resolvingAgainstBaseURL: false)?
            .queryItems?.first { $0.name == "q" }?.value ?? ""
        return .json(results.filter { $0.title.contains(term) })
    }
    // snippet.end
    // snippet.hide
    let client = PrismNetworkAdapter(transport: stub, cache: nil)
    let found = try await client.request(
        on: PrismEndpointRequest<SearchEndpoint, [TaskItem]>(SearchEndpoint(term: "Ship")))
    #expect(found == [TaskItem(id: 2, title: "Ship")])
}

@Test func retryingOnATestClock() async throws {
    let report = SyncReport(synced: 3)
    // snippet.show
    // snippet.retries
    let clock = TestClock()
    let stub = PrismStubTransport()
    stub.on(.put, "/sync", times: 2, respond: .status(503))
    stub.on(.put, "/sync", respond: .json(report))
    let client = PrismNetworkAdapter(transport: stub, cache: nil, retryClock: clock)
    // snippet.end
    // snippet.hide
    let sync = Task {
        try await client.request(
            on: PrismEndpointRequest<SyncEndpoint, SyncReport>(SyncEndpoint()),
            retryPolicy: PrismExponentialBackoff(baseDelay: .seconds(1), maxDelay: .seconds(1), maxAttempts: 3)
        )
    }
    // Each retry waits on the test clock: move it on until the third attempt was sent.
    for _ in 0..<10_000 where stub.requests.count < 3 {
        await clock.advance(by: .seconds(2))
        await Task.yield()
    }
    #expect(try await sync.value == report)
}

// snippet.show
// snippet.events-feature
/// Follows a match's score, sent as Server-Sent Events, until the server says it is over.
struct ScoreFeed: PrismReducer {
    struct Score: Decodable, Equatable, Sendable {
        var home: Int
        var away: Int
    }

    struct State: Equatable, Sendable {
        var score = Score(home: 0, away: 0)
        var isLive = false
    }

    enum Action: Equatable, Sendable {
        case follow
        case scored(Score)
        case ended
    }

    let client: PrismNetworkAdapter

    func reduce(into state: inout State, action: Action) -> PrismEffect<Action> {
        switch action {
        case .follow:
            state.isLive = true
            return .run { [client] send in
                // A second after the stream closes, up to three tries.
                let reconnection = PrismExponentialBackoff(
                    baseDelay: .seconds(1), maxDelay: .seconds(1), maxAttempts: 3)
                for try await event in client.events(on: ScoresEndpoint(), reconnection: reconnection) {
                    send(.scored(try event.decode(Score.self)))
                }
                send(.ended)
            }
        case .scored(let score):
            state.score = score
            return .none
        case .ended:
            state.isLive = false
            return .none
        }
    }
}
// snippet.end

// snippet.events-test
@MainActor
@Test func followingTheScore() async throws {
    // One clock for the feature's waits, the stub's chunks and the client's reconnection.
    let clock = PrismTestClock()
    let stub = PrismStubTransport(clock: clock)
    stub.on(
        .get, "/scores", times: 1,
        respond: .stream(
            [
                PrismStubChunk("id: 1\ndata: {\"home\": 1, \"away\": 0}\n\n", after: .seconds(1)),
                PrismStubChunk("id: 2\ndata: {\"home\": 1, \"away\": 1}\n\n", after: .seconds(30)),
            ], headers: ["Content-Type": "text/event-stream"]))
    // The next connection hears 204 No Content: the match is over, do not reconnect.
    stub.on(.get, "/scores", respond: .status(204))
    let client = PrismNetworkAdapter(transport: stub, cache: nil, retryClock: clock)
    let store = PrismTestStore(initialState: ScoreFeed.State(), reducer: ScoreFeed(client: client))

    await store.send(.follow) { $0.isLive = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.scored(.init(home: 1, away: 0))) { $0.score = .init(home: 1, away: 0) }
    await clock.advance(by: .seconds(30))
    await store.receive(.scored(.init(home: 1, away: 1))) { $0.score = .init(home: 1, away: 1) }
    // The stream closed: the feed reconnects within a second, resuming after the last event.
    await clock.advance(by: .seconds(1))
    await store.receive(.ended) { $0.isLive = false }
    #expect(stub.requests(.get, "/scores").map { $0.headers["Last-Event-ID"] } == [nil, "2"])
}
// snippet.end
