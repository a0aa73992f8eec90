import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Android)
@preconcurrency import Android
#endif

/// A folder of `<key>.json` files, each written atomically and durably.
///
/// A save writes a temporary file in the same folder, `fsync`s it, renames it over the old
/// file and `fsync`s the folder: at every moment the file is the complete old state or the
/// complete new one, also after a crash or a power cut. A file killed mid-write leaves at most
/// a stray `.<key>.json.tmp-XXXXXX` beside it, never a torn `<key>.json`.
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

    func read(key: String) throws -> Data? {
        let descriptor = open(path(key), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let number = errno
            if number == ENOENT || number == ENOTDIR { return nil }
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
        switch SystemCalls.readAll(descriptor, sizeHint: Int(info.st_size)) {
        case .success(let data): return data
        case .failure(let error): throw failure(error.number, key: key, doing: "read the file", writing: false)
        }
    }

    func write(_ data: Data, key: String) throws {
        let pattern = "\(directoryPath)/.\(key).json.tmp-XXXXXX"
        var template = Array(pattern.utf8CString)
        var descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor < 0 && errno == ENOENT {
            try makeDirectory(key: key)
            // A failed mkstemp may have filled in the Xs: start from the pattern again.
            template = Array(pattern.utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        }
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
        guard unlink(path(key)) == 0 else {
            let number = errno
            if number == ENOENT || number == ENOTDIR { return }
            throw failure(number, key: key, doing: "remove the file", writing: true)
        }
        if let syncError = SystemCalls.syncDirectory(directoryPath) {
            throw failure(syncError, key: key, doing: "flush the folder to the disk (fsync)", writing: true)
        }
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
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            var report = PrismPersistenceError(
                code: .writeFailed,
                key: key,
                message: "Could not create the folder \(directoryPath): \(error.localizedDescription).",
                url: fileURL(key),
                underlying: error
            )
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            if let underlying, underlying.domain == NSPOSIXErrorDomain {
                let number = Int32(truncatingIfNeeded: underlying.code)
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
