import ArgumentParser
import Foundation
import Prism

/// `prism-sample download`: a file from the server to disk, with a progress bar, resumable.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a file from the server to the data folder, with a progress bar; resumable.",
        discussion: """
            The file streams to a hidden part file beside the destination and is moved into place \
            only when whole; with --cut-at, the demo server drops the first connection after that many \
            bytes, and the download resumes from there with Range and If-Range.
            """
    )

    @OptionGroup var options: SessionOptions
    @OptionGroup var server: ServerOptions

    @Option(help: ArgumentHelp("The file's size in bytes, 1 to 1073741824.", valueName: "bytes"))
    var bytes = 20_000_000

    @Option(help: ArgumentHelp("Drop the first connection after this many bytes (demo server).", valueName: "bytes"))
    var cutAt: Int?

    func validate() throws {
        guard (1...(1 << 30)).contains(bytes) else { throw ValidationError("--bytes must be 1 to 1073741824.") }
        if let cutAt, !(1..<bytes).contains(cutAt) {
            throw ValidationError("--cut-at must be more than 0 and less than --bytes.")
        }
    }

    @MainActor
    func run() async throws {
        try await server.withClient(in: options.directory) { _, client in
            let destination = options.directory.appendingPathComponent("sample-download.bin")
            // A name of its own per run: the demo server cuts the first connection to each name.
            let endpoint = TaskEndpoint(
                server: client.server, route: .file(name: "sample-\(UUID().uuidString)", bytes: bytes, cutAt: cutAt))
            let bar = ProgressBar()
            let policy = PrismDownloadPolicy(resumable: true)
            let download: PrismDownload
            do {
                download = try await client.adapter.download(on: endpoint, to: destination, policy: policy) {
                    bar.show($0)
                }
            } catch let error as PrismHTTPError where cutAt != nil {
                bar.finish()
                Console.line("The connection dropped (\(error.code)); resuming from what arrived...")
                download = try await client.adapter.download(on: endpoint, to: destination, policy: policy) {
                    bar.show($0)
                }
            }
            bar.finish()
            Console.line(
                "Downloaded \(download.byteCount) bytes to \(destination.path)"
                    + (download.resumedAt > 0 ? " (resumed at byte \(download.resumedAt))" : "")
                    + ", SHA-256 \(download.sha256.prefix(16))...")
        }
    }
}

/// A one-line progress bar on standard output, redrawn in place, at most once per percent.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var shown = -1

    func show(_ progress: PrismDownloadProgress) {
        let percent = Int((progress.fraction ?? 0) * 100)
        let changed = lock.withLock { () -> Bool in
            guard percent != shown else { return false }
            shown = percent
            return true
        }
        guard changed else { return }
        let filled = percent / 5
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
        Console.write("\r[\(bar)] \(percent)% \(progress.bytesReceived) bytes")
    }

    func finish() {
        Console.write("\n")
        lock.withLock { shown = -1 }
    }
}
