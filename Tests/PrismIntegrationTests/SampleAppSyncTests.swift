import Foundation
import Prism
import PrismTestServer
import Testing

/// `prism-sample sync` and the interactive mode against a demo server started by the test.
@Suite("Sample app: sync and interactive mode")
struct SampleAppSyncTests {
    /// The server's list, as `GET /tasks` answers it.
    private struct ServerList: Decodable {
        struct Task: Decodable {
            var id: Int
            var title: String
            var done: Bool
        }

        var revision: Int
        var tasks: [Task]
    }

    private func serverList(_ server: PrismTestServer) async throws -> ServerList {
        let response = try await PrismNetworkAdapter(cache: nil).send(PrismHTTPRequest(url: server.url("/tasks")))
        return try JSONDecoder().decode(ServerList.self, from: response.body)
    }

    @Test("sync uploads the list once, retries the server's failures, and then finds it up to date")
    func sync() async throws {
        try await withDemoServer { server in
            try await withDataDirectory { folder in
                let data = ["--data-dir", folder.path]
                // A generous attempt timeout: the demo server runs in this busy test process, and
                // the test is about retries of the server's 503s, not about how long one takes.
                let remote = data + ["--server", server.baseURL.absoluteString, "--timeout", "30"]
                _ = try await SampleApp.run(["add", "Buy milk"] + data)
                _ = try await SampleApp.run(["done", "1"] + data)

                let first = try await SampleApp.run(["sync", "--simulate-failures", "2"] + remote)
                #expect(first.status == 0, "\(first.errors)")
                #expect(first.output.components(separatedBy: "GET /tasks: 503").count == 3, "\(first.output)")
                #expect(first.output.contains("GET /tasks: 200 OK"))
                #expect(first.output.contains("PUT /tasks: 200 OK"))
                #expect(first.output.contains("has revision 1 (uploaded 1 task(s))"))
                let list = try await serverList(server)
                #expect(list.revision == 1)
                #expect(list.tasks.map(\.title) == ["Buy milk"])
                #expect(list.tasks.map(\.done) == [true])

                let second = try await SampleApp.run(["sync"] + remote)
                #expect(second.status == 0, "\(second.errors)")
                #expect(second.output.contains("already up to date"))
                #expect(!second.output.contains("PUT /tasks"))
            }
        }
    }

    @Test("The interactive mode reads piped commands, goes on after errors, and exits cleanly at the end")
    func interactive() async throws {
        try await withDemoServer { server in
            try await withDataDirectory { folder in
                let script = """
                    add Buy milk
                    add "Call Ada"
                    done 1
                    go task 1
                    go settings
                    back
                    back
                    bogus
                    done x
                    go nowhere
                    sync
                    sync
                    undo
                    history
                    list
                    """
                let run = try await SampleApp.run(
                    [
                        "interactive", "--data-dir", folder.path, "--server", server.baseURL.absoluteString,
                        "--timeout", "30",
                    ],
                    input: script + "\n"
                )
                #expect(run.status == 0, "\(run.errors)")
                for expected in [
                    "> add Buy milk", "Added #1: Buy milk", "Added #2: Call Ada", "Done #1: Buy milk",
                    "[tasks > task 1]", "Task #1: Buy milk", "[tasks > task 1 > (sheet) settings]",
                    "PUT /tasks: 200 OK", "(If-None-Match: \"tasks-v1\"): 304 Not Modified", "Undid: done #1",
                    "#1 [ ] Buy milk", "Bye.",
                ] {
                    #expect(run.output.contains(expected), "the output lacks \"\(expected)\":\n\(run.output)")
                }
                #expect(run.errors.contains("Unknown command \"bogus\""))
                #expect(run.errors.contains("done needs one number"))
                #expect(run.errors.contains("There is no screen \"nowhere\""))
                #expect(try await serverList(server).tasks.count == 2)

                let list = try await SampleApp.run(["list", "--data-dir", folder.path])
                #expect(list.output.contains("#1 [ ] Buy milk"))
                #expect(list.output.contains("#2 [ ] Call Ada"))
            }
        }
    }

    @Test("quit stops the interactive mode before the rest of the input")
    func quit() async throws {
        try await withDataDirectory { folder in
            let run = try await SampleApp.run(
                ["interactive", "--data-dir", folder.path], input: "add a\nquit\nadd b\n")
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("Added #1: a"))
            #expect(!run.output.contains("Added #2"))
        }
    }
}
