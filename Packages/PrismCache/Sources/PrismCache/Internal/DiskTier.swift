import PrismSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The disk tier of a ``PrismResponseCache``: one file per entry in a folder, a byte budget
/// with least-recently-used eviction, and an index of what is there.
///
/// The rules, and why:
///
/// | rule | why |
/// |---|---|
/// | an entry is written to a temporary file, then renamed over the old one | a crash leaves the old file or the new one, never half of either |
/// | every file carries a checksum of its content (``DiskEntryFormat``) | a file torn anyway (a power cut before the data reached the disk) or changed is not served: it is removed |
/// | files are created readable and writable by the user only (0600), a folder it creates 0700 | responses are the user's |
/// | a file is named by a digest of its key, the key only inside | a credential-keyed entry's name says nothing; its key holds a digest of the credentials, never them |
/// | the index (key, size, recency) lives in memory, made on first use from the folder, older files first by modification time | a miss costs no system call; the order survives a relaunch because a write or a hit sets the file's time |
/// | that time is the wall clock's, but always later than the last one given | the file system's own clock ticks every few milliseconds: two writes in one tick would tie |
/// | the budget counts file sizes; past it, the least recently used files are removed | the folder never grows past what the app allowed |
/// | a file not named like an entry is left alone, except a temporary one older than a minute | the folder may hold something else; a crash's leftovers go |
///
/// One cache uses a folder at a time. Two processes sharing one never see a torn entry, but
/// each keeps its own index, so the budget holds for each, not for both.
final class DiskTier: @unchecked Sendable {
    let directory: URL
    let maxBytes: Int
    private let path: String
    private let lock = PrismLocked<Void>()
    /// Key to file size, most recently used first. Valid once `scanned`.
    private var index = LRUStorage<String, Int>()
    private var bytes = 0
    private var scanned = false
    /// The last modification time given to a file, in nanoseconds since 1970.
    private var lastTouch: Int64 = 0

    init(directory: URL, maxBytes: Int) throws {
        precondition(maxBytes >= 1, "PrismResponseCache(maxDiskBytes:) must be at least 1 byte.")
        self.directory = directory
        self.maxBytes = maxBytes
        self.path = directory.path
        try Self.prepare(directory)
    }

    /// Creates the folder (0700) when it does not exist; throws when it cannot, or when what is
    /// there is not a folder the process can write.
    private static func prepare(_ directory: URL) throws {
        let path = directory.path
        var status = stat()
        if stat(path, &status) != 0 {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw PrismCacheDirectoryError(directory: directory, reason: .cannotCreate(String(describing: error)))
            }
        } else if status.st_mode & S_IFMT != S_IFDIR {
            throw PrismCacheDirectoryError(directory: directory, reason: .notADirectory)
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw PrismCacheDirectoryError(directory: directory, reason: .notWritable)
        }
    }

    /// The number of entries on disk.
    var count: Int { withIndex { $0.index.count } }

    /// The bytes of the entries' files.
    var totalBytes: Int { withIndex { $0.bytes } }

    /// The entry stored for `key`, or nil: none, or its file is gone, torn, changed or another's
    /// (then it is removed). A hit becomes the most recently used, in memory and on disk.
    func load(_ key: String) -> DiskEntryFormat.Decoded? {
        guard withIndex({ $0.index.peek(key) != nil }) else { return nil }
        let file = filePath(for: key)
        let decoded = Self.readWhole(file, touchingAt: nextTouch()).flatMap { bytes in
            bytes.withUnsafeBytes { DiskEntryFormat.decode($0) }
        }
        guard let decoded, decoded.key == key else {
            remove(key)
            return nil
        }
        withIndex { tier in _ = tier.index.withValue(for: key) { _ in () } }
        return decoded
    }

    /// Writes `entry` for `key`, replacing the file there, and removes the least recently used
    /// files past the budget. An entry larger than the budget is not written (and the old one
    /// goes).
    func store(_ entry: PrismCacheEntry, for key: String, storedAtWall: Int64) {
        let bytes = DiskEntryFormat.encode(entry, key: key, storedAtWall: storedAtWall)
        let file = filePath(for: key)
        guard bytes.count <= maxBytes, Self.writeAtomically(bytes, to: file, modifiedAt: nextTouch()) else {
            remove(key)
            return
        }
        let evicted = withIndex { tier -> [String] in
            if let old = tier.index.set(bytes.count, for: key) { tier.bytes -= old }
            tier.bytes += bytes.count
            var evicted: [String] = []
            while tier.bytes > tier.maxBytes, let (oldKey, size) = tier.index.removeLeastRecentlyUsed() {
                tier.bytes -= size
                evicted.append(oldKey)
            }
            return evicted
        }
        for key in evicted { unlink(filePath(for: key)) }
    }

    /// Removes `key`'s file.
    func remove(_ key: String) {
        withIndex { tier in
            if let size = tier.index.remove(key) { tier.bytes -= size }
        }
        unlink(filePath(for: key))
    }

    /// Removes every file whose key passes `isRemoved`.
    func removeAll(where isRemoved: (String) -> Bool) {
        let keys = withIndex { tier in tier.index.keys(where: isRemoved) }
        for key in keys { remove(key) }
    }

    /// Removes every entry file, and every temporary file, in the folder.
    func removeAll() {
        lock.withLock {
            index.removeAll()
            bytes = 0
            scanned = true
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            where DiskEntryFormat.isEntryFileName(name) || name.hasSuffix(DiskEntryFormat.temporarySuffix) {
                unlink(path + "/" + name)
            }
        }
    }

    /// A modification time for a file written or read now: the wall clock, or just after the
    /// last time given when the clock has not moved past it.
    private func nextTouch() -> Int64 {
        lock.withLock {
            lastTouch = max(WallNanoseconds.now(), lastTouch &+ 1)
            return lastTouch
        }
    }

    private func filePath(for key: String) -> String {
        path + "/" + DiskEntryFormat.fileName(for: key)
    }

    /// Runs `body` on the index under the lock, listing the folder first if it was not yet.
    private func withIndex<Result>(_ body: (DiskTier) -> Result) -> Result {
        lock.withLock {
            if !scanned {
                scanned = true
                scan()
            }
            return body(self)
        }
    }

    /// Lists the folder into the index: each entry file's key (from its first bytes), size and
    /// modification time; files not named like their key's, or not entry files at all, are
    /// removed, as are temporary files a crash left.
    private func scan() {
        var found: [(key: String, size: Int, modified: Int64)] = []
        let now = WallNanoseconds.now()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            let file = path + "/" + name
            if name.hasSuffix(DiskEntryFormat.temporarySuffix) {
                if let (_, modified) = Self.sizeAndModification(file), now - modified > 60 * 1_000_000_000 {
                    unlink(file)
                }
                continue
            }
            guard DiskEntryFormat.isEntryFileName(name) else { continue }
            guard let (key, size, modified) = Self.header(of: file), DiskEntryFormat.fileName(for: key) == name else {
                unlink(file)
                continue
            }
            found.append((key, size, modified))
        }
        // Times given from now on come after every file's.
        lastTouch = max(lastTouch, found.map(\.modified).max() ?? 0)
        // Oldest first, so that the most recently used ends up at the front.
        for file in found.sorted(by: { ($0.modified, $0.key) < ($1.modified, $1.key) }) {
            if let old = index.set(file.size, for: file.key) { bytes -= old }
            bytes += file.size
        }
        while bytes > maxBytes, let (key, size) = index.removeLeastRecentlyUsed() {
            bytes -= size
            unlink(filePath(for: key))
        }
    }

    // MARK: - Files

    /// The whole of `file`, or nil when it cannot be read. Sets its modification time to
    /// `touch` (which records recency for the next launch).
    private static func readWhole(_ file: String, touchingAt touch: Int64) -> [UInt8]? {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= 0 else { return nil }
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while done < size {
                let count = read(descriptor, buffer.baseAddress! + done, size - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        guard complete else { return nil }
        setModification(of: descriptor, to: touch)
        return bytes
    }

    /// The key, size and modification time of an entry file, reading only its first bytes.
    private static func header(of file: String) -> (key: String, size: Int, modified: Int64)? {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        var prefix = [UInt8](repeating: 0, count: 4_096)
        let count = prefix.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let key = prefix.withUnsafeBytes {
            DiskEntryFormat.key(inPrefix: UnsafeRawBufferPointer(rebasing: $0[..<count]))
        }
        return key.map { ($0, Int(status.st_size), modification(of: status)) }
    }

    private static func sizeAndModification(_ file: String) -> (size: Int, modified: Int64)? {
        var status = stat()
        guard stat(file, &status) == 0 else { return nil }
        return (Int(status.st_size), modification(of: status))
    }

    private static func modification(of status: stat) -> Int64 {
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Sets the access and modification times of the open file to `time`, nanoseconds since 1970.
    private static func setModification(of descriptor: Int32, to time: Int64) {
        let spec = timespec(tv_sec: .init(time / 1_000_000_000), tv_nsec: .init(time % 1_000_000_000))
        var times = (spec, spec)
        _ = withUnsafePointer(to: &times) { pair in
            pair.withMemoryRebound(to: timespec.self, capacity: 2) { futimens(descriptor, $0) }
        }
    }

    /// Writes `bytes` to a new temporary file (0600) beside `file`, modified at `time`, then
    /// renames it over `file`. False when any step fails (the temporary file is then removed).
    private static func writeAtomically(_ bytes: [UInt8], to file: String, modifiedAt time: Int64) -> Bool {
        let temporary =
            file + "." + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            + DiskEntryFormat.temporarySuffix
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        var done = 0
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            while done < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        if written { setModification(of: descriptor, to: time) }
        guard close(descriptor) == 0, written, rename(temporary, file) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}

/// The wall clock (`CLOCK_REALTIME`) as nanoseconds since 1970: what the disk tier records, so
/// that an entry's age carries over to the next launch.
enum WallNanoseconds {
    @Sendable static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}

/// Why a ``PrismResponseCache`` cannot keep its entries in the folder it was given.
public struct PrismCacheDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the folder.
    public enum Reason: Sendable, Equatable {
        /// The folder does not exist and could not be created (the underlying error's description).
        case cannotCreate(String)
        /// Something other than a folder is at that path.
        case notADirectory
        /// The folder exists but this process cannot create files in it.
        case notWritable
    }

    /// The folder.
    public let directory: URL
    /// What is wrong with it.
    public let reason: Reason

    /// An error for `directory`, for `reason` (a test double of a cache can throw one).
    public init(directory: URL, reason: Reason) {
        self.directory = directory
        self.reason = reason
    }

    /// Describes the folder and the problem.
    public var description: String {
        switch reason {
        case .cannotCreate(let underlying):
            "PrismResponseCache cannot create its folder \(directory.path): \(underlying)"
        case .notADirectory:
            "PrismResponseCache was given \(directory.path) as its folder, but it is not a folder."
        case .notWritable:
            "PrismResponseCache cannot write in its folder \(directory.path) (check its permissions)."
        }
    }
}
