import Foundation
import PrismTestServer
import PrismTestSupport

/// What one run of `prism-sample` did.
struct SampleRun: Sendable {
    /// The exit status.
    var status: Int32
    /// What it wrote to standard output.
    var output: String
    /// What it wrote to standard error.
    var errors: String
}

/// An error of the tests' helpers, with a message that says what to do.
struct SampleAppTestError: Error, CustomStringConvertible {
    var description: String
}

/// The `prism-sample` executable, run as a child process with a data folder of the test's own.
///
/// `swift build --build-tests` (and `swift test`) build every executable of the root package into
/// the products folder the test bundle is in, so it is found there; `PRISM_SAMPLE_BINARY`
/// overrides.
enum SampleApp {
    static let name = "prism-sample"

    /// Where the executable is, or an error that says where it was looked for.
    static func url() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        var folders: [URL] = []
        if let override = environment["PRISM_SAMPLE_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        // Linux: the test bundle is an executable in the products folder.
        if let executable = Bundle.main.executableURL {
            folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: path).deletingLastPathComponent())
        }
        #endif
        folders += imageFolders()
        // Apple platforms: <products>/<name>.xctest/Contents/MacOS/<name>, run by xctest.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        let candidates = folders.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw SampleAppTestError(
                description: """
                    \(name) was not found next to the test bundle (looked in \(folders.map(\.path))). \
                    Build it with `swift build --build-tests` (it is an executable of the root package), \
                    or set PRISM_SAMPLE_BINARY to its path.
                    """
            )
        }
        return found
    }

    /// Runs `prism-sample` with `arguments` and, when given, `input` on its standard input and
    /// `environment` added to this process's; returns when it exits.
    static func run(
        _ arguments: [String],
        input: String? = nil,
        environment: [String: String] = [:]
    ) async throws -> SampleRun {
        let executable = try url()
        let environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try await withCheckedThrowingContinuation { continuation in
            // Waiting for a child process blocks: do it on a thread of its own, not on one of the
            // few threads Swift concurrency runs every test's tasks on.
            Thread {
                continuation.resume(
                    with: Result {
                        try runBlocking(executable, arguments, input: input, environment: environment)
                    })
            }
            .start()
        }
    }

    private static func runBlocking(
        _ executable: URL,
        _ arguments: [String],
        input: String?,
        environment: [String: String]
    ) throws -> SampleRun {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("prism-sample-run-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Files, not pipes: a chatty child never blocks on a full pipe.
        let outputURL = folder.appendingPathComponent("stdout")
        let errorsURL = folder.appendingPathComponent("stderr")
        let inputURL = folder.appendingPathComponent("stdin")
        try Data().write(to: outputURL)
        try Data().write(to: errorsURL)
        try Data((input ?? "").utf8).write(to: inputURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorsURL)
        let standardInput = try FileHandle(forReadingFrom: inputURL)
        defer {
            try? output.close()
            try? errors.close()
            try? standardInput.close()
        }

        // Not Foundation's Process: its run() can crash a test process that holds many
        // descriptors (see ChildProcess).
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        process.waitUntilExit()
        return SampleRun(
            status: process.terminationStatus,
            output: String(decoding: try readOutput(outputURL), as: UTF8.self),
            errors: String(decoding: try readOutput(errorsURL), as: UTF8.self)
        )
    }

    /// Reads a file the child wrote, again when the read fails with EBADF.
    ///
    /// Seen once in CI on Linux: the read of this file failed with "Bad file descriptor" while other
    /// tests of this process ran child processes, i.e. something closed a descriptor number it no
    /// longer owned after this read had opened it. None of Prism's code does; corelibs Foundation's
    /// `Process` is known for the same symptom under concurrency (swiftlang/swift#57827). The file
    /// is intact on disk, so a fresh open reads it; any other error is thrown.
    private static func readOutput(_ url: URL) throws -> Data {
        var attempt = 0
        while true {
            do {
                return try Data(contentsOf: url)
            } catch let error as NSError where attempt < 3 && error.isBadFileDescriptor {
                attempt += 1
            }
        }
    }
}

extension NSError {
    /// Whether this error, or the one under it, is the POSIX error EBADF.
    fileprivate var isBadFileDescriptor: Bool {
        if domain == NSPOSIXErrorDomain && code == Int(EBADF) { return true }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.isBadFileDescriptor ?? false
    }
}

/// A fresh, empty folder for one test's data, removed when `body` returns.
func withDataDirectory<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> Result
) async throws -> Result {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("prism-sample-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// A demo server on 127.0.0.1 for `body`, shut down when it returns or throws.
func withDemoServer<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PrismTestServer) async throws -> Result
) async throws -> Result {
    let server = try await PrismTestServer.start()
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// A class of this test target's own, for `Bundle(for:)`.
private final class TestBundleMarker {}

/// The folders where the test bundle is: `Bundle(for:)` finds the bundle this code was linked
/// into (on Apple platforms `<products>/<name>.xctest`), which `Bundle.allBundles` may not list
/// when Swift Testing runs the tests.
private func imageFolders() -> [URL] {
    let bundle = Bundle(for: TestBundleMarker.self).bundleURL.resolvingSymlinksInPath()
    return [bundle.deletingLastPathComponent(), bundle]
}
