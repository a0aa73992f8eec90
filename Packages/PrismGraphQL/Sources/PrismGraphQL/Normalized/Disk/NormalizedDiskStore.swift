#if SQLite
import Foundation
import PrismSupport
import SQLiteNIO

/// The normalized cache's file: an SQLite database with one table, `records(key, record)`, each
/// record as ``RecordCoding`` writes it.
///
/// | Setting                    | Why                                                            |
/// |----------------------------|----------------------------------------------------------------|
/// | `busy_timeout = 0`         | SQLiteNIO's own busy handler waits forever; a store another process holds fails at once instead |
/// | `locking_mode = EXCLUSIVE` | one owner at a time: two processes' caches would each hold a different picture in memory and overwrite each other's records |
/// | `journal_mode = WAL`       | a write is one transaction appended to the log: a process killed in the middle leaves the last whole transaction |
/// | `synchronous = NORMAL`     | what WAL needs to survive a killed process; only a power loss may take the last transactions (never tear one) |
/// | `auto_vacuum = INCREMENTAL`| pages of collected records are given back to the file system after each write that removed some |
/// | `application_id`, `user_version` | tell a store of this code (version 1) from another file or a newer Prism's |
///
/// Opening checks the file (`quick_check`) and reads every record before anything is served; a
/// file that fails is moved aside, never half used.
final class NormalizedDiskStore: Sendable {
    let url: URL
    private let connection: SQLiteConnection

    /// 'PRSM'.
    static let applicationID = 0x5052_534D
    static let version = 1

    private init(url: URL, connection: SQLiteConnection) {
        self.url = url
        self.connection = connection
    }

    /// Opens (or creates) the store at `url` and reads its records.
    static func open(at url: URL) async throws(PrismGraphQLError) -> (NormalizedDiskStore, [String: [UInt8]]) {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw PrismGraphQLError(
                code: .cacheStoreFailed,
                message: "The folder of the normalized cache's store \(url.path) cannot be made: \(error)",
                underlying: error)
        }
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: url.path))
        } catch {
            throw failure(error, url: url, doing: "opened")
        }
        let store = NormalizedDiskStore(url: url, connection: connection)
        do {
            return (store, try await store.prepare())
        } catch let problem as Corruption {
            try? await connection.close()
            throw setAside(url, because: problem.reason)
        } catch {
            try? await connection.close()
            if let sqlite = error as? SQLiteError, Self.isCorruption(sqlite.reason) {
                throw setAside(url, because: sqlite.description)
            }
            throw failure(error, url: url, doing: "opened")
        }
    }

    /// Why a store cannot be used, found while opening it.
    private struct Corruption: Error {
        var reason: String
    }

    /// Takes the store for this process, checks it and creates its table; its records, by key.
    private func prepare() async throws -> [String: [UInt8]] {
        // Settings of the connection first: they touch no file.
        _ = try await rows("PRAGMA busy_timeout = 0")
        _ = try await rows("PRAGMA locking_mode = EXCLUSIVE")
        // The first read of the file: a file that is not a database fails here (notADatabase).
        let application = try await rows("PRAGMA application_id").first?.column("application_id")?.integer ?? 0
        let version = try await rows("PRAGMA user_version").first?.column("user_version")?.integer ?? 0
        guard application == 0 || application == Self.applicationID else {
            throw Corruption(reason: "it is an SQLite database of another program (application_id \(application))")
        }
        guard version <= Self.version else {
            throw Corruption(reason: "it was written by a newer Prism (version \(version))")
        }
        // Takes the lock for good (locking_mode EXCLUSIVE keeps it once written).
        _ = try await rows("PRAGMA auto_vacuum = INCREMENTAL")
        let mode = try await rows("PRAGMA journal_mode = WAL").first?.column("journal_mode")?.string
        guard mode?.lowercased() == "wal" else {
            throw Corruption(reason: "its journal cannot be made a write-ahead log (\(mode ?? "no answer"))")
        }
        _ = try await rows("PRAGMA synchronous = NORMAL")
        let check = try await rows("PRAGMA quick_check").compactMap { $0.columns.first?.data.string }
        guard check == ["ok"] else {
            throw Corruption(reason: "SQLite's check found: \(check.prefix(3).joined(separator: "; "))")
        }
        _ = try await rows("BEGIN IMMEDIATE")
        do {
            _ = try await rows(
                "CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY NOT NULL, record BLOB NOT NULL) WITHOUT ROWID"
            )
            _ = try await rows("PRAGMA application_id = \(Self.applicationID)")
            _ = try await rows("PRAGMA user_version = \(Self.version)")
            _ = try await rows("COMMIT")
        } catch {
            _ = try? await rows("ROLLBACK")
            throw error
        }
        var records: [String: [UInt8]] = [:]
        for row in try await rows("SELECT key, record FROM records") {
            guard let key = row.column("key")?.string, let blob = row.column("record")?.blob else {
                throw Corruption(reason: "a row of its records table is not a key and a record")
            }
            records[key] = Array(blob.readableBytesView)
        }
        return records
    }

    /// Writes `batch` as one transaction: on disk it is all there or not at all.
    func save(_ batch: NormalizedStoreBatch) async throws(PrismGraphQLError) {
        do {
            _ = try await rows("BEGIN IMMEDIATE")
            do {
                if batch.clearing { _ = try await rows("DELETE FROM records") }
                // In statements of many rows each: one trip to SQLite's thread per few hundred.
                for chunk in batch.upserts.chunked(into: 256) {
                    let placeholders = Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", ")
                    var binds: [SQLiteData] = []
                    binds.reserveCapacity(chunk.count * 2)
                    for (key, bytes) in chunk {
                        binds.append(.text(key))
                        binds.append(.blob(ByteBuffer(bytes: bytes)))
                    }
                    _ = try await rows("INSERT OR REPLACE INTO records (key, record) VALUES \(placeholders)", binds)
                }
                for chunk in batch.deletes.chunked(into: 512) {
                    let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    _ = try await rows("DELETE FROM records WHERE key IN (\(placeholders))", chunk.map { .text($0) })
                }
                _ = try await rows("COMMIT")
            } catch {
                _ = try? await rows("ROLLBACK")
                throw error
            }
            if batch.clearing || !batch.deletes.isEmpty { _ = try await rows("PRAGMA incremental_vacuum") }
        } catch {
            throw Self.failure(error, url: url, doing: "written")
        }
    }

    /// Closes the file; the store's lock goes with it.
    func close() async {
        try? await connection.close()
    }

    private func rows(_ sql: String, _ binds: [SQLiteData] = []) async throws -> [SQLiteRow] {
        let rows = PrismLocked<[SQLiteRow]>([])
        try await connection.query(sql, binds) { row in rows.withLock { $0.append(row) } }
        return rows.withLock { $0 }
    }

    // MARK: Failures

    private static func isCorruption(_ reason: SQLiteError.Reason) -> Bool {
        switch reason {
        case .notADatabase, .corrupt, .corruptIndex, .corruptSequenceSchema, .corruptVirtualTable, .format: true
        default: false
        }
    }

    private static func failure(_ error: any Error, url: URL, doing: String) -> PrismGraphQLError {
        let reason: String
        if let sqlite = error as? SQLiteError {
            switch sqlite.reason {
            case .busy, .locked, .busyTimeout:
                reason = "another process has it open (a store has one owner at a time)"
            case .full: reason = "the disk is full"
            case .readOnly, .readonlyDirectory, .readonlyCantLock, .permission, .cantOpen:
                reason = "it cannot be written here (\(sqlite))"
            default: reason = sqlite.description
            }
        } else {
            reason = "\(error)"
        }
        return PrismGraphQLError(
            code: .cacheStoreFailed,
            message: "The normalized cache's store \(url.path) could not be \(doing): \(reason).", underlying: error)
    }

    /// Moves the file (and its log) aside, to `<name>.corrupt-<time>`, and says so.
    static func setAside(_ url: URL, because reason: String) -> PrismGraphQLError {
        let stamp = Int(Date().timeIntervalSince1970 * 1_000)
        let aside = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).corrupt-\(stamp)")
        let manager = FileManager.default
        do {
            try manager.moveItem(at: url, to: aside)
        } catch {
            return PrismGraphQLError(
                code: .cacheStoreFailed,
                message:
                    "The normalized cache's store \(url.path) cannot be read (\(reason)), and could not be moved aside: \(error)",
                underlying: error)
        }
        for suffix in ["-wal", "-shm", "-journal"] {
            let companion = URL(fileURLWithPath: url.path + suffix)
            guard manager.fileExists(atPath: companion.path) else { continue }
            try? manager.moveItem(at: companion, to: URL(fileURLWithPath: aside.path + suffix))
        }
        return PrismGraphQLError(
            code: .cacheStoreCorrupted,
            message:
                "The normalized cache's store \(url.path) cannot be read: \(reason). It was moved to \(aside.path); opening the store again starts an empty one."
        )
    }
}

extension Array {
    fileprivate func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
#endif
