import Foundation
import PrismCache
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry file of `folder` whose bytes hold `key` (keys are stored in clear).
private func file(holding key: String, in folder: URL) throws -> URL {
    let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "prc" }
    return try #require(files.first { (try? Data(contentsOf: $0))?.range(of: Data(key.utf8)) != nil })
}

@Suite("The response cache's folder against someone else's files")
struct DiskTierHostileTests {
    @Test("a folder other users may read or write is refused with a typed error, and left as it was")
    func openFoldersAreRefused() throws {
        for mode in [0o777, 0o755, 0o750, 0o701] {
            let folder = try makeFolder()
            defer { cleanUp(folder) }
            chmod(folder.path, mode_t(mode))
            #expect(throws: PrismCacheDirectoryError(directory: folder, reason: .accessibleToOthers(permissions: mode)))
            {
                try PrismResponseCache(maxSize: 1, directory: folder)
            }
            let after = try FileManager.default.attributesOfItem(atPath: folder.path)
            #expect((after[.posixPermissions] as? NSNumber)?.intValue == mode)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    @Test("a folder of another user's is refused with a typed error (run as root, which can give one away)")
    func anotherUsersFolderIsRefused() throws {
        try #require(geteuid() == 0, "only root can make a folder of another user's; CI runs the tests as root")
        let folder = try makeFolder()
        defer { cleanUp(folder) }
        #expect(chown(folder.path, 65_534, 65_534) == 0)
        #expect(throws: PrismCacheDirectoryError(directory: folder, reason: .ownedByAnotherUser)) {
            try PrismResponseCache(maxSize: 1, directory: folder)
        }
    }

    @Test(
        "an entry written without the folder's secret (copied from another cache's folder) is not served, and is removed"
    )
    func plantedEntriesAreRefused() async throws {
        try await withFolders { (theirs: URL, mine: URL) async throws in
            let key = "GET https://bank.test/balance"
            let attacker = try PrismResponseCache(maxSize: 10, directory: theirs)
            await attacker.set(entry("forged balance"), for: key)
            // Same name, same format, a valid code under the other folder's secret.
            let planted = try file(holding: key, in: theirs)
            try FileManager.default.copyItem(at: planted, to: mine.appendingPathComponent(planted.lastPathComponent))

            let cache = try PrismResponseCache(maxSize: 10, directory: mine)
            #expect(await cache.lookup(key) == .miss)
            #expect(
                !FileManager.default.fileExists(atPath: mine.appendingPathComponent(planted.lastPathComponent).path))
            // The attacker's own folder still serves it: the code is the secret's, not a checksum.
            #expect(
                await (try PrismResponseCache(maxSize: 10, directory: theirs)).get(for: key)?.data
                    == Data("forged balance".utf8))
        }
    }

    @Test(
        "a FIFO, a link and a huge file under entries' names are not read: lookups answer at once, and they are removed",
        .timeLimit(.minutes(5))
    )
    func nonEntriesAreNotRead() async throws {
        try await withFolders { (folder: URL, outside: URL) async throws in
            let first = try PrismResponseCache(maxSize: 10, directory: folder)
            for key in ["fifo", "link", "huge", "kept"] { await first.set(entry(key), for: key) }
            let fifo = try file(holding: "fifo", in: folder)
            let link = try file(holding: "link", in: folder)
            let huge = try file(holding: "huge", in: folder)
            // A FIFO: opened to read, without O_NONBLOCK, it would wait for a writer forever.
            try FileManager.default.removeItem(at: fifo)
            #expect(mkfifo(fifo.path, 0o600) == 0)
            // A link to a whole, valid entry elsewhere: followed, it would be served.
            let target = outside.appendingPathComponent("target.prc")
            try FileManager.default.moveItem(at: link, to: target)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
            // A terabyte (sparse): read whole, it would take the memory.
            #expect(truncate(huge.path, 1 << 40) == 0)

            let second = try PrismResponseCache(maxSize: 10, directory: folder)
            #expect(await second.lookup("fifo") == .miss)
            #expect(await second.lookup("link") == .miss)
            #expect(await second.lookup("huge") == .miss)
            #expect(await second.get(for: "kept")?.data == Data("kept".utf8))
            for planted in [fifo, link, huge] {
                var status = stat()
                #expect(lstat(planted.path, &status) != 0, "\(planted.lastPathComponent) was removed")
            }
            #expect(FileManager.default.fileExists(atPath: target.path), "the link's target was left alone")
        }
    }

    @Test("a response's Set-Cookie stays in memory: the file has no cookie, and the next launch serves the rest")
    func cookiesAreNotWritten() async throws {
        try await withFolder { (folder: URL) async throws in
            let key = "GET https://api.test/me"
            let stored = PrismCacheEntry(
                data: Data("me".utf8), statusCode: 200,
                fields: [
                    .init(name: "Set-Cookie", value: "session=s3cr3t-session"), .init(name: "ETag", value: #""v1""#),
                    .init(name: "set-cookie2", value: "legacy=s3cr3t-legacy"),
                ],
                ttl: .seconds(300))
            let first = try PrismResponseCache(maxSize: 10, directory: folder)
            await first.set(stored, for: key)
            #expect(await first.get(for: key)?.fields.count == 3, "memory keeps the whole response")

            let bytes = try Data(contentsOf: try file(holding: key, in: folder))
            #expect(bytes.range(of: Data("s3cr3t".utf8)) == nil)
            let second = try PrismResponseCache(maxSize: 10, directory: folder)
            let served = try #require(await second.get(for: key))
            #expect(served.fields == [.init(name: "ETag", value: #""v1""#)])
            #expect(served.data == Data("me".utf8))
        }
    }

    @Test("a key of 20,000 bytes is kept across launches, and so is its entry")
    func longKeysSurvive() async throws {
        try await withFolder { (folder: URL) async throws in
            let key = "GET https://api.test/search?q=" + String(repeating: "a", count: 20_000)
            do {
                let first = try PrismResponseCache(maxSize: 10, directory: folder)
                await first.set(entry("found"), for: key)
            }
            let second = try PrismResponseCache(maxSize: 10, directory: folder)
            #expect(await second.diskCount == 1)
            #expect(await second.get(for: key)?.data == Data("found".utf8))
        }
    }

    @Test(
        "caches opened at once on a new folder agree on one secret, and none sees the folder before it is 0700",
        arguments: 0..<20)
    func concurrentOpensShareTheSecret(round: Int) async throws {
        // Twenty rounds: the folder is new in each, and eight caches race to make it.
        let folder = try makeFolder().appendingPathComponent("new \(round)", isDirectory: true)
        defer { cleanUp(folder.deletingLastPathComponent()) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let cache = try PrismResponseCache(maxSize: 10, directory: folder)
                    await cache.set(entry("\(index)"), for: "key \(index)")
                }
            }
            try await group.waitForAll()
        }
        let reader = try PrismResponseCache(maxSize: 10, directory: folder)
        for index in 0..<8 {
            #expect(await reader.get(for: "key \(index)")?.data == Data("\(index)".utf8))
        }
        let secret = try FileManager.default.attributesOfItem(
            atPath: folder.appendingPathComponent("PrismCache.secret").path)
        #expect((secret[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((secret[.size] as? NSNumber)?.intValue == 32)
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? NSNumber
        #expect(folderMode?.intValue == 0o700)
    }
}
