import Foundation
import Prism
import PrismHTTPTesting
import PrismTestSupport
import PrismTesting
import Testing

@testable import prism_sample

/// The sample's features that wait and call the network, tested the way an app's features
/// should be: a test clock instead of real time, a stub transport instead of a server, and the
/// real client (retries, decoding) in between. Each test finishes in milliseconds.
@MainActor
@Suite("Live features: debounced search, polling, retrying push")
struct LiveFeatureTests {
    static let server = URL(string: "https://tasks.example.com")!

    static let list = RemoteTaskList(
        revision: 4,
        tasks: [
            RemoteTask(id: 1, title: "Write the docs", done: false),
            RemoteTask(id: 2, title: "Ship Prism", done: true),
            RemoteTask(id: 3, title: "Review the docs", done: false),
        ]
    )

    /// The live API over `stub`; its retries wait on `retryClock`.
    static func api(_ stub: PrismStubTransport, retryClock: TestClock<Duration> = TestClock()) -> TaskAPI {
        TaskAPI.live(
            server: server,
            client: PrismNetworkAdapter(transport: stub, cache: nil, retryClock: retryClock),
            options: PrismRequestOptions(retryPolicy: TaskSyncClient.retryPolicy)
        )
    }

    /// The longest the app's retry policy waits after attempt `n` (its backoff plus all of its
    /// jitter). Advancing by exactly this wakes that wait but never the next one, which is at
    /// least twice the backoff away.
    static func longestWait(afterAttempt attempt: Int) -> Duration {
        let policy = TaskSyncClient.retryPolicy
        return min(policy.baseDelay * (1 << (attempt - 1)) + policy.jitter, policy.maxDelay)
    }

    @Test("the search runs once typing pauses: one request for a whole word, no real waiting")
    func debouncedSearch() async throws {
        let clock = TestClock()
        let stub = PrismStubTransport()
        stub.on(.get, "/tasks", respond: .json(Self.list))
        let store = PrismTestStore(initialState: TaskSearchFeature.State(), reducer: TaskSearchFeature()) {
            $0.continuousClock = clock
            $0.taskAPI = Self.api(stub)
        }

        await store.send(.queryChanged("d")) {
            $0.query = "d"
            $0.isSearching = true
        }
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(100))
        await store.send(.queryChanged("do")) { $0.query = "do" }
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(100))
        await store.send(.queryChanged("docs")) { $0.query = "docs" }
        await clock.waitForSleeper()
        await clock.advance(by: TaskSearchFeature.pause)

        await store.receive(.resultsLoaded(query: "docs", [Self.list.tasks[0], Self.list.tasks[2]])) {
            $0.results = [Self.list.tasks[0], Self.list.tasks[2]]
            $0.isSearching = false
        }
        #expect(stub.requests.count == 1)
        await store.finish()
    }

    @Test("clearing the query cancels the pending search")
    func clearingCancels() async throws {
        let clock = TestClock()
        let stub = PrismStubTransport()
        let store = PrismTestStore(initialState: TaskSearchFeature.State(), reducer: TaskSearchFeature()) {
            $0.continuousClock = clock
            $0.taskAPI = Self.api(stub)
        }
        await store.send(.queryChanged("x")) {
            $0.query = "x"
            $0.isSearching = true
        }
        await store.send(.queryChanged("")) {
            $0.query = ""
            $0.isSearching = false
        }
        // Past the pause: the cancelled search never runs.
        await clock.advance(by: TaskSearchFeature.pause * 2)
        await store.finish()
        #expect(stub.requests.isEmpty)
    }

    @Test("the watch polls on the timer, sees a change, and stops sending when stopped")
    func polling() async throws {
        let clock = TestClock()
        let stub = PrismStubTransport()
        stub.on(.get, "/tasks", times: 1, respond: .json(RemoteTaskList(revision: 4, tasks: [])))
        stub.on(.get, "/tasks", respond: .json(RemoteTaskList(revision: 5, tasks: [])))
        let store = PrismTestStore(
            initialState: RevisionWatchFeature.State(),
            reducer: RevisionWatchFeature(interval: .seconds(5))
        ) {
            $0.continuousClock = clock
            $0.taskAPI = Self.api(stub)
        }

        await store.send(.start) { $0.isWatching = true }
        await clock.waitForSleeper()
        await clock.advance(by: .seconds(5))
        await store.receive(.tick)
        await store.receive(.revisionLoaded(4)) {
            $0.revision = 4
            $0.checks = 1
        }
        await clock.waitForSleeper()
        await clock.advance(by: .seconds(5))
        await store.receive(.tick)
        await store.receive(.revisionLoaded(5)) {
            $0.revision = 5
            $0.checks = 2
            $0.changes = 1
        }
        await store.send(.stop) { $0.isWatching = false }
        await clock.advance(by: .seconds(60))
        #expect(stub.requests.count == 2)
        await store.finish()
    }

    @Test("a push that fails twice with 503 is retried on the client's clock and succeeds")
    func retryingPush() async throws {
        let retryClock = TestClock()
        let stub = PrismStubTransport()
        stub.on(.put, "/tasks", times: 2, respond: .status(503))
        stub.on(.put, "/tasks") { request in
            let upload = try JSONDecoder().decode(RemoteTaskUpload.self, from: request.body ?? Data())
            return .json(RemoteTaskList(revision: 9, tasks: upload.tasks))
        }
        let store = PrismTestStore(initialState: TaskPushFeature.State(), reducer: TaskPushFeature()) {
            $0.taskAPI = Self.api(stub, retryClock: retryClock)
        }

        await store.send(.push(Self.list.tasks)) { $0.isPushing = true }
        for attempt in 1...2 {
            await retryClock.waitForSleeper()
            await retryClock.advance(by: Self.longestWait(afterAttempt: attempt))
        }
        await store.receive(.pushed(revision: 9)) {
            $0.isPushing = false
            $0.revision = 9
        }
        #expect(stub.requests(.put, "/tasks").count == 3)
        await store.finish()
    }

    @Test("a push the server keeps refusing ends in pushFailed after the policy's attempts")
    func pushGivesUp() async throws {
        let retryClock = TestClock()
        let stub = PrismStubTransport()
        stub.on(.put, "/tasks", respond: .status(503))
        let store = PrismTestStore(initialState: TaskPushFeature.State(), reducer: TaskPushFeature()) {
            $0.taskAPI = Self.api(stub, retryClock: retryClock)
        }

        await store.send(.push([])) { $0.isPushing = true }
        for attempt in 1..<TaskSyncClient.retryPolicy.maxAttempts {
            await retryClock.waitForSleeper()
            await retryClock.advance(by: Self.longestWait(afterAttempt: attempt))
        }
        let isPushFailed = { (action: TaskPushFeature.Action) in
            if case .pushFailed = action { true } else { false }
        }
        await store.receive(isPushFailed) {
            $0.isPushing = false
            // What the message says is checked below.
            $0.failure = store.state.failure
        }
        #expect(store.state.failure?.contains("4 attempts failed") == true)
        #expect(stub.requests.count == TaskSyncClient.retryPolicy.maxAttempts)
    }

    @Test("the feed turns each revision the server pushes into an action, and ends when the server says so")
    func followsTheServer() async throws {
        let stub = PrismStubTransport()
        let next = RemoteTaskList(revision: 5, tasks: Self.list.tasks + [RemoteTask(id: 4, title: "Live", done: false)])
        func event(_ list: RemoteTaskList) throws -> String {
            let data = String(decoding: try PrismJSON.makeEncoder().encode(list), as: UTF8.self)
            return "id: \(list.revision)\nevent: revision\ndata: \(data)\n\n"
        }
        let stream = try ": hello\n\n" + event(Self.list) + "event: other\ndata: ignored\n\n" + event(next)
        stub.on(
            .get, "/tasks/events", times: 1,
            respond: .text(stream, headers: ["Content-Type": "text/event-stream"]))
        // After the stream ends the feed reconnects (with Last-Event-ID); 204 says it is over.
        stub.on(.get, "/tasks/events", respond: .status(204))
        let retryClock = TestClock()
        let store = PrismTestStore(initialState: TaskFeedFeature.State(), reducer: TaskFeedFeature()) {
            $0.taskAPI = Self.api(stub, retryClock: retryClock)
        }
        await store.send(.start) { $0.isFollowing = true }
        await store.receive(.received(Self.list)) {
            $0.revision = 4
            $0.titles = ["Write the docs", "Ship Prism", "Review the docs"]
            $0.received = 1
        }
        await store.receive(.received(next)) {
            $0.revision = 5
            $0.titles = ["Write the docs", "Ship Prism", "Review the docs", "Live"]
            $0.received = 2
        }
        // The reconnection waits on the client's clock: no real waiting.
        await retryClock.waitForSleeper()
        await retryClock.advance(by: .seconds(1))
        await store.receive(.ended) { $0.isFollowing = false }
        let reconnect = try #require(stub.requests(.get, "/tasks/events").last)
        #expect(reconnect.headers["Last-Event-ID"] == "5")
        #expect(reconnect.headers["Accept"] == "text/event-stream")
    }
}
