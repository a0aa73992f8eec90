import Foundation
import PrismTestSupport

/// `prism-sample` running as a child process that a test talks to while it runs: it writes to
/// the app's standard input and reads its standard output as it comes.
final class RunningSampleApp: @unchecked Sendable {
    /// Not Foundation's Process: its run() can crash a test process that holds many
    /// descriptors (see ChildProcess).
    private let process = ChildProcess()
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var received = Data()
    private var ended = false

    /// Starts `prism-sample` with `arguments`.
    init(_ arguments: [String]) throws {
        process.executableURL = try SampleApp.url()
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            if data.isEmpty {
                // The end of the output: the app closed it, or exited.
                handle.readabilityHandler = nil
                self.lock.withLock { self.ended = true }
            } else {
                self.lock.withLock { self.received.append(data) }
            }
        }
        try process.run()
    }

    deinit {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    }

    /// What the app wrote to standard output so far.
    var outputSoFar: String {
        lock.withLock { String(decoding: received, as: UTF8.self) }
    }

    /// The first line of output that contains `text`, once the app wrote it; throws if the app
    /// exits or takes more than a few seconds.
    func line(containing text: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let line = outputSoFar.split(separator: "\n").first(where: { $0.contains(text) }) {
                return String(line)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw SampleAppTestError(description: "prism-sample wrote no line with \"\(text)\":\n\(outputSoFar)")
    }

    /// Writes `text` to the app's standard input.
    func write(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Closes the app's standard input and waits, on a thread of its own, for it to exit and
    /// for the rest of its output; returns its exit status.
    func finish() async throws -> Int32 {
        try? input.fileHandleForWriting.close()
        let process = process
        let status = await withCheckedContinuation { continuation in
            Thread {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
            .start()
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while !lock.withLock({ ended }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        return status
    }
}
