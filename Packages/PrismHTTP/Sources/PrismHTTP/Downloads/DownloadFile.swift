import Foundation
import PrismSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's `open(2)` (the name is taken by `DownloadFile.open` inside the class).
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

/// The file a download writes: a hidden partial file beside the destination (same folder, so
/// that the final move is a rename, atomic), readable and writable by the user only, and, for a
/// resumable download, a note of what it is a part of.
///
/// | file | what it holds |
/// |---|---|
/// | `<folder>/.<name>.prismdownload` | the bytes received so far |
/// | `<folder>/.<name>.prismdownload.json` | the URL and validator (`ETag` or `Last-Modified`) they came with: a resumable download only, written before its first byte |
/// | `<folder>/<name>` | untouched until the whole file is checked, then replaced by a rename |
///
/// The folder may be shared (a downloads folder, `/tmp`), so what is found there is not trusted:
/// the partial file is opened without following a link (`O_NOFOLLOW`), and resumed only when it
/// is a regular file of the user's with one link; anything else is removed and the download
/// starts over in a file made anew (`O_EXCL`, mode 0600). The note, which holds the whole URL
/// (a token in its query, perhaps), is mode 0600 too.
final class DownloadFile {
    /// What an interrupted download left, to be resumed.
    struct Note: Codable, Equatable {
        var url: String
        var validator: String
    }

    let destination: URL
    let partial: URL
    let noteURL: URL
    private var handle: FileHandle?
    private var hasher = SHA256()
    private(set) var byteCount: Int64 = 0

    /// The files of a download to `destination`; throws `fileFailed` when its folder is missing.
    init(destination: URL) throws(PrismHTTPError) {
        guard destination.isFileURL, !destination.lastPathComponent.isEmpty else {
            throw Self.failure("The destination \(destination) is not a file URL.", destination: destination)
        }
        self.destination = destination.standardizedFileURL
        let folder = self.destination.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw Self.failure("The destination's folder \(folder.path) does not exist.", destination: destination)
        }
        partial = folder.appendingPathComponent(".\(self.destination.lastPathComponent).prismdownload")
        noteURL = folder.appendingPathComponent(".\(self.destination.lastPathComponent).prismdownload.json")
    }

    /// Where an earlier, interrupted download of `url` to this destination stopped, and its
    /// validator: nil when there is none to resume (or it was of another URL).
    func resumePoint(for url: URL) -> (offset: Int64, validator: String)? {
        guard let data = try? Data(contentsOf: noteURL), let note = try? JSONDecoder().decode(Note.self, from: data),
            note.url == url.absoluteString,
            let size = Self.resumableSize(of: partial.path), size > 0
        else { return nil }
        return (size, note.validator)
    }

    /// Opens the partial file: kept as it is and read into the checksum when `appending`, else
    /// made empty. A resumable download's note is written when it has a validator to resume by.
    func open(appending: Bool, note: Note?) throws(PrismHTTPError) {
        do {
            let descriptor: Int32
            if appending {
                // `resumePoint` found a file to resume; if it is not one now (replaced in
                // between), the bytes on their way belong after a part that is gone.
                descriptor = Self.openResumable(partial.path)
                guard descriptor >= 0 else {
                    throw CocoaError(
                        .fileReadNoPermission,
                        userInfo: [
                            NSFilePathErrorKey: partial.path,
                            NSLocalizedDescriptionKey:
                                "it is no longer a regular file of the user's with one link; the next attempt starts over",
                        ])
                }
            } else {
                // Start over in a file made anew: whatever is there (a link, a FIFO, a file of
                // someone else's) is removed, not followed, and O_EXCL refuses one planted again.
                if unlink(partial.path) != 0 && errno != ENOENT { throw Self.posixError("unlink", partial.path) }
                descriptor = Self.openPrivate(partial.path, flags: O_RDWR | O_CREAT | O_EXCL)
                guard descriptor >= 0 else { throw Self.posixError("open", partial.path) }
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            self.handle = handle
            if let note {
                try Self.writePrivately(try JSONEncoder().encode(note), to: noteURL)
            } else {
                try? FileManager.default.removeItem(at: noteURL)
            }
            if appending {
                // The checksum covers the whole file: the kept part is read first.
                while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                    hasher.update(data: chunk)
                    byteCount += Int64(chunk.count)
                }
            }
            try handle.seekToEnd()
        } catch {
            throw Self.failure(
                "The partial file \(partial.path) cannot be written: \(error)", error, destination: destination)
        }
    }

    /// Appends `chunk`.
    func write(_ chunk: Data) throws(PrismHTTPError) {
        do {
            try handle?.write(contentsOf: chunk)
        } catch {
            throw Self.failure("Writing \(partial.path) failed: \(error)", error, destination: destination)
        }
        hasher.update(data: chunk)
        byteCount += Int64(chunk.count)
    }

    /// The SHA-256 of what was written, in lowercase hexadecimal.
    var sha256: String {
        Hexadecimal.lowercase(hasher.finalize())
    }

    /// Writes the file to disk and moves it into place (a rename: the destination is the old
    /// file or the new one, never a part), then forgets the note.
    func finish() throws(PrismHTTPError) {
        do {
            try handle?.synchronize()
            try handle?.close()
            handle = nil
            if rename(partial.path, destination.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
            }
        } catch {
            throw Self.failure(
                "The download could not be moved into place at \(destination.path): \(error)", error,
                destination: destination)
        }
        try? FileManager.default.removeItem(at: noteURL)
    }

    /// Closes the partial file, keeping it (and its note) for a later resume when `keeping`,
    /// else removing both.
    func abandon(keeping: Bool) {
        try? handle?.synchronize()
        try? handle?.close()
        handle = nil
        if !keeping {
            discard()
        }
    }

    /// Removes the partial file and its note.
    func discard() {
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: noteURL)
    }

    // MARK: Files in a folder others may write to

    /// The size of the file at `path` when it may be resumed: a regular file (not a link to one)
    /// the user owns, with one link; nil otherwise.
    static func resumableSize(of path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, isResumable(info) else { return nil }
        return Int64(info.st_size)
    }

    private static func isResumable(_ info: stat) -> Bool {
        (info.st_mode & S_IFMT) == S_IFREG && info.st_uid == geteuid() && info.st_nlink == 1
    }

    /// `path` opened for reading and writing when it may be resumed (see ``resumableSize(of:)``,
    /// checked on the open file itself); -1 otherwise.
    private static func openResumable(_ path: String) -> Int32 {
        // O_NONBLOCK: a FIFO planted under the name must not hang the open.
        let descriptor = openPrivate(path, flags: O_RDWR | O_NONBLOCK)
        guard descriptor >= 0 else { return -1 }
        var info = stat()
        guard fstat(descriptor, &info) == 0, isResumable(info) else {
            close(descriptor)
            return -1
        }
        // Back to blocking writes for a regular file.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// `open(path, flags | O_NOFOLLOW | O_CLOEXEC, 0600)`.
    private static func openPrivate(_ path: String, flags: Int32) -> Int32 {
        systemOpen(path, flags | O_NOFOLLOW | O_CLOEXEC, 0o600)
    }

    /// Writes `data` to `url` readable by the user only: into a new file beside it, then renamed
    /// over it.
    static func writePrivately(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = openPrivate(temporary, flags: O_WRONLY | O_CREAT | O_EXCL)
        guard descriptor >= 0 else { throw posixError("open", temporary) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.close()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, url.path) == 0 else {
            let error = posixError("rename", url.path)
            unlink(temporary)
            throw error
        }
    }

    private static func posixError(_ call: String, _ path: String) -> any Error {
        let code = errno
        return CocoaError(
            .fileWriteUnknown,
            userInfo: [
                NSFilePathErrorKey: path,
                NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
                NSLocalizedDescriptionKey: "\(call) \(path): \(String(cString: strerror(code)))",
            ])
    }

    static func failure(_ message: String, _ underlying: (any Error)? = nil, destination: URL) -> PrismHTTPError {
        PrismHTTPError(code: .fileFailed, message: message, url: destination, underlying: underlying)
    }
}
