import Foundation
import PrismPersistence
import Testing

/// Each test's shared storage saves in a temporary folder of its own; none is left behind
/// (42 `PrismShared-<UUID>` folders were left after one run of a small app's tests).
@Suite("A test's shared storage leaves nothing in the temporary folder")
struct TemporarySharedStorageTests {
    /// Runs the helper's `shared-temporary COUNT END` with `temporary` as its temporary folder.
    static func helper(_ count: Int, _ end: String, temporary: URL) async throws -> ChildResult {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        return try await TestHelper.run(["shared-temporary", String(count), end], environment: environment)
    }

    /// The folder the helper said its storage saved in.
    static func folder(in result: ChildResult) throws -> URL {
        let line = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("folder ") })
        return URL(fileURLWithPath: String(line.dropFirst("folder ".count)), isDirectory: true)
    }

    static func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test("a storage that ends removes its folder, once the saves it started have ended")
    func storageEnds() async throws {
        try await withTemporaryDirectory { temporary in
            let result = try await Self.helper(20, "release", temporary: temporary)
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output.contains("released"), "\(result.output)")
            // It saved there first: the folder held the counter before it went.
            let folder = try Self.folder(in: result)
            #expect(folder.path.hasPrefix(temporary.standardizedFileURL.path))
            #expect(Self.contents(of: temporary).isEmpty)
        }
    }

    @Test("a process that exits with its storage still alive removes its folders at exit")
    func processExits() async throws {
        try await withTemporaryDirectory { temporary in
            let result = try await Self.helper(5, "exit", temporary: temporary)
            #expect(result.status == 0, "\(result.errors)")
            _ = try Self.folder(in: result)
            #expect(Self.contents(of: temporary).isEmpty)
        }
    }

    @Test("the folders of a process killed midway are removed by the next process that makes a test's storage")
    func killedProcess() async throws {
        try await withTemporaryDirectory { temporary in
            let killed = try await Self.helper(5, "kill", temporary: temporary)
            #expect(killed.status == SIGKILL)
            let left = try Self.folder(in: killed)
            // What it saved is still there: nothing ran after SIGKILL.
            #expect(Self.contents(of: left).isEmpty == false)
            #expect(Self.contents(of: temporary).count == 1)

            let next = try await Self.helper(1, "exit", temporary: temporary)
            #expect(next.status == 0, "\(next.errors)")
            #expect(Self.contents(of: temporary).isEmpty)
        }
    }

    @Test("a folder of another version's layout, or of a process that still runs, is left alone")
    func othersAreLeftAlone() async throws {
        try await withTemporaryDirectory { temporary in
            let running = ProcessInfo.processInfo.processIdentifier
            let mine = temporary.appendingPathComponent("PrismShared-\(running)-abc", isDirectory: true)
            let older = temporary.appendingPathComponent("PrismShared-\(UUID().uuidString)", isDirectory: true)
            let unrelated = temporary.appendingPathComponent("PrismShared-notes", isDirectory: true)
            for folder in [mine, older, unrelated] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            let result = try await Self.helper(1, "exit", temporary: temporary)
            #expect(result.status == 0, "\(result.errors)")
            #expect(Self.contents(of: temporary) == [mine, older, unrelated].map(\.lastPathComponent).sorted())
        }
    }
}
