import Foundation
import PrismTestSupport
import Testing

@testable import PrismGraphQL

// The normalized cache on disk: relaunches (a new cache on the same file), a process killed
// while it writes, and files that are not what they should be, made by SQLite itself (Python's
// sqlite3 module, in a child process).

private struct ListQuery: PrismGraphQLQueryOperation {
    static let operationName = "List"
    static let document = "query List { items { __typename id name } }"
    struct Data: Decodable, Sendable, Hashable {
        let items: [Item]
        struct Item: Decodable, Sendable, Hashable {
            let id: String
            let name: String
        }
    }
}

private struct DetailQuery: PrismGraphQLQueryOperation {
    static let operationName = "Detail"
    static let document = "query Detail($id: ID!) { item(id: $id) { __typename id name } }"
    struct Variables: Encodable, Sendable, Hashable { var id: String }
    struct Data: Decodable, Sendable, Hashable {
        let item: ListQuery.Data.Item?
    }
    var variables: Variables
}

private func items(_ names: [(String, String)]) -> [String: PrismGraphQLValue] {
    ["items": .array(names.map { ["__typename": "Item", "id": .string($0.0), "name": .string($0.1)] })]
}

/// A new folder for one test, removed after it.
private func withStoreFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "prism-normalized-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
}

/// Runs Python's sqlite3 module on the store at `path` (`sys.argv[1]`), as another program would.
private func sqlite(_ script: String, on path: URL) async throws {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import sqlite3, sys\n" + script, path.path]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    try await offTheCooperativePool { process.waitUntilExit() }
    #expect(process.terminationStatus == 0, "python3 failed on \(script)")
}

@Suite("The normalized cache on disk")
struct NormalizedStoreTests {
    @Test("a relaunch reads what the last run wrote: the same answers, watched at once, without a request")
    func relaunch() async throws {
        try await withStoreFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let first = try await PrismGraphQLNormalizedCache.open(at: url)
            #expect(first.storeURL == url)
            try first.write(data: items([("1", "One"), ("2", "Two")]), for: ListQuery())
            try first.writeFragment(
                data: ["__typename": "Item", "id": "2", "name": "Deux"],
                fragment: "fragment N on Item { __typename id name }", at: .init(rawValue: "Item:2"))
            try await first.close()

            let second = try await PrismGraphQLNormalizedCache.open(at: url)
            #expect(second.keys == [.queryRoot, .init(rawValue: "Item:1"), .init(rawValue: "Item:2")])
            let list = try second.read(ListQuery())
            #expect(list.items.map(\.name) == ["One", "Deux"])
            // The detail of an item the list brought: a miss (no root field `item(id:)`), until
            // the cache is told where it is.
            var watched = second.watch(ListQuery()).makeAsyncIterator()
            #expect(await watched.next()?.items.map(\.name) == ["One", "Deux"])
            try second.write(
                data: ["item": ["__typename": "Item", "id": "1", "name": "Uno"]],
                for: DetailQuery(variables: .init(id: "1")))
            #expect(await watched.next()?.items.map(\.name) == ["Uno", "Deux"])
            try await second.close()

            let third = try await PrismGraphQLNormalizedCache.open(at: url)
            #expect(try third.read(DetailQuery(variables: .init(id: "1"))).item?.name == "Uno")
            #expect(try third.read(ListQuery()).items.map(\.name) == ["Uno", "Deux"])
            try await third.close()
        }
    }

    @Test("collected records, removeAll and the record budget reach the file; optimistic answers never do")
    func removalsReachTheFile() async throws {
        try await withStoreFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let cache = try await PrismGraphQLNormalizedCache.open(at: url)
            try cache.write(data: items([("1", "One"), ("2", "Two"), ("3", "Three")]), for: ListQuery())
            try cache.write(data: items([("1", "One")]), for: ListQuery())
            #expect(cache.collectGarbage() == 2)
            let optimistic = try cache.writeOptimistically(data: items([("9", "Nine")]), for: ListQuery())
            try await cache.close()
            _ = optimistic

            let reopened = try await PrismGraphQLNormalizedCache.open(at: url)
            #expect(reopened.keys == [.queryRoot, .init(rawValue: "Item:1")])
            #expect(try reopened.read(ListQuery()).items.map(\.id) == ["1"])
            reopened.removeAll()
            try await reopened.close()

            let emptied = try await PrismGraphQLNormalizedCache.open(
                at: url, configuration: .init(maximumRecordCount: 3))
            #expect(emptied.keys.isEmpty)
            // Ten items into a budget of three: the list goes, and the file keeps what memory keeps.
            try emptied.write(data: items((1...10).map { ("\($0)", "Item \($0)") }), for: ListQuery())
            try emptied.write(
                data: ["item": ["__typename": "Item", "id": "1", "name": "Item 1"]],
                for: DetailQuery(variables: .init(id: "1")))
            let kept = emptied.keys
            #expect(kept.count <= 3)
            try await emptied.close()
            let budgeted = try await PrismGraphQLNormalizedCache.open(at: url)
            #expect(budgeted.keys == kept)
            try await budgeted.close()
        }
    }

    @Test("a field's age goes on counting between runs")
    func ageAcrossRelaunch() async throws {
        try await withStoreFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let configuration = PrismGraphQLNormalizedCacheConfiguration(maxAge: ["Item": .seconds(60)])
            let first = try await PrismGraphQLNormalizedCache.open(at: url, configuration: configuration)
            try first.write(data: items([("1", "One")]), for: ListQuery())
            try await first.close()

            let clock = TestClock()
            let second = try await PrismGraphQLNormalizedCache.open(
                at: url, configuration: configuration, clock: clock)
            #expect(second.freshness(of: ListQuery()) == (true, false))
            await clock.advance(by: .seconds(61))
            #expect(second.freshness(of: ListQuery()) == (true, true))
            try await second.close()
        }
    }

    @Test("a dropped cache writes its last changes and lets go of its file")
    func droppedCacheCloses() async throws {
        try await withStoreFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            var persistence: NormalizedPersistence?
            do {
                let cache = try await PrismGraphQLNormalizedCache.open(at: url)
                try cache.write(data: items([("1", "One")]), for: ListQuery())
                persistence = cache.persistence
            }
            // The cache is gone; its writer writes what was left, then closes the file.
            await persistence?.waitUntilClosed()
            let reopened = try await PrismGraphQLNormalizedCache.open(at: url)
            #expect(try reopened.read(ListQuery()).items.map(\.name) == ["One"])
            try await reopened.close()
        }
    }

    @Test("one owner at a time: a second open fails with cacheStoreFailed until the first is closed")
    func oneOwner() async throws {
        try await withStoreFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let first = try await PrismGraphQLNormalizedCache.open(at: url)
            try first.write(data: items([("1", "One")]), for: ListQuery())
            try await first.flush()
            await #expect {
                _ = try await PrismGraphQLNormalizedCache.open(at: url)
            } throws: { error in
                let error = error as? PrismGraphQLError
                return error?.code == .cacheStoreFailed && error?.message.contains("another process") == true
            }
            // The first goes on, in memory and on disk.
            try first.write(data: items([("1", "Uno")]), for: ListQuery())
            try await first.close()
            let second = try await PrismGraphQLNormalizedCache.open(at: url)
            #expect(try second.read(ListQuery()).items.map(\.name) == ["Uno"])
            try await second.close()
        }
    }

    @Test("a store that cannot be made fails with cacheStoreFailed; the cache in memory is untouched")
    func unusablePlace() async throws {
        try await withStoreFolder { folder in
            let file = folder.appendingPathComponent("a-file")
            try Data("not a folder".utf8).write(to: file)
            let url = file.appendingPathComponent("cache.sqlite")
            await #expect {
                _ = try await PrismGraphQLNormalizedCache.open(at: url)
            } throws: { error in
                (error as? PrismGraphQLError)?.code == .cacheStoreFailed
            }
            #expect(try String(contentsOf: file, encoding: .utf8) == "not a folder")
            // A memory-only cache flushes and closes at once.
            let memory = PrismGraphQLNormalizedCache()
            try await memory.flush()
            try await memory.close()
            #expect(memory.storeURL == nil)
        }
    }
}

@Suite("A damaged normalized cache store is set aside, never served")
struct NormalizedStoreCorruptionTests {
    /// Opens `url`, expecting `cacheStoreCorrupted`; then the file is aside (as SQLite left it:
    /// its header may have been read and rewritten before the damage was found), and the next
    /// open starts empty.
    private func expectSetAside(_ url: URL, saying reason: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        var thrown: PrismGraphQLError?
        do {
            let cache = try await PrismGraphQLNormalizedCache.open(at: url)
            try await cache.close()
        } catch {
            thrown = error
        }
        let error = try #require(thrown, "a damaged store was opened", sourceLocation: sourceLocation)
        #expect(error.code == .cacheStoreCorrupted, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(reason), "\(error.message)", sourceLocation: sourceLocation)
        let folder = url.deletingLastPathComponent()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let aside = try #require(
            names.first { $0.hasPrefix("\(url.lastPathComponent).corrupt-") && !$0.hasSuffix("-wal") },
            "\(names)", sourceLocation: sourceLocation)
        #expect(error.message.contains(aside), sourceLocation: sourceLocation)
        #expect(try !Data(contentsOf: folder.appendingPathComponent(aside)).isEmpty, sourceLocation: sourceLocation)
        let fresh = try await PrismGraphQLNormalizedCache.open(at: url)
        #expect(fresh.keys.isEmpty, sourceLocation: sourceLocation)
        try fresh.write(data: items([("1", "One")]), for: ListQuery())
        try await fresh.close()
    }

    @Test("a file that is not an SQLite database")
    func notADatabase() async throws {
        try await withStoreFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            try Data(repeating: 0x5A, count: 10_000).write(to: url)
            try await expectSetAside(url, saying: "cannot be read")
        }
    }

    @Test("a record that does not read back (written by another program)")
    func malformedRecord() async throws {
        try await withStoreFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let cache = try await PrismGraphQLNormalizedCache.open(at: url)
            try cache.write(data: items([("1", "One")]), for: ListQuery())
            try await cache.close()
            try await sqlite(
                """
                db = sqlite3.connect(sys.argv[1])
                db.execute("UPDATE records SET record = ? WHERE key = 'Item:1'", (b'{"f": {"name": {"x": 1}}}',))
                db.commit()
                db.close()
                """, on: url)
            try await expectSetAside(url, saying: "Item:1")
        }
    }

    @Test("pages damaged on disk: SQLite's own check finds them")
    func damagedPages() async throws {
        try await withStoreFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            let cache = try await PrismGraphQLNormalizedCache.open(at: url)
            try cache.write(
                data: items((1...2_000).map { ("\($0)", String(repeating: "name \($0) ", count: 8)) }),
                for: ListQuery())
            try await cache.close()
            // Every page after the first two overwritten in its middle.
            let handle = try FileHandle(forUpdating: url)
            let size = try handle.seekToEnd()
            var offset: UInt64 = 4_096 * 2 + 1_000
            while offset + 64 < size {
                try handle.seek(toOffset: offset)
                handle.write(Data(repeating: 0xFF, count: 64))
                offset += 4_096
            }
            try handle.close()
            try await expectSetAside(url, saying: "cannot be read")
        }
    }

    @Test("another program's database, or a newer Prism's store")
    func notOurs() async throws {
        try await withStoreFolder { folder in
            let other = folder.appendingPathComponent("other.sqlite")
            try await sqlite(
                """
                db = sqlite3.connect(sys.argv[1])
                db.execute("PRAGMA application_id = 42")
                db.execute("CREATE TABLE notes (text TEXT)")
                db.commit()
                db.close()
                """, on: other)
            try await expectSetAside(other, saying: "another program")

            let newer = folder.appendingPathComponent("newer.sqlite")
            let cache = try await PrismGraphQLNormalizedCache.open(at: newer)
            try await cache.close()
            try await sqlite(
                """
                db = sqlite3.connect(sys.argv[1])
                db.execute("PRAGMA user_version = 2")
                db.commit()
                db.close()
                """, on: newer)
            try await expectSetAside(newer, saying: "newer Prism")
        }
    }
}

@Suite("A process killed while it writes the normalized cache's store")
struct NormalizedStoreKillTests {
    @Test("kill -9 at 8 random moments: every item of one round, never older than the last round saved")
    func killNine() async throws {
        let helper = productExecutable(named: "PrismGraphQLTestHelper", override: "PRISM_GRAPHQL_TEST_HELPER")
        try await withStoreFolder { folder in
            let url = folder.appendingPathComponent("cache.sqlite")
            var saved = 0
            for round in 1...8 {
                let process = ChildProcess()
                process.executableURL = helper
                process.arguments = ["write-loop", url.path]
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                try process.run()
                // Wait for two saves of this run, then kill it at a random moment of the next ones.
                let seen = try await offTheCooperativePool { () -> String in
                    var seen = Data()
                    while String(decoding: seen, as: UTF8.self).components(separatedBy: "saved ").count < 3 {
                        let chunk = output.fileHandleForReading.availableData
                        if chunk.isEmpty { break }
                        seen.append(chunk)
                    }
                    return String(decoding: seen, as: UTF8.self)
                }
                try await Task.sleep(for: .microseconds(Int.random(in: 0..<20_000)))
                kill(process.processIdentifier, SIGKILL)
                try await offTheCooperativePool { process.waitUntilExit() }
                let lastSeen = seen.split(separator: "\n").compactMap {
                    $0.split(separator: " ").last.flatMap { Int($0) }
                }
                .max()
                let printed = try #require(lastSeen, "round \(round): the helper printed \(seen)")
                #expect(printed > saved, "round \(round): went back from \(saved) to \(printed)")

                let cache = try await PrismGraphQLNormalizedCache.open(at: url)
                let names = Set(try cache.read(ListQuery()).items.map(\.name))
                let number = try #require(
                    names.count == 1 ? names.first?.split(separator: " ").last.flatMap { Int($0) } : nil,
                    "round \(round): a torn write: \(names)")
                #expect(number >= printed, "round \(round): saved \(printed), but the store has \(number)")
                saved = number
                try await cache.close()
            }
        }
    }
}
