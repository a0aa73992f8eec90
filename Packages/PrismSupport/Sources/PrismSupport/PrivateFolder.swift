#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Makes a folder that only its user may use (mode 0700), with no moment in which others may.
///
/// `FileManager.createDirectory(attributes: [.posixPermissions: 0o700])` makes the folder with the
/// default mode (0755 under the usual umask) and changes it afterwards: in between, another
/// process may list the folder, and a second opener that checks the mode sees it open to others.
/// Here `mkdir` is given 0700 itself.
public enum PrivateFolder {
    /// Creates the folders above `url` as needed (with the default mode), then `url` itself with
    /// mode 0700 in one `mkdir`. A folder already at `url` (made earlier, or by another process at
    /// the same moment) is left as it is: callers that need it private check its mode.
    ///
    /// - Throws: Foundation's error when a folder above cannot be made; a `POSIXError` when `url`
    ///   cannot (`ENOTDIR` when something that is not a folder is there).
    public static func create(_ url: URL) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let path = url.path
        if mkdir(path, 0o700) == 0 { return }
        let number = errno
        guard number == EEXIST else { throw POSIXError(POSIXErrorCode(rawValue: number) ?? .EIO) }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw POSIXError(.ENOTDIR)
        }
    }
}
