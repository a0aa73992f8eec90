import Foundation
import PrismPersistence
@_exported import PrismTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh, empty folder under the system's temporary folder, removed when `body` returns.
func withTemporaryDirectory<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> Result
) async rethrows -> Result {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("prism-persistence-tests-\(UUID().uuidString)", isDirectory: true)
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// The names of the files in `directory`, sorted, but for the lock files (`.<key>.json.lock`)
/// that writers of each key keep beside its file.
func fileNames(in directory: URL) -> [String] {
    allFileNames(in: directory).filter { !($0.hasPrefix(".") && $0.hasSuffix(".json.lock")) }
}

/// The names of all the files in `directory`, sorted.
func allFileNames(in directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}

/// A key no other test (or test run) uses.
func uniqueKey(_ name: String = #function) -> String {
    let base = name.prefix { $0.isLetter || $0.isNumber }
    return "\(base)-\(UUID().uuidString.prefix(8))"
}

/// The error `body` throws, as a `PrismPersistenceError`; records an issue if it throws
/// something else or nothing.
func persistenceError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> PrismPersistenceError? {
    do {
        try body()
        Issue.record("Expected a PrismPersistenceError, but nothing was thrown.", sourceLocation: sourceLocation)
    } catch let error as PrismPersistenceError {
        return error
    } catch {
        Issue.record("Expected a PrismPersistenceError, got \(error).", sourceLocation: sourceLocation)
    }
    return nil
}

// MARK: Fixtures shared with PrismPersistenceTestHelper (the same shapes as its Fixtures.swift)

/// What the crash test saves: every part derives from `counter`, so a torn or mixed file
/// cannot pass for a complete one.
struct CrashState: Codable, Sendable, Equatable {
    var counter: Int
    var items: [String]
    var checksum: Int

    static func make(_ counter: Int) -> CrashState {
        let items = (0..<(1000 + counter % 500)).map { "item-\(counter)-\($0)" }
        return CrashState(counter: counter, items: items, checksum: counter &* 31 &+ items.count)
    }

    var isComplete: Bool { self == Self.make(counter) }
}

struct Settings: Codable, Sendable, Equatable {
    var theme: String
    var fontSize: Int
}

struct Credentials: Codable, Sendable, Equatable {
    var token: String
}

// MARK: Child processes

/// What a child process did.
struct ChildResult {
    var status: Int32
    var output: String
    var errors: String

    /// The text after "result: " on the line the helper prints last.
    var result: String? {
        output.split(separator: "\n").last { $0.hasPrefix("result: ") }.map { String($0.dropFirst("result: ".count)) }
    }
}

/// PrismPersistenceTestHelper, the executable the tests run as a child process.
///
/// It is a dependency of the test target, so it is built with the tests and lands in the same
/// build products folder as the test bundle; `PRISM_PERSISTENCE_TEST_HELPER` overrides.
enum TestHelper {
    static let name = "PrismPersistenceTestHelper"

    static let url: URL = {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let override = environment["PRISM_PERSISTENCE_TEST_HELPER"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        // Linux: the test bundle is an executable in the products folder.
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: path).deletingLastPathComponent())
        }
        #endif
        candidates += imageFolders()
        // Apple platforms: <products>/<name>.xctest/Contents/MacOS/<name>, run by xctest.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        let executables = candidates.map {
            $0.hasDirectoryPath || !$0.lastPathComponent.hasPrefix(name) ? $0.appendingPathComponent(name) : $0
        }
        guard let found = executables.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            fatalError(
                """
                \(name) was not found next to the test bundle (looked in \(executables.map(\.path))). \
                Build it with `swift build --build-tests`, or set PRISM_PERSISTENCE_TEST_HELPER to its path.
                """
            )
        }
        return found
    }()

    /// Runs the helper with `arguments` to its end.
    static func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> ChildResult {
        try await runProcess(url, arguments, environment: environment)
    }
}

/// Runs `executable` with `arguments` to its end, collecting what it prints.
///
/// Output goes to files, not pipes, so that a chatty child never blocks on a full pipe.
func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) async throws
    -> ChildResult
{
    try await offTheCooperativePool { try runProcessBlocking(executable, arguments, environment: environment) }
}

/// What a child process wrote to `pipe`, read until it contains `marker` or the pipe closes.
func readOutput(of pipe: Pipe, until marker: String) async throws -> String {
    try await offTheCooperativePool { () -> String in
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(marker) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        return String(decoding: seen, as: UTF8.self)
    }
}

private func runProcessBlocking(_ executable: URL, _ arguments: [String], environment: [String: String]?) throws
    -> ChildResult
{
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("prism-persistence-child-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outputURL = folder.appendingPathComponent("stdout")
    let errorsURL = folder.appendingPathComponent("stderr")
    try Data().write(to: outputURL)
    try Data().write(to: errorsURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let errors = try FileHandle(forWritingTo: errorsURL)
    defer {
        try? output.close()
        try? errors.close()
    }

    let process = ChildProcess()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return ChildResult(
        status: process.terminationStatus,
        output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
        errors: String(decoding: try Data(contentsOf: errorsURL), as: UTF8.self)
    )
}

/// The root of the repository (for Tools/scripts), from this file's path.
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // PrismPersistenceTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // PrismPersistence
    .deletingLastPathComponent()  // Packages
    .deletingLastPathComponent()

/// Whether the tests run inside Tools/scripts/with-keyring.sh, with a real Secret Service.
let isInsideKeyring = ProcessInfo.processInfo.environment["PRISM_KEYRING"] == "1"

/// A class of this test target's own, for `Bundle(for:)`.
private final class TestBundleMarker {}

/// The folders where the test bundle is: `Bundle(for:)` finds the bundle this code was linked
/// into (on Apple platforms `<products>/<name>.xctest`), which `Bundle.allBundles` may not list
/// when Swift Testing runs the tests.
private func imageFolders() -> [URL] {
    let bundle = Bundle(for: TestBundleMarker.self).bundleURL.resolvingSymlinksInPath()
    return [bundle.deletingLastPathComponent(), bundle]
}
