#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Makes a folder that only its user may use (mode 0700), with no moment in which others may.
///
/// `FileManager.createDirectory(attributes: [.posixPermissions: 0o700])` makes each folder with
/// the default mode (0755 under the usual umask) and changes it afterwards: in between, another
/// process may list the folder, and a second opener that checks the mode sees it open to others.
/// Here `mkdir` is given 0700 itself.
public enum PrivateFolder {
    /// Creates `url` and each missing folder above it, outermost first, each with mode 0700 in
    /// one `mkdir`. A folder already there (made earlier, or by another process at the same
    /// moment) is left as it is: callers that need it private check its mode.
    ///
    /// - Throws: a `POSIXError`: `ENOTDIR` when something that is not a folder stands at `url`
    ///   or above it, `EACCES` when a folder above may not be written, and so on.
    public static func create(_ url: URL) throws {
        var missing: [String] = []
        var folder = url.standardizedFileURL
        var status = stat()
        while stat(folder.path, &status) != 0 {
            guard errno == ENOENT else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            missing.append(folder.path)
            let parent = folder.deletingLastPathComponent()
            guard parent.path != folder.path else { break }
            folder = parent
        }
        for path in missing.reversed() {
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
        guard stat(url.path, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw POSIXError(.ENOTDIR) }
    }
}
