import Foundation
import PrismPersistence
import Testing

@Suite("A process killed while saving leaves a complete state")
struct CrashSafetyTests {
    @Test("kill -9 at 20 random moments: the file is always a complete earlier or later state")
    func killNine() async throws {
        try await withTemporaryDirectory { directory in
            // Each round waits for the first save of the round, then kills the process.
            let previous = try await killNineRounds(
                ["save-loop", directory.path, "state"], rounds: 20, in: directory, eachRoundSaves: true)
            // The only leftovers a kill may cause are temporary files, never a second state.
            let names = fileNames(in: directory)
            #expect(names.filter { !$0.hasPrefix(".state.json.tmp-") } == ["state.json"])
            // The next process that uses the folder removes them.
            let next = try await TestHelper.run(["save-many", directory.path, "state", "\(previous + 1)", "1"])
            #expect(next.result == "saved 1", "\(next.output)\(next.errors)")
            #expect(allFileNames(in: directory) == [".state.json.lock", "state.json"])
        }
    }
}
