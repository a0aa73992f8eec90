import Foundation
import Testing

@testable import PrismPersistence

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What PrismDiskPersistence leaves in its folder, and what it refuses to touch: leftovers of
/// crashed saves are removed, symbolic links are not followed.
@Suite("Disk hygiene")
struct DiskHygieneTests {
    static let envelope = Data("{\"version\":1,\"state\":[\"kept\"]}".utf8)

    @Test("temporary files left by crashed saves are removed the next time a process uses the folder")
    func leftoversAreRemoved() async throws {
        try await withTemporaryDirectory { directory in
            let leftovers = [".state.json.tmp-Ab12Cd", ".state.json.tmp-000000", ".other key.json.tmp-zzzzzz"]
            let unrelated = [
                "state.json", "notes.txt", ".hidden", "state.json.corrupt-20260101T000000Z", ".state.json.tmp-short",
                "x.json.tmp-ABCDEF",
            ]
            for name in leftovers + unrelated {
                try Self.envelope.write(to: directory.appendingPathComponent(name))
            }
            // Another process (the app's next launch) saves a key of its own in the folder.
            let child = try await TestHelper.run(["save-many", directory.path, "third", "1", "1"])
            #expect(child.result == "saved 1", "\(child.output)\(child.errors)")
            let names = Set(fileNames(in: directory))
            for name in leftovers { #expect(!names.contains(name), "\(name) was left behind") }
            for name in unrelated + ["third.json"] { #expect(names.contains(name), "\(name) was removed") }
        }
    }

    @Test("the temporary file of a save under way in another process is left alone")
    func liveTemporaryFileIsKept() async throws {
        try await withTemporaryDirectory { directory in
            let temporary = directory.appendingPathComponent(".busy.json.tmp-Q1w2E3")
            try Self.envelope.write(to: temporary)
            // A process holds the lock of "busy", as it does from before it creates its
            // temporary file until after it renamed it.
            let input = Pipe()
            let holder = ChildProcess()
            holder.executableURL = TestHelper.url
            holder.arguments = ["hold-lock", directory.path, "busy"]
            let output = Pipe()
            holder.standardOutput = output
            holder.standardInput = input
            try holder.run()
            #expect(try await readOutput(of: output, until: "locked").contains("locked"))

            let busy = try await TestHelper.run(["save-many", directory.path, "third", "1", "1"])
            #expect(busy.result == "saved 1")
            #expect(FileManager.default.fileExists(atPath: temporary.path))

            try input.fileHandleForWriting.close()
            try await offTheCooperativePool { holder.waitUntilExit() }
            let free = try await TestHelper.run(["save-many", directory.path, "third", "2", "1"])
            #expect(free.result == "saved 1")
            #expect(!FileManager.default.fileExists(atPath: temporary.path))
        }
    }

    @Test("the state file is never read through a symbolic link")
    func symbolicLinkIsNotFollowed() async throws {
        try await withTemporaryDirectory { directory in
            let elsewhere = directory.appendingPathComponent("elsewhere", isDirectory: true)
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
            let target = elsewhere.appendingPathComponent("private.json")
            try Self.envelope.write(to: target)
            let folder = directory.appendingPathComponent("store", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            let link = folder.appendingPathComponent("state.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
            let persistence = PrismDiskPersistence(directory: folder)

            let error = persistenceError {
                let _: [String]? = try persistence.load(key: "state")
            }
            #expect(error?.code == .readFailed)
            #expect(error?.errorNumber == ELOOP)
            #expect(error?.message.contains("symbolic link") == true)
            #expect(error?.movedAsideURL == nil)
            // A save replaces the link itself, never the file it points to.
            try persistence.save(["new"], key: "state")
            #expect(try Data(contentsOf: target) == Self.envelope)
            var info = stat()
            #expect(lstat(link.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
            #expect(try persistence.load(key: "state") == ["new"])
        }
    }

    @Test("a symbolic link in place of the lock file is refused, and its target is not touched")
    func lockFileLinkIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            let victim = directory.appendingPathComponent("victim")
            let folder = directory.appendingPathComponent("store", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(".state.json.lock"), withDestinationURL: victim)
            let persistence = PrismDiskPersistence(directory: folder)
            let error = persistenceError { try persistence.save(["new"], key: "state") }
            #expect(error?.code == .writeFailed)
            #expect(error?.errorNumber == ELOOP)
            #expect(!FileManager.default.fileExists(atPath: victim.path))
            #expect(!fileNames(in: folder).contains("state.json"))
        }
    }

    @Test("the folder itself may be a symbolic link")
    func linkedFolder() async throws {
        try await withTemporaryDirectory { directory in
            let real = directory.appendingPathComponent("real", isDirectory: true)
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
            let linked = directory.appendingPathComponent("linked", isDirectory: true)
            try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: real)
            let persistence = PrismDiskPersistence(directory: linked)
            try persistence.save(["through the link"], key: "state")
            #expect(try persistence.load(key: "state") == ["through the link"])
            #expect(fileNames(in: real) == ["state.json"])
        }
    }
}
