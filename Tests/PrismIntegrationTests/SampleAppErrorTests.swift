import Foundation
import PrismTestServer
import Testing

/// Bad input to `prism-sample`: a clear message, a non-zero exit status, no crash, no lost data.
@Suite("Sample app: bad input")
struct SampleAppErrorTests {
    @Test(
        "Bad usage is refused with a message and the usage exit status (64)",
        arguments: [
            (["frobnicate"], "frobnicate"),
            (["done", "abc"], "abc"),
            (["done"], "<id>"),
            (["sync", "--server", "not a url"], "--server must be an http:// or https:// URL"),
            (["travel", "2", "--bogus"], "--bogus"),
            (["sync", "--timeout", "0"], "--timeout must be more than 0"),
        ]
    )
    func usage(arguments: [String], message: String) async throws {
        // Refused while parsing: nothing is read or written.
        let run = try await SampleApp.run(arguments)
        #expect(run.status == 64)
        #expect(run.errors.contains(message), "stderr: \(run.errors)")
    }

    @Test(
        "A command that cannot be done says why and exits with 1",
        arguments: [
            (["done", "99"], "There is no task #99"),
            (["remove", "7"], "There is no task #7"),
            (["add", "   "], "A task needs a title"),
            (["undo"], "Nothing to undo."),
            (["redo"], "Nothing to redo."),
            (["travel", "5"], "There is no moment 5"),
        ]
    )
    func refused(arguments: [String], message: String) async throws {
        try await withDataDirectory { folder in
            let run = try await SampleApp.run(arguments + ["--data-dir", folder.path])
            #expect(run.status == 1)
            #expect(run.errors.contains("Error: \(message)"), "stderr: \(run.errors)")
        }
    }

    @Test("A corrupt state file is moved aside, never overwritten, and the message says where")
    func corruptStateFile() async throws {
        try await withDataDirectory { folder in
            let file = folder.appendingPathComponent("tasks.json")
            let garbage = Data("{\"tasks\": [{\"id\": 1, \"title\": \"Important".utf8)
            try garbage.write(to: file)

            let run = try await SampleApp.run(["list", "--data-dir", folder.path])
            #expect(run.status == 1)
            #expect(run.errors.contains(file.path), "stderr: \(run.errors)")
            #expect(run.errors.contains("moved aside"), "stderr: \(run.errors)")
            let backups = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasPrefix("tasks.json.corrupt-") }
            try #require(backups.count == 1)
            #expect(run.errors.contains(backups[0]))
            #expect(try Data(contentsOf: folder.appendingPathComponent(backups[0])) == garbage)

            let fresh = try await SampleApp.run(["add", "Start again", "--data-dir", folder.path])
            #expect(fresh.status == 0, "\(fresh.errors)")
            #expect(try Data(contentsOf: folder.appendingPathComponent(backups[0])) == garbage)
        }
    }

    @Test("A server that is down fails the sync with the URL in the message, and keeps the tasks")
    func serverDown() async throws {
        let server = try await PrismTestServer.start()
        let url = server.baseURL.absoluteString
        try await server.shutdown()
        try await withDataDirectory { folder in
            let data = ["--data-dir", folder.path]
            _ = try await SampleApp.run(["add", "Keep me"] + data)
            // A refused connection is retried until each attempt's timeout: keep it short.
            let run = try await SampleApp.run(["sync", "--server", url, "--timeout", "0.5"] + data)
            #expect(run.status == 1)
            #expect(run.errors.contains("Could not sync"), "stderr: \(run.errors)")
            #expect(run.errors.contains(url), "stderr: \(run.errors)")
            let list = try await SampleApp.run(["list"] + data)
            #expect(list.output.contains("#1 [ ] Keep me"))
        }
    }
}
