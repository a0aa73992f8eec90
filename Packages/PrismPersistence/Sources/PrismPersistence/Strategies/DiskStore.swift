import Foundation
import PrismSupport

/// A folder of `<key>.json` files, each written atomically and durably.
///
/// A save writes a temporary file in the same folder, `fsync`s it, renames it over the old
/// file and `fsync`s the folder: at every moment the file is the complete old state or the
/// complete new one, also after a crash or a power cut. A file killed mid-write leaves at most
/// a stray `.<key>.json.tmp-XXXXXX` beside it, never a torn `<key>.json`; the first use of the
/// folder by a process removes such leftovers.
///
/// Writers of one key, in any process, take an advisory lock (`flock`) on `.<key>.json.lock`
/// around the temporary file and the rename, around a removal, and around moving an unreadable
/// file aside: a file is never moved aside or removed just after another writer renamed a good
/// one into place. The lock file is never removed (removing it would let two writers hold two
/// different locks). `<key>.json` is opened without following a symbolic link.
struct DiskStore: RawStore {
    let directory: URL
    private let directoryPath: String

    init(directory: URL) {
        self.directory = directory.standardizedFileURL
        self.directoryPath = self.directory.path
    }

    func location(of key: String) -> URL? {
        fileURL(key)
    }

    private func fileURL(_ key: String) -> URL {
        directory.appendingPathComponent("\(key).json", isDirectory: false)
    }

    private func path(_ key: String) -> String {
        "\(directoryPath)/\(key).json"
    }

    /// The file writers of `key` lock: `.<key>.json.lock`.
    static func lockFileName(_ key: String) -> String {
        ".\(key).json.lock"
    }

    func read(key: String) throws -> Data? {
        sweepOnce()
        // O_NOFOLLOW: a symbolic link put in place of the file is an error, never a way to make
        // the app read (and then move aside or replace) a file elsewhere.
        // O_NONBLOCK: a FIFO put in place of the file must not hang the open (and the restore
        // waiting on it); it is refused below, as anything but a regular file is.
        let descriptor = open(path(key), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            let number = errno
            if number == ENOENT || number == ENOTDIR { return nil }
            if number == ELOOP || number == EMLINK {
                throw failure(
                    number, key: key,
                    doing: """
                        read the file: it is a symbolic link, and PrismDiskPersistence does not follow links in \
                        its folder (replace the link with the file itself, or make the folder the link)
                        """,
                    writing: false)
            }
            throw failure(number, key: key, doing: "open the file to read it", writing: false)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw failure(errno, key: key, doing: "read the file's size", writing: false)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw failure(EISDIR, key: key, doing: "read the file (it is a folder)", writing: false)
        }
        if (info.st_mode & S_IFMT) != S_IFREG {
            throw failure(
                EINVAL, key: key,
                doing: "read the file: it is not a regular file (a FIFO, a socket or a device), which is never read",
                writing: false)
        }
        switch SystemCalls.readAll(descriptor, sizeHint: Int(info.st_size)) {
        case .success(let data): return data
        case .failure(let error): throw failure(error.number, key: key, doing: "read the file", writing: false)
        }
    }

    func write(_ data: Data, key: String) throws {
        sweepOnce()
        try withLock(key: key, creatingFolder: true) {
            try writeLocked(data, key: key)
        }
    }

    private func writeLocked(_ data: Data, key: String) throws {
        let pattern = "\(directoryPath)/.\(key).json.tmp-XXXXXX"
        var template = Array(pattern.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw failure(errno, key: key, doing: "create a temporary file in \(directoryPath)", writing: true)
        }
        let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var renamed = false
        defer { if !renamed { unlink(temporaryPath) } }

        let writeError = data.withUnsafeBytes { SystemCalls.writeAll(descriptor, $0) }
        if let writeError {
            close(descriptor)
            throw failure(writeError, key: key, doing: "write \(data.count) bytes", writing: true)
        }
        if let syncError = SystemCalls.sync(descriptor) {
            close(descriptor)
            throw failure(syncError, key: key, doing: "flush the file to the disk (fsync)", writing: true)
        }
        if close(descriptor) != 0 {
            throw failure(errno, key: key, doing: "close the file", writing: true)
        }
        guard rename(temporaryPath, path(key)) == 0 else {
            throw failure(errno, key: key, doing: "rename the temporary file into place", writing: true)
        }
        renamed = true
        if let syncError = SystemCalls.syncDirectory(directoryPath) {
            throw failure(syncError, key: key, doing: "flush the folder to the disk (fsync)", writing: true)
        }
    }

    func remove(key: String) throws {
        sweepOnce()
        try withLock(key: key, creatingFolder: false) {
            guard unlink(path(key)) == 0 else {
                let number = errno
                if number == ENOENT || number == ENOTDIR { return }
                throw failure(number, key: key, doing: "remove the file", writing: true)
            }
            if let syncError = SystemCalls.syncDirectory(directoryPath) {
                throw failure(syncError, key: key, doing: "flush the folder to the disk (fsync)", writing: true)
            }
        }
    }

    func withExclusiveAccess<Result>(key: String, _ body: () throws -> Result) throws -> Result {
        try withLock(key: key, creatingFolder: false, body)
    }

    // MARK: Locking

    /// Runs `body` holding the advisory lock of `key` (`flock` on `.<key>.json.lock`, created
    /// if needed), which every writer of the key takes, in this process or another.
    ///
    /// Without the folder, `body` runs unlocked unless `creatingFolder` (there is nothing in it
    /// to protect). On a file system that has no `flock` it runs unlocked too: the rename still
    /// keeps every file whole.
    private func withLock<Result>(
        key: String,
        creatingFolder: Bool,
        _ body: () throws -> Result
    ) throws -> Result {
        var descriptor = openLockFile(key)
        if descriptor < 0 && errno == ENOENT {
            guard creatingFolder else { return try body() }
            try makeDirectory(key: key)
            descriptor = openLockFile(key)
        }
        guard descriptor >= 0 else {
            throw failure(
                errno, key: key, doing: "open the lock file \(Self.lockFileName(key)) in \(directoryPath)",
                writing: true)
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            let number = errno
            if number == EINTR { continue }
            if number == ENOLCK || number == EOPNOTSUPP || number == ENOTSUP || number == ENOSYS { break }
            throw failure(number, key: key, doing: "lock \(Self.lockFileName(key)) (flock)", writing: true)
        }
        return try body()
    }

    private func openLockFile(_ key: String) -> Int32 {
        open("\(directoryPath)/\(Self.lockFileName(key))", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    }

    // MARK: Leftovers of crashes

    /// Removes the temporary files that processes killed in the middle of a save left in the
    /// folder, the first time this process uses it.
    private func sweepOnce() {
        guard SweptFolders.shared.insert(directoryPath) else { return }
        removeLeftoverTemporaryFiles()
    }

    /// Removes every `.<key>.json.tmp-XXXXXX` whose key's lock is free: a writer holds the lock
    /// from before it creates its temporary file until after it renamed or removed it, so with
    /// the lock free, such a file belongs to nobody.
    func removeLeftoverTemporaryFiles() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directoryPath) else { return }
        var leftovers: [String: [String]] = [:]
        for name in names {
            if let key = Self.keyOfTemporaryFile(name) { leftovers[key, default: []].append(name) }
        }
        for (key, names) in leftovers {
            let descriptor = openLockFile(key)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            // Held: a save of this key is under way, in this process or another.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            for name in names { unlink("\(directoryPath)/\(name)") }
        }
    }

    /// The key of a temporary file's name, `.<key>.json.tmp-XXXXXX`, or nil for any other name.
    static func keyOfTemporaryFile(_ name: String) -> String? {
        guard name.hasPrefix("."), let marker = name.range(of: ".json.tmp-", options: .backwards),
            name[marker.upperBound...].utf8.count == 6
        else { return nil }
        let key = String(name[name.index(after: name.startIndex)..<marker.lowerBound])
        return PersistenceKey.problem(with: key) == nil ? key : nil
    }

    func moveAside(key: String, suffix: String) throws -> MovedAside {
        let source = path(key)
        var attempt = 1
        while true {
            let name = "\(key).json.\(suffix)\(attempt > 1 ? "-\(attempt)" : "")"
            let target = "\(directoryPath)/\(name)"
            attempt += 1
            // link() never replaces an existing file, so nothing moved aside earlier is lost.
            if link(source, target) == 0 {
                if unlink(source) != 0 {
                    let number = errno
                    unlink(target)
                    throw failure(
                        number, key: key, doing: "remove the unreadable file after linking it aside", writing: true)
                }
            } else {
                let number = errno
                if number == EEXIST { continue }
                if number == ENOENT { throw failure(number, key: key, doing: "move the file aside", writing: true) }
                // A file system without hard links: rename, having checked the name is free.
                if access(target, F_OK) == 0 { continue }
                guard rename(source, target) == 0 else {
                    throw failure(errno, key: key, doing: "move the file aside", writing: true)
                }
            }
            _ = SystemCalls.syncDirectory(directoryPath)
            return MovedAside(key: nil, url: directory.appendingPathComponent(name, isDirectory: false))
        }
    }

    /// Creates the folder and the folders above it, readable by the user only.
    private func makeDirectory(key: String) throws {
        do {
            try PrivateFolder.create(directory)
        } catch {
            var report = PrismPersistenceError(
                code: .writeFailed,
                key: key,
                message: "Could not create the folder \(directoryPath): \(error.localizedDescription).",
                url: fileURL(key),
                underlying: error
            )
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let posix = (error as? POSIXError)?.code.rawValue
            if let number = posix
                ?? underlying.flatMap({
                    $0.domain == NSPOSIXErrorDomain ? Int32(truncatingIfNeeded: $0.code) : nil
                })
            {
                report.errorNumber = number
                if Self.isFull(number) { report.code = .diskFull }
            }
            throw report
        }
        _ = SystemCalls.syncDirectory(directory.deletingLastPathComponent().path)
    }

    private static func isFull(_ number: Int32) -> Bool {
        number == ENOSPC || number == EDQUOT || number == EFBIG
    }

    private func failure(_ number: Int32, key: String, doing what: String, writing: Bool) -> PrismPersistenceError {
        let full = Self.isFull(number)
        var message = "Could not \(what)"
        if full {
            message += number == EFBIG ? ": the file-size limit was reached" : ": the disk or the quota is full"
        }
        message += "."
        if writing { message += " What was saved before is intact." }
        return PrismPersistenceError(
            code: full ? .diskFull : (writing ? .writeFailed : .readFailed),
            key: key,
            message: message,
            url: fileURL(key),
            errorNumber: number
        )
    }
}
