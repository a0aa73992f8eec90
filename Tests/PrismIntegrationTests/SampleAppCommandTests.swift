import Foundation
import Testing

/// `prism-sample`'s one-shot commands, run as a child process on a data folder of their own.
@Suite("Sample app: one-shot commands")
struct SampleAppCommandTests {
    @Test("add, done, list, undo and redo work across runs in --data-dir")
    func taskCommands() async throws {
        try await withDataDirectory { folder in
            let data = ["--data-dir", folder.path]
            let added = try await SampleApp.run(["add", "Buy", "milk"] + data)
            #expect(added.status == 0, "\(added.errors)")
            #expect(added.output.contains("Added #1: Buy milk"))
            _ = try await SampleApp.run(["add", "Write the report"] + data)
            let done = try await SampleApp.run(["done", "1"] + data)
            #expect(done.status == 0, "\(done.errors)")
            #expect(done.output.contains("Done #1: Buy milk"))

            let list = try await SampleApp.run(["list"] + data)
            #expect(list.status == 0, "\(list.errors)")
            #expect(list.output.contains("#1 [x] Buy milk"))
            #expect(list.output.contains("#2 [ ] Write the report"))
            #expect(list.output.contains("1 of 2 left"))

            let undone = try await SampleApp.run(["undo"] + data)
            #expect(undone.status == 0, "\(undone.errors)")
            #expect(undone.output.contains("Undid: done #1"))
            #expect(undone.output.contains("#1 [ ] Buy milk"))
            let undoneAgain = try await SampleApp.run(["undo"] + data)
            #expect(undoneAgain.output.contains("Undid: add \"Write the report\""))
            #expect(!undoneAgain.output.contains("Write the report\n"))

            let redone = try await SampleApp.run(["redo"] + data)
            #expect(redone.status == 0, "\(redone.errors)")
            #expect(redone.output.contains("Redid: add \"Write the report\""))
            let after = try await SampleApp.run(["list"] + data)
            #expect(after.output.contains("#1 [ ] Buy milk"))
            #expect(after.output.contains("#2 [ ] Write the report"))

            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            // Beside each file, the lock its writers take (PrismDiskPersistence).
            #expect(files == [".history.json.lock", ".tasks.json.lock", "history.json", "tasks.json"])
        }
    }

    @Test("history lists every change, and travel puts the list back as it was")
    func historyAndTravel() async throws {
        try await withDataDirectory { folder in
            let data = ["--data-dir", folder.path]
            for title in ["a", "b", "c"] { _ = try await SampleApp.run(["add", title] + data) }
            _ = try await SampleApp.run(["remove", "2"] + data)

            let history = try await SampleApp.run(["history"] + data)
            #expect(history.status == 0, "\(history.errors)")
            let lines = history.output.split(separator: "\n")
            #expect(lines.count == 5)
            #expect(lines.first?.contains("0  start") == true)
            #expect(lines.last?.contains("-> 4  remove #2") == true)

            let traveled = try await SampleApp.run(["travel", "2"] + data)
            #expect(traveled.status == 0, "\(traveled.errors)")
            #expect(traveled.output.contains("Traveled to moment 2 (after add \"b\")"))
            let list = try await SampleApp.run(["list"] + data)
            #expect(list.output.contains("#1 [ ] a"))
            #expect(list.output.contains("#2 [ ] b"))
            #expect(!list.output.contains("#3"))

            let redone = try await SampleApp.run(["redo"] + data)
            #expect(redone.output.contains("Redid: add \"c\""))
        }
    }

    @Test("PRISM_SAMPLE_DATA_DIR chooses the folder when --data-dir is not given")
    func environmentVariable() async throws {
        try await withDataDirectory { folder in
            let environment = ["PRISM_SAMPLE_DATA_DIR": folder.path]
            let added = try await SampleApp.run(["add", "From the environment"], environment: environment)
            #expect(added.status == 0, "\(added.errors)")
            let list = try await SampleApp.run(["list", "--data-dir", folder.path])
            #expect(list.output.contains("#1 [ ] From the environment"))
        }
    }

    @Test("With no arguments (what `make run` does) the tour runs on its own and says what each part did")
    func tour() async throws {
        let run = try await SampleApp.run([])
        #expect(run.status == 0, "\(run.errors)")
        for expected in [
            "== 1. A store holds the state", "scoped stores", "PrismRouter", "Persistence to disk",
            "keychain", "-> GET /tasks: 503 Service Unavailable", "304 Not Modified", "GraphQL",
            "Undo and redo", "Time travel", "== 15. Done",
            "the sheet: an editor of \"Book the train\"",
            "the editor saved and dismissed itself: none; notes: Call the bank, Water the plants, Book the train",
            "the alert: “Delete “Call the bank”?” It cannot be undone. [Delete (destructive)] [Cancel (cancel)]",
            "the alert is gone (none); notes: Water the plants, Book the train",
            "the stack: Notes > #1 Water the plants",
            "the stack: Notes > #2 Water the plants > #3 Book the train (every screen new)",
            "it popped itself: Notes > #2 Water the plants",
            "the alert: “Cannot open prismnotes://notes/9” there is no note 9; the stack is unchanged",
            "-> the list: Write the report, Call the bank at 9, Water the plants, Book the train; the detail: Call the bank at 9",
            "with 1 request in all", "-> 4 tasks in 2 pages, before any request",
            "Shared values", "the tour's store sees sort order added (the file is watched)",
            "a task's detail is a child feature (ifLet)", "the timer ticked", "the timer ended with it",
            "Inspector: http://127.0.0.1:",
        ] {
            #expect(run.output.contains(expected), "the tour's output lacks \"\(expected)\"")
        }
    }
}
