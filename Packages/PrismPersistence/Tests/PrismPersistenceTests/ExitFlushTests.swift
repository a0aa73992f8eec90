import Foundation
import PrismPersistence
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command-line tool or a service stopped inside a coalescing window keeps its last changes
/// when it called `flushOnExit()`. Each case is a real child process (PrismPersistenceTestHelper
/// `exit-flush`) whose middleware has a one-hour window: only its first change is saved on its
/// own, so the last one reaches the disk only through the exit flush.
@Suite("Saving on exit")
struct ExitFlushTests {
    /// Runs `exit-flush` in `directory`, waits until it has sent `count` changes, then sends it
    /// `signal` (if any) and waits for it to end.
    static func run(
        mode: String,
        count: Int,
        signal: Int32?,
        in directory: URL
    ) async throws -> (process: ChildProcess, output: String) {
        let (process, output) = try TestHelper.start(["exit-flush", directory.path, "counter", mode, "\(count)"])
        let sent = try await readOutput(of: output, until: "sent \(count)\n")
        if let signal {
            // Right after the send: the last changes are still inside the coalescing window.
            kill(process.processIdentifier, signal)
        }
        // Bounded: a child that does not end (a signal it ignores) fails the test, not the run.
        let deadline = ContinuousClock.now + .seconds(120)
        while process.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning {
            Issue.record(
                "exit-flush \(mode) did not end within two minutes of \(signal.map { "signal \($0)" } ?? "its send")")
            kill(process.processIdentifier, SIGKILL)
        }
        try await offTheCooperativePool { process.waitUntilExit() }
        return (process, sent)
    }

    static func savedCount(in directory: URL) throws -> Int? {
        struct Counter: Codable { var count: Int }
        let counter: Counter? = try PrismDiskPersistence(directory: directory).load(key: "counter")
        return counter?.count
    }

    @Test(
        "a signal right after a send: the change is saved, then the signal ends the process",
        arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalRightAfterASend(signal: Int32) async throws {
        try await withTemporaryDirectory { directory in
            let (process, output) = try await Self.run(mode: "signal", count: 50, signal: signal, in: directory)
            #expect(output.contains("sent 50"))
            // Ended by the signal, as without flushOnExit: a shell or a service manager sees the
            // same status.
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(process.terminationStatus == signal)
            #expect(try Self.savedCount(in: directory) == 50)
        }
    }

    @Test("without flushOnExit, the same signal loses the changes of the window")
    func withoutFlushOnExitTheWindowIsLost() async throws {
        try await withTemporaryDirectory { directory in
            let (process, output) = try await Self.run(mode: "none", count: 50, signal: SIGTERM, in: directory)
            #expect(output.contains("sent 50"))
            #expect(process.terminationReason == .uncaughtSignal)
            // At most the first change, saved at once, made it: what flushOnExit is for.
            #expect(try Self.savedCount(in: directory) != 50)
        }
    }

    @Test(
        "exit() right after a send saves the change, whatever the timeout (the longest a Duration holds included)",
        arguments: ["exit", "exit-longest"])
    func exitRightAfterASend(mode: String) async throws {
        try await withTemporaryDirectory { directory in
            let (process, output) = try await Self.run(mode: mode, count: 50, signal: nil, in: directory)
            #expect(output.contains("sent 50"))
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
            #expect(try Self.savedCount(in: directory) == 50)
        }
    }
}
