import Foundation
import PrismCache
import PrismTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry files in `folder` (named like the disk tier names them).
private func entryFiles(in folder: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "prc" }
}

private func body(_ text: String, size: Int) -> Data {
    Data((text + String(repeating: ".", count: max(0, size - text.utf8.count))).utf8)
}

@Suite("Response cache on disk")
struct DiskTierTests {
    @Test("an entry stored by one cache is served by the next one on the same folder, as it was stored")
    func survivesRelaunch() async throws {
        try await withFolder { (folder: URL) async throws in
            let stored = PrismCacheEntry(
                data: Data(#"{"login":"octocat"}"#.utf8), statusCode: 203,
                fields: [
                    .init(name: "Content-Type", value: "application/json"), .init(name: "Set-Cookie", value: "a=1"),
                    .init(name: "Set-Cookie", value: "b=2"), .init(name: "ETag", value: #""v1""#),
                ],
                ttl: .seconds(300), initialAge: .seconds(10), varyingRequestHeaders: ["accept-language": "fr"])
            do {
                let first = try PrismResponseCache(maxSize: 10, directory: folder)
                await first.set(stored, for: "GET https://api.example.com/users/octocat")
                #expect(await first.diskCount == 1)
            }

            let second = try PrismResponseCache(maxSize: 10, directory: folder)
            #expect(await second.count == 0)
            let lookup = await second.lookup("GET https://api.example.com/users/octocat")
            guard case .fresh(let served) = lookup else {
                Issue.record("expected a fresh entry from disk, got \(lookup)")
                return
            }
            // As stored, but its cookies, which stay in memory (DiskTierHostileTests).
            var withoutCookies = stored
            withoutCookies.fields.removeAll { $0.name == "Set-Cookie" }
            #expect(served == withoutCookies)
            #expect(served.fields.map(\.value) == ["application/json", #""v1""#])
            #expect(served.age >= .seconds(10) && served.age < .seconds(70))
            // Taken into memory: the next read does not go to the folder.
            #expect(await second.count == 1)
            #expect(await second.lookup("GET https://api.example.com/users/missing") == .miss)
        }
    }

    @Test("an entry read from disk is as old as the time since it was stored, and stale once past its lifetime")
    func ageCarriesOver() async throws {
        try await withFolder { (folder: URL) async throws in
            let first = try PrismResponseCache(maxSize: 10, directory: folder, clock: ManualClock())
            await first.set(entry("a", ttl: .seconds(300)), for: "a")

            let clock = ManualClock()
            let second = try PrismResponseCache(maxSize: 10, directory: folder, clock: clock)
            clock.advance(by: .seconds(600))
            let lookup = await second.lookup("a")
            guard case .stale(let served) = lookup else {
                Issue.record("expected the entry stale ten minutes later, got \(lookup)")
                return
            }
            #expect(served.timeInCache >= .seconds(600) && served.timeInCache < .seconds(660))
        }
    }

    @Test("a refresh after a 304 is written to disk: the next launch sees the new fields and a new lifetime")
    func refreshPersists() async throws {
        try await withFolder { (folder: URL) async throws in
            let first = try PrismResponseCache(maxSize: 10, directory: folder)
            await first.set(entry("a", ttl: .seconds(1), headers: ["ETag": #""1""#]), for: "a")
            let second = try PrismResponseCache(maxSize: 10, directory: folder)
            // Not in the second cache's memory: the refresh takes it from disk first.
            let refreshed = await second.refresh(
                key: PrismCacheKey("a"), fields: [.init(name: "ETag", value: #""2""#)], ttl: .seconds(500))
            #expect(refreshed?.etag == #""2""#)

            let third = try PrismResponseCache(maxSize: 10, directory: folder)
            let served = await third.get(for: "a")
            #expect(served?.etag == #""2""#)
            #expect(served?.ttl == .seconds(500))
            #expect(served?.data == Data("a".utf8))
        }
    }

    @Test("the folder keeps to its byte budget, least recently used out first, across launches")
    func byteBudgetEvictsLeastRecentlyUsed() async throws {
        try await withFolder { (folder: URL) async throws in
            // Room for two 10 KB entries, not three.
            let budget = 25_000
            let first = try PrismResponseCache(maxSize: 10, directory: folder, maxDiskBytes: budget)
            await first.set(
                PrismCacheEntry(data: body("a", size: 10_000), statusCode: 200, ttl: .seconds(60)), for: "a")
            await first.set(
                PrismCacheEntry(data: body("b", size: 10_000), statusCode: 200, ttl: .seconds(60)), for: "b")
            #expect(await first.diskCount == 2)
            #expect(try entryFiles(in: folder).count == 2)

            // A new launch reads "a" (from disk), then stores "c": "b" is the least recently used.
            let second = try PrismResponseCache(maxSize: 10, directory: folder, maxDiskBytes: budget)
            #expect(await second.get(for: "a") != nil)
            await second.set(
                PrismCacheEntry(data: body("c", size: 10_000), statusCode: 200, ttl: .seconds(60)), for: "c")
            #expect(await second.diskCount == 2)
            #expect(await second.diskBytes <= budget)
            #expect(try entryFiles(in: folder).count == 2)

            let third = try PrismResponseCache(maxSize: 10, directory: folder, maxDiskBytes: budget)
            #expect(await third.get(for: "a") != nil)
            #expect(await third.get(for: "b") == nil)
            #expect(await third.get(for: "c") != nil)

            // An entry larger than the whole budget is not written, and the old one goes.
            await third.set(
                PrismCacheEntry(data: body("big", size: 30_000), statusCode: 200, ttl: .seconds(60)), for: "c")
            let fourth = try PrismResponseCache(maxSize: 10, directory: folder, maxDiskBytes: budget)
            #expect(await fourth.get(for: "c") == nil)
            #expect(await fourth.get(for: "a") != nil)
        }
    }

    @Test("a smaller budget at the next launch trims the folder to it")
    func smallerBudgetTrims() async throws {
        try await withFolder { (folder: URL) async throws in
            let first = try PrismResponseCache(maxSize: 10, directory: folder)
            for name in ["a", "b", "c", "d"] {
                await first.set(
                    PrismCacheEntry(data: body(name, size: 10_000), statusCode: 200, ttl: .seconds(60)), for: name)
            }
            let second = try PrismResponseCache(maxSize: 10, directory: folder, maxDiskBytes: 21_000)
            #expect(await second.diskCount == 2)
            #expect(try entryFiles(in: folder).count == 2)
            #expect(await second.get(for: "d") != nil)
            #expect(await second.get(for: "a") == nil)
        }
    }

    @Test("files are readable by the user only, named by a digest, and a new folder is the user's only")
    func filesArePrivate() async throws {
        try await withFolder { (parent: URL) async throws in
            let folder = parent.appendingPathComponent("nested/responses", isDirectory: true)
            let cache = try PrismResponseCache(maxSize: 10, directory: folder)
            let key = "GET https://api.example.com/me credentials:5f1e0c8d"
            await cache.set(entry("mine"), for: key)

            let files = try entryFiles(in: folder)
            #expect(files.count == 1)
            for file in files {
                let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
                #expect(!file.lastPathComponent.contains("credentials"))
                #expect(!file.lastPathComponent.contains("example"))
            }
            let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.path)
            #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            // No temporary file is left behind: the entry and the folder's secret.
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                    == [
                        files[0].lastPathComponent, "PrismCache.secret",
                    ].sorted())
        }
    }

    @Test("removeAll empties the folder, and invalidate and removeAll(where:) remove files a previous launch wrote")
    func removalReachesTheDisk() async throws {
        try await withFolder { (folder: URL) async throws in
            let first = try PrismResponseCache(maxSize: 10, directory: folder)
            for key in ["GET https://a.test/1", "GET https://a.test/2", "GET https://b.test/1", "GET https://b.test/2"]
            {
                await first.set(entry(key), for: key)
            }

            let second = try PrismResponseCache(maxSize: 10, directory: folder)
            await second.invalidate(key: "GET https://b.test/2")
            await second.removeAll { $0.hasPrefix("GET https://a.test/") }
            #expect(try entryFiles(in: folder).count == 1)
            let third = try PrismResponseCache(maxSize: 10, directory: folder)
            #expect(await third.get(for: "GET https://a.test/1") == nil)
            #expect(await third.get(for: "GET https://b.test/2") == nil)
            #expect(await third.get(for: "GET https://b.test/1") != nil)

            await third.removeAll()
            #expect(try entryFiles(in: folder).isEmpty)
            #expect(await third.diskCount == 0)
            let fourth = try PrismResponseCache(maxSize: 10, directory: folder)
            #expect(await fourth.get(for: "GET https://b.test/1") == nil)
        }
    }

    @Test("a file changed on disk, cut short, or not the cache's is never served, and is removed")
    func corruptFilesAreRemoved() async throws {
        try await withFolder { (folder: URL) async throws in
            let first = try PrismResponseCache(maxSize: 10, directory: folder)
            await first.set(
                PrismCacheEntry(data: body("flipped", size: 5_000), statusCode: 200, ttl: .seconds(60)), for: "flipped")
            await first.set(
                PrismCacheEntry(data: body("cut", size: 5_000), statusCode: 200, ttl: .seconds(60)), for: "cut")
            await first.set(entry("kept"), for: "kept")
            let files = try entryFiles(in: folder)
            #expect(files.count == 3)

            // Find each file by the key inside it, then damage it.
            func file(holding key: String) throws -> URL {
                try #require(files.first { (try? Data(contentsOf: $0))?.range(of: Data(key.utf8)) != nil })
            }
            let flipped = try file(holding: "flipped")
            var bytes = try Data(contentsOf: flipped)
            bytes[bytes.count - 100] ^= 0x01
            try bytes.write(to: flipped)
            let cut = try file(holding: "cut")
            try Data(try Data(contentsOf: cut).prefix(3_000)).write(to: cut)
            // A file named like an entry that is not one, and a file of someone else's.
            let foreign = folder.appendingPathComponent(String(repeating: "ab", count: 16) + ".prc")
            try Data("not an entry".utf8).write(to: foreign)
            let notes = folder.appendingPathComponent("notes.txt")
            try Data("the app's own file".utf8).write(to: notes)

            let second = try PrismResponseCache(maxSize: 10, directory: folder)
            #expect(await second.lookup("flipped") == .miss)
            #expect(await second.lookup("cut") == .miss)
            #expect(await second.get(for: "kept")?.data == Data("kept".utf8))
            #expect(!FileManager.default.fileExists(atPath: flipped.path))
            #expect(!FileManager.default.fileExists(atPath: cut.path))
            #expect(!FileManager.default.fileExists(atPath: foreign.path))
            #expect(FileManager.default.fileExists(atPath: notes.path))
            #expect(await second.diskCount == 1)
            await second.removeAll()
            #expect(FileManager.default.fileExists(atPath: notes.path))
        }
    }

    @Test("a folder that cannot be one fails with a typed error")
    func badFolders() async throws {
        try await withFolder { (parent: URL) async throws in
            let file = parent.appendingPathComponent("a-file")
            try Data("x".utf8).write(to: file)
            #expect(throws: PrismCacheDirectoryError(directory: file, reason: .notADirectory)) {
                try PrismResponseCache(maxSize: 1, directory: file)
            }
            let underFile = file.appendingPathComponent("responses")
            let error = #expect(throws: PrismCacheDirectoryError.self) {
                try PrismResponseCache(maxSize: 1, directory: underFile)
            }
            guard case .cannotCreate = error?.reason else {
                Issue.record("expected cannotCreate, got \(String(describing: error))")
                return
            }
            #expect(error?.description.contains(underFile.path) == true)
        }
    }

    @Test("a process killed while it writes leaves every entry whole: the old one or the new one")
    func killedWriterLeavesWholeEntries() async throws {
        try await withFolder { (folder: URL) async throws in
            for attempt in 0..<3 {
                let process = ChildProcess()
                process.executableURL = CacheTestHelper.url
                process.arguments = ["write-loop", folder.path]
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                try process.run()
                let ready = try await offTheCooperativePool { () -> Bool in
                    var seen = Data()
                    while !String(decoding: seen, as: UTF8.self).contains("ready") {
                        let chunk = output.fileHandleForReading.availableData
                        if chunk.isEmpty { return false }
                        seen.append(chunk)
                    }
                    return true
                }
                #expect(ready)
                // Let it write for a while, a different while each time, then kill it mid-stride.
                try await Task.sleep(for: .milliseconds(150 + 70 * attempt))
                kill(process.processIdentifier, SIGKILL)
                try await offTheCooperativePool { process.waitUntilExit() }

                let cache = try PrismResponseCache(maxSize: 10, directory: folder)
                var found = 0
                for index in 0..<8 {
                    guard let served = await cache.get(for: "key-\(index)") else { continue }
                    found += 1
                    let round = try #require(served.header("X-Round").flatMap { Int($0) })
                    let length = try #require(served.header("X-Length").flatMap { Int($0) })
                    #expect(served.data.count == length)
                    #expect(served.data.allSatisfy { $0 == UInt8(truncatingIfNeeded: round) })
                }
                // The first round was on disk before "ready": every key has a whole entry.
                #expect(found == 8)
            }
        }
    }
}

/// PrismCacheTestHelper, built with the tests into the same products folder.
enum CacheTestHelper {
    static let url = productExecutable(named: "PrismCacheTestHelper", override: "PRISM_CACHE_TEST_HELPER")
}
