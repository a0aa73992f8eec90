import Foundation
import PrismSupport

/// The folders this process has already cleared of the temporary files that crashed saves left
/// (see `DiskStore`): each folder is swept once, on its first use.
final class SweptFolders: @unchecked Sendable {
    static let shared = SweptFolders()

    private let lock = PrismLocked<Void>()
    private var paths: Set<String> = []

    /// Adds `path`; whether it was not there yet (and so is to be swept now).
    func insert(_ path: String) -> Bool {
        lock.withLock { paths.insert(path).inserted }
    }
}
