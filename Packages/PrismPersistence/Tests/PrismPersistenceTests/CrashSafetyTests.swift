import Foundation
import PrismPersistence
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("A process killed while saving leaves a complete state")
struct CrashSafetyTests {
    @Test("kill -9 at 20 random moments: the file is always a complete earlier or later state")
    func killNine() async throws {
        try await withTemporaryDirectory { directory in
            let persistence = PrismDiskPersistence(directory: directory)
            var generator = SystemRandomNumberGenerator()
            var previous = 0
            for round in 1...20 {
                let process = ChildProcess()
                process.executableURL = TestHelper.url
                process.arguments = ["save-loop", directory.path, "state"]
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                try process.run()

                // Wait for the first save of this round, then kill it at a random moment: the
                // saves follow each other without pause, so the kill lands inside one.
                let reader = output.fileHandleForReading
                let seen = try await offTheCooperativePool { () -> Data in
                    var seen = Data()
                    while !String(decoding: seen, as: UTF8.self).contains("ready") {
                        let chunk = reader.availableData
                        if chunk.isEmpty { break }
                        seen.append(chunk)
                    }
                    return seen
                }
                #expect(String(decoding: seen, as: UTF8.self).contains("ready"), "round \(round): \(seen)")
                try await Task.sleep(for: .microseconds(Int.random(in: 0..<40_000, using: &generator)))
                kill(process.processIdentifier, SIGKILL)
                try await offTheCooperativePool { process.waitUntilExit() }
                #expect(process.terminationReason == .uncaughtSignal)

                let loaded: CrashState? = try persistence.load(key: "state")
                let state = try #require(loaded, "round \(round): no state after the kill")
                #expect(state.isComplete, "round \(round): a torn state, counter \(state.counter)")
                #expect(state.counter > previous, "round \(round): went back from \(previous) to \(state.counter)")
                previous = state.counter
            }
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
