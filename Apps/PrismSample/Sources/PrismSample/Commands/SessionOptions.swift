import ArgumentParser
import Foundation
import Prism

/// Where the task list is kept: `--data-dir`, else `$PRISM_SAMPLE_DATA_DIR`, else the user's
/// data folder (`$XDG_DATA_HOME/prism-sample`, or `~/.local/share/prism-sample`; Application
/// Support on Apple platforms).
struct SessionOptions: ParsableArguments {
    /// The environment variable that sets the folder when `--data-dir` is not given.
    static let environmentVariable = "PRISM_SAMPLE_DATA_DIR"

    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The folder the task list is saved in.",
            discussion: "Default: $PRISM_SAMPLE_DATA_DIR, else \(SessionOptions.defaultFolderForHelp).",
            valueName: "folder"
        ),
        completion: .directory
    )
    var dataDirectory: String?

    /// The default folder on this platform, with the home folder written `~`.
    static var defaultFolderForHelp: String {
        let path = PrismDiskPersistence.defaultDirectory(applicationName: "prism-sample").path
        let home = NSHomeDirectory()
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    /// The folder to use.
    var directory: URL {
        let environment = ProcessInfo.processInfo.environment[Self.environmentVariable]
        guard let path = dataDirectory ?? environment.flatMap({ $0.isEmpty ? nil : $0 }) else {
            return PrismDiskPersistence.defaultDirectory(applicationName: "prism-sample")
        }
        return URL(fileURLWithPath: NSString(string: path).expandingTildeInPath, isDirectory: true)
    }

    func validate() throws {
        if let dataDirectory, dataDirectory.isEmpty {
            throw ValidationError("--data-dir needs a folder.")
        }
    }
}
