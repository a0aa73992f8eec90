import Foundation
import Testing

/// The sample's settings and signed-in user: shared values (`@PrismShared`) with their own
/// files, read by more than one feature, and seen by a run that is open while another changes
/// them.
@Suite("Sample app: settings and the signed-in user, shared")
struct SampleAppSettingsTests {
    @Test("the sort order and the signed-in user are saved in files of their own and used by the next runs")
    func settingsAcrossRuns() async throws {
        try await withDataDirectory { folder in
            let data = ["--data-dir", folder.path]
            for title in ["pears", "Apples", "bread"] { _ = try await SampleApp.run(["add", title] + data) }
            _ = try await SampleApp.run(["done", "2"] + data)

            let sorted = try await SampleApp.run(["settings", "--sort", "title"] + data)
            #expect(sorted.status == 0, "\(sorted.errors)")
            #expect(sorted.output.contains("Sort order:   title"))
            let list = try await SampleApp.run(["list"] + data)
            #expect(
                list.output.contains("#2 [x] Apples\n  #3 [ ] bread\n  #1 [ ] pears"),
                "not in title order:\n\(list.output)")

            _ = try await SampleApp.run(["settings", "--sort", "open-first"] + data)
            let openFirst = try await SampleApp.run(["list"] + data)
            #expect(openFirst.output.contains("#1 [ ] pears\n  #3 [ ] bread\n  #2 [x] Apples"), "\(openFirst.output)")

            let signedIn = try await SampleApp.run(["signin", "Ada", "Lovelace"] + data)
            #expect(signedIn.output.contains("Signed in as Ada Lovelace."), "\(signedIn.errors)")
            let settings = try await SampleApp.run(["settings"] + data)
            #expect(settings.output.contains("Signed in:    Ada Lovelace"))

            // Each value in its own file, the one source of its value: the task list's file names
            // them by key (with the values as they were when it was saved), and a run reads the
            // values from their own files, whatever the task list's copy says.
            let user = try String(contentsOf: folder.appendingPathComponent("user.json"), encoding: .utf8)
            #expect(user.contains("Ada Lovelace"))
            let tasksFile = folder.appendingPathComponent("tasks.json")
            let tasks = try String(contentsOf: tasksFile, encoding: .utf8)
            #expect(tasks.contains("prismSharedKey") && tasks.contains("open-first"))
            try tasks.replacingOccurrences(of: "open-first", with: "title").write(
                to: tasksFile, atomically: true, encoding: .utf8)
            let afterEdit = try await SampleApp.run(["settings"] + data)
            #expect(afterEdit.output.contains("Sort order:   open-first"), "\(afterEdit.output)")

            let bad = try await SampleApp.run(["settings", "--sort", "sideways"] + data)
            #expect(bad.status != 0)
            #expect(bad.errors.contains("'added', 'title' or 'open-first'"), "\(bad.errors)")
        }
    }

    @Test("the sync feature holds the user the settings feature signed in")
    func syncHoldsTheSignedInUser() async throws {
        try await withDataDirectory { folder in
            let data = ["--data-dir", folder.path]
            _ = try await SampleApp.run(["add", "Buy milk"] + data)
            let app = try RunningSampleApp(["interactive"] + data)
            app.write("signin Grace\nsync\n")
            let synced = try await app.line(containing: "Synced")
            #expect(synced.contains("(as Grace)"), "\(synced)")
            #expect(try await app.finish() == 0)
        }
    }

    @Test("a run that is open sees the settings another run changes, without writing them back")
    func anotherRunChangesTheSettings() async throws {
        try await withDataDirectory { folder in
            let data = ["--data-dir", folder.path]
            for title in ["b", "a"] { _ = try await SampleApp.run(["add", title] + data) }
            let app = try RunningSampleApp(["interactive"] + data)
            app.write("list\n")
            _ = try await app.line(containing: "1 [ ] b")

            let other = try await SampleApp.run(["settings", "--sort", "title"] + data)
            #expect(other.status == 0, "\(other.errors)")
            let written = try FileManager.default.attributesOfItem(
                atPath: folder.appendingPathComponent("preferences.json").path)[.systemFileNumber]

            // The open run's list follows the other run's order once the file is seen.
            var seen = false
            for _ in 1...200 where !seen {
                app.write("list\n")
                try await Task.sleep(for: .milliseconds(50))
                seen = app.outputSoFar.contains("#2 [ ] a\n  #1 [ ] b")
            }
            #expect(seen, "the open run never listed in title order:\n\(app.outputSoFar)")
            #expect(try await app.finish() == 0)
            // Closing saved nothing over the other run's file.
            let after = try FileManager.default.attributesOfItem(
                atPath: folder.appendingPathComponent("preferences.json").path)[.systemFileNumber]
            #expect("\(after ?? "-")" == "\(written ?? "-")")
        }
    }
}
