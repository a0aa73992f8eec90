import Foundation
import PrismSupport

/// The file a download writes: a hidden partial file beside the destination (same folder, so
/// that the final move is a rename, atomic), readable and writable by the user only, and, for a
/// resumable download, a note of what it is a part of.
///
/// | file | what it holds |
/// |---|---|
/// | `<folder>/.<name>.prismdownload` | the bytes received so far |
/// | `<folder>/.<name>.prismdownload.json` | the URL and validator (`ETag` or `Last-Modified`) they came with: a resumable download only, written before its first byte |
/// | `<folder>/<name>` | untouched until the whole file is checked, then replaced by a rename |
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
            let size = (try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber,
            size.int64Value > 0
        else { return nil }
        return (size.int64Value, note.validator)
    }

    /// Opens the partial file: kept as it is and read into the checksum when `appending`, else
    /// made empty. A resumable download's note is written when it has a validator to resume by.
    func open(appending: Bool, note: Note?) throws(PrismHTTPError) {
        do {
            if !appending || !FileManager.default.fileExists(atPath: partial.path) {
                try? FileManager.default.removeItem(at: partial)
                guard
                    FileManager.default.createFile(
                        atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600])
                else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial.path]) }
            }
            if let note {
                try JSONEncoder().encode(note).write(to: noteURL, options: .atomic)
            } else {
                try? FileManager.default.removeItem(at: noteURL)
            }
            let handle = try FileHandle(forUpdating: partial)
            self.handle = handle
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

    static func failure(_ message: String, _ underlying: (any Error)? = nil, destination: URL) -> PrismHTTPError {
        PrismHTTPError(code: .fileFailed, message: message, url: destination, underlying: underlying)
    }
}
