import Foundation
import PrismSupport

/// The folders this process has already cleared of the temporary files that crashed saves left
/// (see `DiskStore`): each folder is swept once, on its first use.
final class SweptFolders: Sendable {
    static let shared = SweptFolders()

    /// The paths of the folders swept so far.
    private let paths = PrismLocked<Set<String>>([])

    /// Adds `path`; whether it was not there yet (and so is to be swept now).
    func insert(_ path: String) -> Bool {
        paths.withLock { $0.insert(path).inserted }
    }
}
