import Foundation
import PrismPersistence
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Two processes saving one key (an app and its extension, two invocations of a tool) never
/// tear its file, lose a backup of an unreadable file, or move a good file aside.
@Suite("Several processes writing one key")
struct ConcurrentWritersTests {
    /// Starts two helpers that save `CrashState`s under "shared" in `directory`, 1,000 each.
    static func startTwoWriters(in directory: URL) throws -> [(ChildProcess, Pipe)] {
        try [1, 1_000_001].map { first in
            try TestHelper.start(["save-many", directory.path, "shared", "\(first)", "1000"])
        }
    }

    /// Runs `look` over and over while any of `writers` runs, with what it has seen so far and
    /// the problems it has found, on a thread of its own (a loop that never suspends must not
    /// hold one of the few threads every test's tasks run on); then expects no problems, and
    /// each writer to have saved its 1,000 states. Returns what `look` saw.
    static func watchWhileWriting<Seen: Sendable>(
        _ writers: [(ChildProcess, Pipe)],
        from start: Seen,
        _ look: @escaping @Sendable (inout Seen, inout [String]) throws -> Void
    ) async throws -> Seen {
        let processes = writers.map(\.0)
        let (seen, problems) = try await offTheCooperativePool { () -> (Seen, [String]) in
            var seen = start
            var problems: [String] = []
            while processes.contains(where: \.isRunning) { try look(&seen, &problems) }
            return (seen, problems)
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        for (process, output) in writers {
            #expect(try await finish(process, output) == "saved 1000")
        }
        return seen
    }

    /// Waits for `process` to end and returns the helper's result line.
    static func finish(_ process: ChildProcess, _ output: Pipe) async throws -> String? {
        let data = try await offTheCooperativePool { () -> Data in
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        return ChildResult(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self), errors: "")
            .result
    }

    @Test("two processes saving the same key 1,000 times each: every version a reader sees decodes")
    func twoWritersOneReader() async throws {
        try await withDiskPersistence { persistence, directory in
            let writers = try Self.startTwoWriters(in: directory)
            // Read as fast as possible while they write: a torn or mixed file fails to decode
            // (and would be moved aside), a missing one reads as nil after the first save.
            let versions = try await Self.watchWhileWriting(writers, from: Set<Int>()) { versions, problems in
                do {
                    let state: CrashState? = try persistence.load(key: "shared")
                    if let state {
                        if !state.isComplete { problems.append("a torn state: counter \(state.counter)") }
                        versions.insert(state.counter)
                    } else if !versions.isEmpty {
                        problems.append("the file went missing after a save")
                    }
                } catch {
                    problems.append("a load while two processes write failed: \(error)")
                }
            }
            let last: CrashState = try #require(try persistence.load(key: "shared"))
            #expect(last.isComplete)
            #expect(last.counter == 1000 || last.counter == 1_001_000)
            #expect(versions.count > 1, "the reader saw \(versions.count) versions")
            // Nothing but the file and its lock: no temporary file, nothing moved aside.
            #expect(allFileNames(in: directory) == [".shared.json.lock", "shared.json"])
        }
    }

    @Test("moving an unreadable file aside never takes a good file another process just saved")
    func moveAsideRacesWriters() async throws {
        try await withDiskPersistence { persistence, directory in
            let file = directory.appendingPathComponent("shared.json")
            let garbage = Data("{\"version\":1,\"state\":{\"coun".utf8)
            let writers = try Self.startTwoWriters(in: directory)
            // Damage the file again and again while they write (as a failing disk would, with
            // no lock), and load it: each load moves the damaged file aside.
            let seen = try await Self.watchWhileWriting(writers, from: (aside: [URL](), round: 0)) { seen, problems in
                seen.round += 1
                let planted = directory.appendingPathComponent("planted-\(seen.round)")
                try garbage.write(to: planted)
                _ = rename(planted.path, file.path)
                do {
                    let state: CrashState? = try persistence.load(key: "shared")
                    if let state, !state.isComplete { problems.append("a torn state: \(state.counter)") }
                } catch let error as PrismPersistenceError {
                    if error.code != .corruptFile { problems.append("\(error)") }
                    if let url = error.movedAsideURL {
                        seen.aside.append(url)
                    } else {
                        problems.append("not moved aside: \(error)")
                    }
                }
            }
            let reportedAside = seen.aside
            // Every file moved aside is one of the damaged ones, never a good state; and every
            // one a load reported is still there (no backup was replaced).
            let asides = fileNames(in: directory).filter { $0.hasPrefix("shared.json.corrupt-") }
            #expect(asides.count == reportedAside.count)
            for name in asides {
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                #expect(data == garbage, "\(name) holds a good state that was moved aside")
            }
            #expect(!reportedAside.isEmpty)
        }
    }

    @Test("a save waits while another process holds the key's lock, .<key>.json.lock")
    func saveWaitsForTheLock() async throws {
        try await withDiskPersistence { persistence, directory in
            let input = Pipe()
            let (holder, output) = try TestHelper.start(["hold-lock", directory.path, "shared"], input: input)
            #expect(try await readOutput(of: output, until: "locked").contains("locked"))

            // The save blocks in flock: on a thread of its own, not one of the few that run
            // every test's tasks.
            let saved = LockedBox(false)
            async let save: Void = offTheCooperativePool {
                try persistence.save(CrashState.make(1), key: "shared")
                saved.mutate { $0 = true }
            }
            // Long enough for an unlocked save to have happened many times over.
            try await Task.sleep(for: .milliseconds(300))
            #expect(!saved.wrappedValue)
            #expect(!fileNames(in: directory).contains("shared.json"))

            try input.fileHandleForWriting.close()
            try await save
            #expect(saved.wrappedValue)
            #expect(try await Self.finish(holder, output) == "released")
            let state: CrashState? = try persistence.load(key: "shared")
            #expect(state == CrashState.make(1))
        }
    }

    @Test("the lock file is readable by the user only and survives a clear")
    func lockFile() async throws {
        try await withDiskPersistence { persistence, directory in
            try persistence.save(CrashState.make(1), key: "shared")
            try persistence.clear(key: "shared")
            let lock = directory.appendingPathComponent(".shared.json.lock")
            let attributes = try FileManager.default.attributesOfItem(atPath: lock.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(allFileNames(in: directory) == [".shared.json.lock"])
        }
    }
}
