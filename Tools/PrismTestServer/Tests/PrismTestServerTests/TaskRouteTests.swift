import Foundation
import PrismTestServer
import Testing

@Suite("Task routes")
struct TaskRouteTests {
    @Test("GET /tasks starts empty at revision 0, with an ETag, no-cache, and 304 when the ETag matches")
    func emptyList() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/tasks"))
            #expect(reply.status == 200)
            #expect(reply.text == #"{"revision":0,"tasks":[]}"#)
            #expect(reply.header("ETag") == #""tasks-v0""#)
            #expect(reply.header("Cache-Control") == "no-cache")
            #expect(reply.header("Content-Type") == "application/json; charset=utf-8")

            let revalidated = try await TestClient.send(
                .GET, server.url("/tasks"), headers: [("If-None-Match", #""tasks-v0""#)])
            #expect(revalidated.status == 304)
            #expect(revalidated.bytes.isEmpty)
            #expect(revalidated.header("ETag") == #""tasks-v0""#)
            #expect(server.hits("/tasks") == 2)
        }
    }

    @Test("GET /tasks?max-age= asks caches to keep the list that long")
    func maxAge() async throws {
        try await withServer { server in
            let reply = try await TestClient.send(.GET, server.url("/tasks?max-age=30"))
            #expect(reply.status == 200)
            #expect(reply.header("Cache-Control") == "max-age=30")
            #expect(reply.header("ETag") == #""tasks-v0""#)
        }
    }

    @Test("PUT /tasks replaces the list and bumps the revision only when the list changed")
    func putReplaces() async throws {
        try await withServer { server in
            let body = #"{"tasks": [{"id": 1, "title": "Buy milk", "done": true}, {"id": 4, "title": " Walk "}]}"#
            let expected =
                #"{"revision":1,"tasks":[{"id":1,"title":"Buy milk","done":true},{"id":4,"title":"Walk","done":false}]}"#
            let put = try await TestClient.send(.PUT, server.url("/tasks"), text: body)
            #expect(put.status == 200)
            #expect(put.text == expected)
            #expect(put.header("ETag") == #""tasks-v1""#)

            let again = try await TestClient.send(.PUT, server.url("/tasks"), text: body)
            #expect(again.text == expected)

            let get = try await TestClient.send(.GET, server.url("/tasks"))
            #expect(get.text == expected)
            let stale = try await TestClient.send(
                .GET, server.url("/tasks"), headers: [("If-None-Match", #""tasks-v0""#)])
            #expect(stale.status == 200)
        }
    }

    @Test("POST /tasks appends a task with the next id")
    func postAppends() async throws {
        try await withServer { server in
            _ = try await TestClient.send(.PUT, server.url("/tasks"), text: #"{"tasks": [{"id": 7, "title": "a"}]}"#)
            let post = try await TestClient.send(.POST, server.url("/tasks"), text: #"{"title": "b"}"#)
            #expect(post.status == 201)
            #expect(post.text == #"{"id":8,"title":"b","done":false}"#)
            #expect(post.header("Location") == "/tasks/8")
            #expect(post.header("ETag") == #""tasks-v2""#)
            let list = try await TestClient.send(.GET, server.url("/tasks"))
            #expect(try list.object()["revision"] as? Int == 2)
        }
    }

    @Test(
        "A body that is not a task list is a 400 with a message, and changes nothing",
        arguments: [
            ("PUT", "not json"),
            ("PUT", #"{"tasks": [{"id": 1, "title": "a"}, {"id": 1, "title": "b"}]}"#),
            ("PUT", #"{"tasks": [{"id": 0, "title": "a"}]}"#),
            ("PUT", #"{"tasks": [{"id": 2, "title": "  "}]}"#),
            ("POST", #"{"done": true}"#),
            ("POST", "[]"),
        ]
    )
    func badBodies(method: String, body: String) async throws {
        try await withServer { server in
            let reply = try await TestClient.send(method == "PUT" ? .PUT : .POST, server.url("/tasks"), text: body)
            #expect(reply.status == 400)
            #expect((try reply.object()["message"] as? String)?.isEmpty == false)
            let list = try await TestClient.send(.GET, server.url("/tasks"))
            #expect(list.text == #"{"revision":0,"tasks":[]}"#)
        }
    }

    @Test("POST /tasks/fail-next makes the next requests to /tasks fail, then they succeed again")
    func failNext() async throws {
        try await withServer { server in
            let arm = try await TestClient.send(.POST, server.url("/tasks/fail-next?count=2&retryAfter=0"), text: "")
            #expect(arm.status == 204)
            let first = try await TestClient.send(.GET, server.url("/tasks"))
            #expect(first.status == 503)
            #expect(first.header("Retry-After") == "0")
            #expect(try first.object()["message"] as? String == "simulated failure 1 of 2")
            let second = try await TestClient.send(.PUT, server.url("/tasks"), text: #"{"tasks": []}"#)
            #expect(second.status == 503)
            #expect(try second.object()["message"] as? String == "simulated failure 2 of 2")
            let third = try await TestClient.send(.GET, server.url("/tasks"))
            #expect(third.status == 200)
            #expect(server.hits("/tasks") == 3)
        }
    }

    @Test("fail-next answers the status asked for, and no Retry-After unless asked")
    func failNextStatus() async throws {
        try await withServer { server in
            _ = try await TestClient.send(.POST, server.url("/tasks/fail-next?status=500"), text: "")
            let failed = try await TestClient.send(.GET, server.url("/tasks"))
            #expect(failed.status == 500)
            #expect(failed.header("Retry-After") == nil)
            let ok = try await TestClient.send(.GET, server.url("/tasks"))
            #expect(ok.status == 200)
        }
    }

    @Test("reset() empties the list and disarms failures")
    func reset() async throws {
        try await withServer { server in
            _ = try await TestClient.send(.POST, server.url("/tasks"), text: #"{"title": "a"}"#)
            _ = try await TestClient.send(.POST, server.url("/tasks/fail-next?count=5"), text: "")
            server.reset()
            let list = try await TestClient.send(.GET, server.url("/tasks"))
            #expect(list.status == 200)
            #expect(list.text == #"{"revision":0,"tasks":[]}"#)
        }
    }
}
