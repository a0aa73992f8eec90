import Foundation
import PrismPersistence
import Testing

@Suite("A full disk loses nothing already saved")
struct DiskFullTests {
    @Test("a save past the file-size limit throws diskFull and leaves the previous file intact")
    func fileSizeLimit() async throws {
        try await withDiskPersistence { persistence, directory in
            let saved = CrashState.make(7)
            try persistence.save(saved, key: "state")
            let before = try Data(contentsOf: directory.appendingPathComponent("state.json"))

            // A child process whose files may not grow past 4 KiB (RLIMIT_FSIZE, with SIGXFSZ
            // ignored): its save of a state of tens of kilobytes hits the limit mid-write.
            let child = try await TestHelper.run(["save-limited", directory.path, "state", "4096", "1234"])
            #expect(child.status == 0, "\(child.errors)")
            let result = try #require(child.result, "\(child.output)\(child.errors)")
            #expect(result.hasPrefix("error diskFull errno=\(EFBIG)"), "\(result)")
            #expect(result.contains("file-size limit"))
            #expect(result.contains("What was saved before is intact"))

            #expect(try Data(contentsOf: directory.appendingPathComponent("state.json")) == before)
            let loaded: CrashState? = try persistence.load(key: "state")
            #expect(loaded == saved)
            // The partial temporary file was removed.
            #expect(fileNames(in: directory) == ["state.json"])
        }
    }

    @Test("a save under the limit still succeeds in the same child")
    func underTheLimit() async throws {
        try await withTemporaryDirectory { directory in
            let child = try await TestHelper.run(["save-limited", directory.path, "state", "\(1 << 22)", "1"])
            #expect(child.result == "saved", "\(child.output)\(child.errors)")
            let loaded: CrashState? = try PrismDiskPersistence(directory: directory).load(key: "state")
            #expect(loaded == CrashState.make(1))
        }
    }
}
