import Foundation
import PrismSupport

/// The temporary file an upload body is staged in for URLSession, which uploads from a file.
///
/// The body may hold secrets (a form with a token, a private document), so the file is created
/// as the issue of a careful program would: in a folder of its own made with `mkdtemp` (mode
/// `0700`, so no other user can list or enter it), with `open(O_CREAT | O_EXCL | O_NOFOLLOW)` and
/// mode `0600` (never an existing file, never through a symbolic link). Both are removed on
/// every path: when staging fails or is cancelled, and by ``StagedFile/remove()`` afterwards.
enum UploadStaging {
    /// A staged body: its file and the private folder that holds it.
    struct StagedFile: Sendable {
        let folder: URL
        let file: URL
        /// The number of bytes written to ``file``.
        let length: Int64

        /// Removes the file and its folder.
        func remove() {
            _ = unlink(file.path)
            _ = rmdir(folder.path)
        }
    }

    /// Writes `body` to a new file in a new private folder under `parent`.
    static func stage(
        _ body: PrismUploadBody, under parent: URL, url: URL, progressed: @Sendable () -> Void = {}
    ) async throws -> StagedFile {
        var template = Array(parent.appendingPathComponent("prism-upload-XXXXXXXX").path.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!) }
        guard made != nil else {
            throw failure("Cannot create a private folder for the upload in \(parent.path) (errno \(errno)).", url: url)
        }
        let folderPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let folder = URL(fileURLWithPath: folderPath, isDirectory: true)
        let file = folder.appendingPathComponent("body")
        var staged = StagedFile(folder: folder, file: file, length: 0)
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            staged.remove()
            throw failure("Cannot create the upload's temporary file (errno \(code)).", url: url)
        }
        do {
            defer { close(descriptor) }
            for try await chunk in body.chunks() {
                try Task.checkCancellation()
                try writeAll(chunk, to: descriptor, url: url)
                staged = StagedFile(folder: folder, file: file, length: staged.length + Int64(chunk.count))
                progressed()
            }
        } catch {
            staged.remove()
            throw error
        }
        return staged
    }

    private static func writeAll(_ chunk: Data, to descriptor: Int32, url: URL) throws {
        try chunk.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("Cannot write the upload's temporary file (errno \(errno)).", url: url)
                }
                offset += written
            }
        }
    }

    private static func failure(_ message: String, url: URL) -> PrismHTTPError {
        PrismHTTPError(code: .transportFailed, message: message, url: url)
    }
}
