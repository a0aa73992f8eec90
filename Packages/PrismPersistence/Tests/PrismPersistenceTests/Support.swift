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

/// Runs `body` with a disk strategy over a fresh, empty folder (see
/// ``withTemporaryDirectory(isolation:_:)``), and that folder.
func withDiskPersistence<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PrismDiskPersistence, URL) async throws -> Result
) async rethrows -> Result {
    try await withTemporaryDirectory { directory in
        try await body(PrismDiskPersistence(directory: directory), directory)
    }
}

/// Makes a folder at `path`, where a file is expected, holding a file named `inside` with
/// `contents`: open() works and read() fails with EISDIR, as with EIO, whoever runs the tests
/// (root too, for whom EACCES cannot be produced).
func plantFolder(at path: URL, holding contents: String) throws {
    try FileManager.default.createDirectory(at: path, withIntermediateDirectories: false)
    try Data(contents.utf8).write(to: path.appendingPathComponent("inside"))
}

/// Runs `body` with the name of a UserDefaults suite no other test (or test run) uses, and
/// removes the suite (on Linux, its file too) afterwards.
func withDefaultsSuite<Result>(_ body: (String) throws -> Result) rethrows -> Result {
    let suite = "prism-persistence-tests-\(UUID().uuidString)"
    defer { removeDefaultsSuite(suite) }
    return try body(suite)
}

/// Runs `body` like the synchronous `withDefaultsSuite(_:)`, for a body that suspends.
func withDefaultsSuite<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (String) async throws -> Result
) async rethrows -> Result {
    let suite = "prism-persistence-tests-\(UUID().uuidString)"
    defer { removeDefaultsSuite(suite) }
    return try await body(suite)
}

/// Removes `suite`'s values and, on Linux, the file Foundation keeps them in.
private func removeDefaultsSuite(_ suite: String) {
    UserDefaults().removePersistentDomain(forName: suite)
    #if os(Linux)
    let environment = ProcessInfo.processInfo.environment
    let configDirectory =
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            URL(fileURLWithPath: xdg)
        } else {
            URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".config")
        }
    try? FileManager.default.removeItem(at: configDirectory.appendingPathComponent("\(suite).plist"))
    #endif
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

/// Clears `key` in `persistence` and expects it to load as nil then; then clears it again:
/// clearing a key that holds nothing is not an error.
func expectClearing<State: Codable & Sendable & Equatable>(
    _ key: String,
    of type: State.Type,
    in persistence: some PrismPersistenceStrategy,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try persistence.clear(key: key)
    let cleared: State? = try persistence.load(key: key)
    #expect(cleared == nil, sourceLocation: sourceLocation)
    try persistence.clear(key: key)
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

    /// The text after "result: " on every line the helper printed one, in order.
    var results: [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("result: ") }.map { String($0.dropFirst("result: ".count)) }
    }

    /// The text after "result: " on the line the helper prints last.
    var result: String? { results.last }
}

/// PrismPersistenceTestHelper, the executable the tests run as a child process.
///
/// It is a dependency of the test target, so it is built with the tests and lands in the same
/// build products folder as the test bundle; `PRISM_PERSISTENCE_TEST_HELPER` overrides.
enum TestHelper {
    static let name = "PrismPersistenceTestHelper"

    static let url = productExecutable(named: name, override: "PRISM_PERSISTENCE_TEST_HELPER")

    /// Runs the helper with `arguments` to its end.
    static func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> ChildResult {
        try await runProcess(url, arguments, environment: environment)
    }

    /// Starts the helper with `arguments`, its output going to a pipe, its errors nowhere.
    static func start(_ arguments: [String], input: Pipe? = nil) throws -> (ChildProcess, Pipe) {
        let process = ChildProcess()
        process.executableURL = url
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// Runs `script` with `sh -c`, `$0` being the helper, in a keyring of its own (a nested
    /// Tools/scripts/with-keyring.sh); the helper's results, or nil (an issue recorded) when
    /// there are not `count` of them.
    static func resultsInOwnKeyring(
        of script: String,
        count: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String]? {
        let child = try await runProcess(
            repositoryRoot.appendingPathComponent("Tools/scripts/with-keyring.sh"),
            ["sh", "-c", script, url.path]
        )
        let results = child.results
        #expect(results.count == count, "\(child.output)\(child.errors)", sourceLocation: sourceLocation)
        return results.count == count ? results : nil
    }
}

/// Starts the helper `rounds` times with `arguments` (a command that saves a `CrashState` under
/// "state" in `directory` in a loop, printing "ready" after its first save) and kills it with
/// SIGKILL at a random moment after that: after each kill, the saved state must be a complete
/// one, no older than the one before (newer, when `eachRoundSaves`). Returns the last counter.
func killNineRounds(
    _ arguments: [String],
    rounds: Int,
    in directory: URL,
    eachRoundSaves: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Int {
    var previous = 0
    for round in 1...rounds {
        let (process, output) = try TestHelper.start(arguments)
        // The saves follow each other without pause, so the kill lands inside one.
        let seen = try await readOutput(of: output, until: "ready")
        #expect(seen.contains("ready"), "round \(round): \(seen)", sourceLocation: sourceLocation)
        try await Task.sleep(for: .microseconds(Int.random(in: 0..<40_000)))
        kill(process.processIdentifier, SIGKILL)
        try await offTheCooperativePool { process.waitUntilExit() }
        #expect(process.terminationReason == .uncaughtSignal, sourceLocation: sourceLocation)

        let loaded: CrashState? = try PrismDiskPersistence(directory: directory).load(key: "state")
        let state = try #require(loaded, "round \(round): no state after the kill", sourceLocation: sourceLocation)
        #expect(
            state.isComplete, "round \(round): a torn state, counter \(state.counter)", sourceLocation: sourceLocation)
        #expect(
            eachRoundSaves ? state.counter > previous : state.counter >= previous,
            "round \(round): went back from \(previous) to \(state.counter)",
            sourceLocation: sourceLocation
        )
        previous = state.counter
    }
    return previous
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

extension Trait where Self == ConditionTrait {
    /// Runs a test only with the Secret Service that Tools/scripts/with-keyring.sh starts.
    static var needsSecretService: Self {
        .enabled(if: isInsideKeyring, "needs the Secret Service: run the tests inside Tools/scripts/with-keyring.sh")
    }

    /// Runs a test only inside Tools/scripts/with-keyring.sh, where dbus-run-session and
    /// gnome-keyring are at hand for a keyring of the test's own.
    static var needsOwnKeyring: Self {
        .enabled(
            if: isInsideKeyring, "needs dbus-run-session and gnome-keyring: run inside Tools/scripts/with-keyring.sh")
    }
}
