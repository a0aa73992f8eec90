import Foundation
import IssueReportingTestSupport
import PrismGraphQL
import PrismHTTP
import PrismHTTPTesting
import PrismTestSupport
import Testing

/// The stub transport answers what a test set up, through the real client: interceptors,
/// authenticator, retries, cache and decoding run as in production.
@Suite("PrismStubTransport")
struct PrismStubTransportTests {
    struct Task: PrismEntity, Equatable {
        var id: Int
        var title: String
    }

    struct TaskList: PrismEntity, Equatable {
        var tasks: [Task]
    }

    struct TasksEndpoint: PrismNetworkEndpoint {
        var host: String { "api.example.com" }
        var path: String { "/tasks" }
    }

    struct TaskEndpoint: PrismNetworkEndpoint {
        var id: Int
        var host: String { "api.example.com" }
        var path: String { "/tasks/\(id)" }
    }

    struct SyncEndpoint: PrismNetworkEndpoint {
        var host: String { "api.example.com" }
        var path: String { "/sync" }
        var method: PrismNetworkMethod { .put }
    }

    @Test("a typed request is answered by its route and decoded as from a server")
    func answersByRoute() async throws {
        let stub = PrismStubTransport()
        stub.on(.get, "/tasks", respond: .json(TaskList(tasks: [Task(id: 1, title: "Write docs")])))
        stub.on(.get, "/tasks/*") { request in
            .json(Task(id: Int(request.url.lastPathComponent) ?? 0, title: "One task"))
        }
        let client = PrismNetworkAdapter(transport: stub, cache: nil)

        let tasks: TaskList = try await client.request(on: PrismEndpointRequest(TasksEndpoint()))
        let task: Task = try await client.request(on: PrismEndpointRequest(TaskEndpoint(id: 7)))

        #expect(tasks.tasks == [Task(id: 1, title: "Write docs")])
        #expect(task == Task(id: 7, title: "One task"))
        #expect(
            stub.requests.map(\.url.absoluteString) == [
                "https://api.example.com/tasks", "https://api.example.com/tasks/7",
            ])
    }

    @Test("the recorded request is what the transport got: after interceptors and the authenticator")
    func recordsTheFinalRequest() async throws {
        let stub = PrismStubTransport()
        stub.on(.get, "/tasks", respond: .json(TaskList(tasks: [])))
        let client = PrismNetworkAdapter(
            transport: stub,
            cache: nil,
            interceptors: [PrismInterceptor.headers(["X-App": "tests"])],
            authenticator: PrismBearerTokenAuthenticator(accessToken: "token-1") { _ in "token-2" }
        )

        let _: TaskList = try await client.request(on: PrismEndpointRequest(TasksEndpoint()))

        let request = try #require(stub.requests(.get, "/tasks").first)
        #expect(request.headers["X-App"] == "tests")
        #expect(request.headers["Authorization"] == "Bearer token-1")
    }

    @Test("a route with times answers that many requests, then the next route answers")
    func timesThenTheNextRoute() async throws {
        let stub = PrismStubTransport()
        stub.on(.put, "/sync", times: 2, respond: .status(503))
        stub.on(.put, "/sync", respond: .status(204))
        let client = PrismNetworkAdapter(transport: stub, cache: nil)
        let request = PrismHTTPRequest(url: URL(string: "https://api.example.com/sync")!, method: .put)

        let statuses = [
            try await client.transport.send(request).statusCode,
            try await client.transport.send(request).statusCode,
            try await client.transport.send(request).statusCode,
        ]

        #expect(statuses == [503, 503, 204])
        #expect(stub.unusedRoutes.isEmpty)
    }

    @Test("a retrying sync retries on the test clock: no real time passes between attempts")
    func retriesOnATestClock() async throws {
        let clock = TestClock()
        let stub = PrismStubTransport()
        stub.on(.put, "/sync", times: 2, respond: .status(503))
        stub.on(.put, "/sync", respond: .json(Task(id: 1, title: "synced")))
        let client = PrismNetworkAdapter(transport: stub, cache: nil, retryClock: clock)
        let policy = PrismExponentialBackoff(baseDelay: .seconds(10), maxAttempts: 3, jitter: .zero)

        let sync = _Concurrency.Task {
            try await client.request(
                on: PrismEndpointRequest<SyncEndpoint, Task>(SyncEndpoint()),
                options: PrismRequestOptions(retryPolicy: policy)
            )
        }
        // The first attempt failed; the client waits 10 s on the test clock, then 20 s.
        await clock.waitForSleeper()
        #expect(stub.requests.count == 1)
        await clock.advance(by: .seconds(10))
        await clock.waitForSleeper()
        #expect(stub.requests.count == 2)
        await clock.advance(by: .seconds(20))

        #expect(try await sync.value == Task(id: 1, title: "synced"))
        #expect(stub.requests.count == 3)
    }

    @Test("a delayed response waits on the stub's clock until the test advances it")
    func delayOnTheClock() async throws {
        let clock = TestClock()
        let stub = PrismStubTransport(clock: clock)
        stub.on(.get, "/tasks", respond: .json(TaskList(tasks: [Task(id: 2, title: "late")])).delayed(by: .seconds(30)))
        let client = PrismNetworkAdapter(transport: stub, cache: nil)

        let load = _Concurrency.Task { () -> TaskList in
            try await client.request(on: PrismEndpointRequest(TasksEndpoint()))
        }
        await clock.waitForSleeper()
        await clock.advance(by: .seconds(29))
        #expect(stub.requests.count == 1)
        await clock.advance(by: .seconds(1))

        #expect(try await load.value.tasks == [Task(id: 2, title: "late")])
    }

    @Test("cancelling a request that waits for a delayed response throws CancellationError")
    func cancellingADelayedResponse() async throws {
        let clock = TestClock()
        let stub = PrismStubTransport(clock: clock)
        stub.on(.get, "/tasks", respond: .status(200).delayed(by: .seconds(30)))
        let request = PrismHTTPRequest(url: URL(string: "https://api.example.com/tasks")!)

        let load = _Concurrency.Task { try await stub.send(request) }
        await clock.waitForSleeper()
        load.cancel()

        await #expect(throws: CancellationError.self) { try await load.value }
    }

    @Test("a stubbed failure is the error the request throws, with its URL and method")
    func failures() async throws {
        let stub = PrismStubTransport()
        stub.on(.get, "/tasks", respond: .failure(.timedOut))
        let client = PrismNetworkAdapter(transport: stub, cache: nil)

        let error = await #expect(throws: PrismHTTPError.self) {
            let _: TaskList = try await client.request(on: PrismEndpointRequest(TasksEndpoint()))
        }
        #expect(error?.code == .timedOut)
        #expect(error?.url?.path == "/tasks")
        #expect(error?.method == .get)
    }

    @Test("an entity tag makes the stub answer a revalidation 304, and the client serves its copy")
    func notModified() async throws {
        let stub = PrismStubTransport()
        stub.on(
            .get, "/tasks",
            respond: .json(TaskList(tasks: [Task(id: 3, title: "cached")]), headers: ["Cache-Control": "no-cache"])
                .entityTag("v1")
        )
        // The client's default cache.
        let client = PrismNetworkAdapter(transport: stub)

        let first: TaskList = try await client.request(on: PrismEndpointRequest(TasksEndpoint()))
        let second: TaskList = try await client.request(on: PrismEndpointRequest(TasksEndpoint()))

        #expect(first.tasks == [Task(id: 3, title: "cached")])
        #expect(second == first)
        let revalidation = try #require(stub.requests.last)
        #expect(stub.requests.count == 2)
        #expect(revalidation.headers["If-None-Match"] == "\"v1\"")
    }

    @Test("notModified answers 304 whatever the request sent")
    func explicitNotModified() async throws {
        let stub = PrismStubTransport()
        stub.on(.get, "/tasks", respond: .notModified)
        let response = try await stub.send(PrismHTTPRequest(url: URL(string: "https://api.example.com/tasks")!))
        #expect(response.statusCode == 304)
        #expect(response.body.isEmpty)
    }

    @Test("a request no route answers is a test failure and a transportFailed error that lists the routes")
    func unmatchedFails() async throws {
        let stub = PrismStubTransport()
        stub.on(.get, "/tasks", respond: .status(200))
        let request = PrismHTTPRequest(url: URL(string: "https://api.example.com/users")!, method: .delete)

        await withKnownIssue {
            let error = await #expect(throws: PrismHTTPError.self) { try await stub.send(request) }
            #expect(error?.code == .transportFailed)
            #expect(error?.message.contains("DELETE /users") == true)
            #expect(error?.message.contains("GET /tasks") == true)
        }
        #expect(stub.requests == [request])
    }

    @Test("unmatched: .notFound answers 404 quietly")
    func unmatchedNotFound() async throws {
        let stub = PrismStubTransport(unmatched: .notFound)
        let response = try await stub.send(PrismHTTPRequest(url: URL(string: "https://api.example.com/x")!))
        #expect(response.statusCode == 404)
    }

    @Test("routes match on method, segments, wildcards and origin")
    func routeMatching() {
        func request(_ method: PrismNetworkMethod, _ url: String) -> PrismHTTPRequest {
            PrismHTTPRequest(url: URL(string: url)!, method: method)
        }
        #expect(PrismStubRoute(.get, "/tasks/*").matches(request(.get, "https://a.test/tasks/1")))
        #expect(!PrismStubRoute(.get, "/tasks/*").matches(request(.get, "https://a.test/tasks/1/notes")))
        #expect(!PrismStubRoute(.get, "/tasks/*").matches(request(.post, "https://a.test/tasks/1")))
        #expect(PrismStubRoute(nil, "/tasks/*").matches(request(.post, "https://a.test/tasks/1")))
        #expect(PrismStubRoute(.get, "/files/**").matches(request(.get, "https://a.test/files/a/b/c")))
        #expect(PrismStubRoute(.get, "/tasks").matches(request(.get, "https://a.test/tasks?page=2")))
        #expect(PrismStubRoute(.get, "https://a.test/tasks").matches(request(.get, "https://a.test:443/tasks")))
        #expect(!PrismStubRoute(.get, "https://a.test/tasks").matches(request(.get, "https://b.test/tasks")))
        #expect(!PrismStubRoute(.get, "https://a.test/tasks").matches(request(.get, "http://a.test/tasks")))
    }

    @Test("an upload reports progress chunk by chunk and records the whole body")
    func uploads() async throws {
        let stub = PrismStubTransport()
        stub.on(.post, "/upload", respond: .status(201))
        let data = Data((0..<10_000).map { UInt8($0 % 256) })
        let task = PrismUploadTask(
            request: PrismHTTPRequest(url: URL(string: "https://api.example.com/upload")!, method: .post),
            body: .data(data, chunkSize: 4_096),
            transport: stub
        )

        var progress: [Int64] = []
        for await step in await task.upload() { progress.append(step.bytesUploaded) }
        let response = try await task.response

        #expect(response.statusCode == 201)
        #expect(progress.last == 10_000)
        #expect(progress.count >= 3)
        #expect(stub.requests.first?.body == data)
    }

    @Test("a GraphQL client over the stub gets the data the route answers")
    func graphQL() async throws {
        struct Viewer: Decodable, Sendable, Equatable { var login: String }
        struct ViewerData: Decodable, Sendable, Equatable { var viewer: Viewer }
        struct Body: Encodable { var data: [String: [String: String]] }
        let stub = PrismStubTransport()
        stub.on(.post, "/graphql", respond: .json(Body(data: ["viewer": ["login": "ada"]])))
        let client = PrismGraphQLClient(
            endpointURL: URL(string: "https://api.example.com/graphql")!,
            networkClient: PrismNetworkAdapter(transport: stub, cache: nil)
        )

        let response = try await client.execute(PrismGraphQLQuery(query: "{ viewer { login } }"), as: ViewerData.self)

        #expect(try response.requireData() == ViewerData(viewer: Viewer(login: "ada")))
        let sent = try #require(stub.requests.first?.body)
        let json = try JSONSerialization.jsonObject(with: sent) as? [String: Any]
        #expect(json?["query"] as? String == "{ viewer { login } }")
    }

    @Test("concurrent requests are each answered and each recorded")
    func concurrentRequests() async throws {
        let stub = PrismStubTransport()
        stub.on(.get, "/tasks/*") { request in .text(request.url.lastPathComponent) }
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<100 {
                group.addTask {
                    let url = URL(string: "https://api.example.com/tasks/\(index)")!
                    return String(decoding: try await stub.send(PrismHTTPRequest(url: url)).body, as: UTF8.self)
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(bodies == Set((0..<100).map(String.init)))
        #expect(stub.requests.count == 100)
    }

    @Test("a stream through the stub has the stubbed body, whole, in one chunk")
    func streamsTheStubbedBody() async throws {
        let stub = PrismStubTransport()
        stub.on(.get, "/export", respond: .text("a\nb\nc"))
        let client = PrismNetworkAdapter(transport: stub, cache: nil)
        let response = try await client.stream(PrismHTTPRequest(url: URL(string: "https://api.example.com/export")!))
        #expect(response.statusCode == 200)
        var lines: [String] = []
        for try await line in response.body.lines() { lines.append(line) }
        #expect(lines == ["a", "b", "c"])
    }

    @Test("a streamed stub arrives chunk by chunk on the stub's clock, and can end with a cut connection")
    func streamedChunks() async throws {
        let clock = TestClock()
        let stub = PrismStubTransport(clock: clock)
        let events = [
            PrismStubChunk("data: one\n\n"),
            PrismStubChunk("data: two\n\n", after: .seconds(5)),
        ]
        stub.on(
            .get, "/events",
            respond: .stream(
                events, headers: ["Content-Type": "text/event-stream"],
                failingWith: PrismHTTPError(code: .connectionFailed, message: "cut")))
        let client = PrismNetworkAdapter(transport: stub, cache: nil)
        let response = try await client.stream(PrismHTTPRequest(url: URL(string: "https://api.example.com/events")!))
        let received = LockedBox<[String]>([])
        let reader = _Concurrency.Task {
            for try await event in response.body.serverSentEvents() { received.mutate { $0.append(event.data) } }
        }
        // The first event is there at once; the second waits five seconds of the test's clock.
        await clock.waitForSleeper()
        #expect(received.wrappedValue == ["one"])
        await clock.advance(by: .seconds(5))
        let result = await reader.result
        #expect(received.wrappedValue == ["one", "two"])
        #expect(throws: PrismHTTPError.self) { try result.get() }

        // Sent whole (not streamed), the same response is its chunks joined, or its failure.
        stub.on(.get, "/whole", respond: .stream(events))
        let whole = try await client.send(PrismHTTPRequest(url: URL(string: "https://api.example.com/whole")!))
        #expect(String(decoding: whole.body, as: UTF8.self) == "data: one\n\ndata: two\n\n")
        let cut = await #expect(throws: PrismHTTPError.self) {
            try await client.send(PrismHTTPRequest(url: URL(string: "https://api.example.com/events")!))
        }
        #expect(cut?.code == .connectionFailed)
    }
}
