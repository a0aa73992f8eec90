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
/// | the folder is the user's, 0700: created so, or refused (``PrismCacheDirectoryError``) when another user owns it or may read or write it | responses are the user's; a folder others can write lets them plant entries, one they can read shows them the responses |
/// | an entry is written to a temporary file, then renamed over the old one | a crash leaves the old file or the new one, never half of either |
/// | every file carries an HMAC-SHA256 of its content under a secret kept in the folder (``DiskEntryFormat``, `PrismCache.secret`, 32 random bytes, 0600) | a file torn anyway (a power cut before the data reached the disk), changed, or written by anyone without the secret is not served: it is removed |
/// | entry files are opened without following a link and without waiting (`O_NOFOLLOW`, `O_NONBLOCK`), and only a regular file no larger than the budget is read | a link planted under an entry's name reads nothing elsewhere; a FIFO would hang the lookup, holding the cache's lock; a huge file would be read into memory |
/// | files are created readable and writable by the user only (0600) | responses are the user's |
/// | a response's `Set-Cookie` fields stay in memory, never on disk | a cookie is the user's session |
/// | a file is named by a digest of its key, the key only inside | a credential-keyed entry's name says nothing; its key holds a digest of the credentials, never them |
/// | the index (key, size, recency) lives in memory, made on first use from the folder, older files first by modification time | a miss costs no system call; the order survives a relaunch because a write or a hit sets the file's time |
/// | that time is the wall clock's, but always later than the last one given | the file system's own clock ticks every few milliseconds: two writes in one tick would tie |
/// | the budget counts file sizes; past it, the least recently used files are removed | the folder never grows past what the app allowed |
/// | a file not named like an entry is left alone, except a temporary one older than a minute | the folder may hold something else; a crash's leftovers go |
///
/// One cache uses a folder at a time. Two processes sharing one never see a torn entry, but
/// each keeps its own index, so the budget holds for each, not for both.
final class DiskTier: Sendable {
    let directory: URL
    let maxBytes: Int
    private let path: String
    /// The key entries are signed with (the folder's `PrismCache.secret`).
    private let secret: [UInt8]
    private let state = PrismLocked(State())

    /// What the tier knows of the folder, behind its lock.
    private struct State {
        /// Key to file size, most recently used first. Valid once `scanned`.
        var index = LRUStorage<String, Int>()
        var bytes = 0
        var scanned = false
        /// The last modification time given to a file, in nanoseconds since 1970.
        var lastTouch: Int64 = 0
    }

    init(directory: URL, maxBytes: Int) throws {
        precondition(maxBytes >= 1, "PrismResponseCache(maxDiskBytes:) must be at least 1 byte.")
        self.directory = directory
        self.maxBytes = maxBytes
        self.path = directory.path
        try Self.prepare(directory)
        self.secret = try Self.secret(in: directory)
    }

    /// The name of the file that holds the folder's secret.
    static let secretName = "PrismCache.secret"

    /// Creates the folder (0700) when it does not exist; throws when it cannot, or when what is
    /// there is not a folder of this user's that only this user can use.
    private static func prepare(_ directory: URL) throws {
        let path = directory.path
        var status = stat()
        if stat(path, &status) != 0 {
            // Made 0700 by mkdir itself: a second cache opening the folder at the same moment
            // never sees it open to others. One another cache made first is checked below.
            do {
                try PrivateFolder.create(directory)
            } catch {
                throw PrismCacheDirectoryError(directory: directory, reason: .cannotCreate(String(describing: error)))
            }
            guard stat(path, &status) == 0 else {
                throw PrismCacheDirectoryError(directory: directory, reason: .cannotCreate("it vanished once created"))
            }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw PrismCacheDirectoryError(directory: directory, reason: .notADirectory)
        }
        guard status.st_uid == geteuid() else {
            throw PrismCacheDirectoryError(directory: directory, reason: .ownedByAnotherUser)
        }
        guard status.st_mode & 0o077 == 0 else {
            throw PrismCacheDirectoryError(
                directory: directory, reason: .accessibleToOthers(permissions: Int(status.st_mode & 0o777)))
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw PrismCacheDirectoryError(directory: directory, reason: .notWritable)
        }
    }

    /// The folder's secret: read from `PrismCache.secret` when that is a regular file of this
    /// user's, 0600, of 32 bytes; otherwise (none yet, or one that is not that) a new random one,
    /// written whole to a temporary file and linked into place, so that two processes opening
    /// the folder at once agree on one.
    private static func secret(in directory: URL) throws -> [UInt8] {
        let file = directory.path + "/" + secretName
        for _ in 0..<3 {
            if let secret = readSecret(file) { return secret }
            let temporary =
                file + "." + String(UInt64.random(in: 0...UInt64.max), radix: 16) + DiskEntryFormat.temporarySuffix
            var generator = SystemRandomNumberGenerator()
            let secret = (0..<SHA256.byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
            guard writeAtomically(secret, to: temporary, modifiedAt: WallNanoseconds.now(), replacing: false) else {
                break
            }
            // Another process's secret, linked first, wins: the next turn reads it.
            _ = link(temporary, file)
            unlink(temporary)
        }
        throw PrismCacheDirectoryError(
            directory: directory, reason: .cannotCreate("its secret (\(secretName)) could not be read or written"))
    }

    /// The secret in `file`, or nil when there is none; a file there that is not a secret of
    /// this user's is removed (and a new one made).
    private static func readSecret(_ file: String) -> [UInt8]? {
        let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno != ENOENT { unlink(file) }
            return nil
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
            status.st_mode & 0o077 == 0, status.st_size == SHA256.byteCount
        else {
            unlink(file)
            return nil
        }
        var secret = [UInt8](repeating: 0, count: SHA256.byteCount)
        let count = secret.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count == SHA256.byteCount else {
            unlink(file)
            return nil
        }
        return secret
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
        let decoded = Self.readWhole(file, upTo: maxBytes, touchingAt: nextTouch()).flatMap { bytes in
            bytes.withUnsafeBytes { DiskEntryFormat.decode($0, secret: secret) }
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
        let bytes = DiskEntryFormat.encode(entry, key: key, storedAtWall: storedAtWall, secret: secret)
        let file = filePath(for: key)
        guard bytes.count <= maxBytes, Self.writeAtomically(bytes, to: file, modifiedAt: nextTouch()) else {
            remove(key)
            return
        }
        let evicted = withIndex { tier -> [String] in
            if let old = tier.index.set(bytes.count, for: key) { tier.bytes -= old }
            tier.bytes += bytes.count
            var evicted: [String] = []
            while tier.bytes > maxBytes, let (oldKey, size) = tier.index.removeLeastRecentlyUsed() {
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
        state.withLock { state in
            state.index.removeAll()
            state.bytes = 0
            state.scanned = true
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            where DiskEntryFormat.isEntryFileName(name) || name.hasSuffix(DiskEntryFormat.temporarySuffix) {
                unlink(path + "/" + name)
            }
        }
    }

    /// A modification time for a file written or read now: the wall clock, or just after the
    /// last time given when the clock has not moved past it.
    private func nextTouch() -> Int64 {
        state.withLock { state in
            state.lastTouch = max(WallNanoseconds.now(), state.lastTouch &+ 1)
            return state.lastTouch
        }
    }

    private func filePath(for key: String) -> String {
        path + "/" + DiskEntryFormat.fileName(for: key)
    }

    /// Runs `body` on the index under the lock, listing the folder first if it was not yet.
    private func withIndex<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock { state in
            if !state.scanned {
                state.scanned = true
                scan(into: &state)
            }
            return body(&state)
        }
    }

    /// Lists the folder into the index: each entry file's key (from its first bytes), size and
    /// modification time; files not named like their key's, or not entry files at all, are
    /// removed, as are temporary files a crash left.
    private func scan(into state: inout State) {
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
            guard let (key, size, modified) = Self.header(of: file, upTo: maxBytes),
                DiskEntryFormat.fileName(for: key) == name
            else {
                unlink(file)
                continue
            }
            found.append((key, size, modified))
        }
        // Times given from now on come after every file's.
        state.lastTouch = max(state.lastTouch, found.map(\.modified).max() ?? 0)
        // Oldest first, so that the most recently used ends up at the front.
        for file in found.sorted(by: { ($0.modified, $0.key) < ($1.modified, $1.key) }) {
            if let old = state.index.set(file.size, for: file.key) { state.bytes -= old }
            state.bytes += file.size
        }
        while state.bytes > maxBytes, let (key, size) = state.index.removeLeastRecentlyUsed() {
            state.bytes -= size
            unlink(filePath(for: key))
        }
    }

    // MARK: - Files

    /// `file` opened for reading when it is a regular file of at most `limit` bytes (not a
    /// link, which is not followed, nor a FIFO or a device, which are not waited on), with its
    /// status; nil otherwise. The caller closes the descriptor.
    private static func openEntry(_ file: String, upTo limit: Int) -> (descriptor: Int32, status: stat)? {
        let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size >= 0,
            status.st_size <= limit
        else {
            close(descriptor)
            return nil
        }
        return (descriptor, status)
    }

    /// The whole of `file`, or nil when it cannot be read or is not an entry file of at most
    /// `limit` bytes (see `openEntry`). Sets its modification time to `touch` (which records
    /// recency for the next launch).
    private static func readWhole(_ file: String, upTo limit: Int, touchingAt touch: Int64) -> [UInt8]? {
        guard let (descriptor, status) = openEntry(file, upTo: limit) else { return nil }
        defer { close(descriptor) }
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

    /// The key, size and modification time of an entry file (see `openEntry`), reading only
    /// its header and key, however long the key.
    private static func header(of file: String, upTo limit: Int) -> (key: String, size: Int, modified: Int64)? {
        guard let (descriptor, status) = openEntry(file, upTo: limit) else { return nil }
        defer { close(descriptor) }
        let size = Int(status.st_size)
        var prefix = [UInt8](repeating: 0, count: DiskEntryFormat.headerSize + 4)
        let count = prefix.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count == prefix.count,
            let length = prefix.withUnsafeBytes({ DiskEntryFormat.keyLength(inPrefix: $0) }),
            length <= size - prefix.count
        else { return nil }
        var key = [UInt8](repeating: 0, count: length)
        let read = key.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(prefix.count)) }
        guard read == length else { return nil }
        return (String(decoding: key, as: UTF8.self), size, modification(of: status))
    }

    private static func sizeAndModification(_ file: String) -> (size: Int, modified: Int64)? {
        var status = stat()
        guard lstat(file, &status) == 0 else { return nil }
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
    /// renames it over `file`; with `replacing` false, writes `file` itself, which must be new.
    /// False when any step fails (the temporary file is then removed).
    private static func writeAtomically(
        _ bytes: [UInt8], to file: String, modifiedAt time: Int64, replacing: Bool = true
    ) -> Bool {
        let temporary =
            replacing
            ? file + "." + String(UInt64.random(in: 0...UInt64.max), radix: 16) + DiskEntryFormat.temporarySuffix
            : file
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
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
        guard close(descriptor) == 0, written, !replacing || rename(temporary, file) == 0 else {
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
        /// The folder belongs to another user.
        case ownedByAnotherUser
        /// Other users may read or write the folder (its permissions, such as 0o755, are given):
        /// they could read the responses, or plant entries.
        case accessibleToOthers(permissions: Int)
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
        case .ownedByAnotherUser:
            "PrismResponseCache will not use the folder \(directory.path): it belongs to another user. Give the cache a folder of this user's."
        case .accessibleToOthers(let permissions):
            "PrismResponseCache will not use the folder \(directory.path): other users may read or write it (mode \(String(permissions, radix: 8))). Make it 0700 (chmod 700) or give the cache a folder of its own; a folder it creates is 0700."
        }
    }
}
