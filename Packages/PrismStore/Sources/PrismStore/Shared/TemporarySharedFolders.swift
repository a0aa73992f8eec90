import Foundation
import PrismSupport

/// The temporary folders of ``PrismSharedStorage/temporary()`` (each test's storage), and the
/// rule that none outlives what made it:
///
/// | what ends | what is removed | when |
/// | --- | --- | --- |
/// | a temporary storage (its test's dependencies are let go) | its folder | once the saves it started have ended |
/// | the process, by `exit` or returning from `main` | the process's folder, with every storage's folder in it | in an `atexit` handler |
/// | the process, by a crash or `SIGKILL` | nothing, then | the next process that makes a temporary storage removes the folders of processes that no longer run |
///
/// Every folder of a process is inside one folder of its own in the temporary folder,
/// `PrismShared-<process id>-<random>`: that name says whose it is, so a later process knows it
/// may remove it (`kill(pid, 0)` says that no such process runs). A folder is made only when a
/// persisted key first saves into it.
enum TemporarySharedFolders {
    static let prefix = "PrismShared-"

    /// This process's folder; the first use removes those of processes that ended without
    /// removing theirs and registers the removal of this one at exit.
    static let processFolder: URL = {
        let temporary = FileManager.default.temporaryDirectory
        removeFoldersOfEndedProcesses(in: temporary)
        let random = UInt32.random(in: 0...UInt32.max)
        let folder = temporary.appendingPathComponent(
            "\(prefix)\(getpid())-\(String(random, radix: 16))", isDirectory: true)
        // Registered before any persisted key can save into it (a key's backing is made in a
        // storage, after this): `atexit` handlers run last-registered first, so the exit flush
        // of PrismPersistence's keys has written before this removes the folder.
        atexit { TemporarySharedFolders.removeProcessFolder() }
        return folder
    }()

    /// A new folder for one storage, inside this process's folder (not made yet).
    static func newFolder() -> URL {
        processFolder.appendingPathComponent(UUID().uuidString, isDirectory: true)
    }

    /// Removes `folder` and what it holds; one that is already gone is not an error.
    static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
        // The process's folder goes too once it is empty (another storage may make it again).
        _ = rmdir(processFolder.path)
    }

    static func removeProcessFolder() {
        try? FileManager.default.removeItem(at: processFolder)
    }

    /// Removes the folders `PrismShared-<pid>-...` in `temporary` whose process no longer runs.
    static func removeFoldersOfEndedProcesses(in temporary: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            // Only this layout: `PrismShared-<UUID>` folders of earlier versions name no process.
            let parts = rest.split(separator: "-")
            guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name, isDirectory: true))
            }
        }
    }
}
