import ArgumentParser
import Foundation

/// `prism-sample soak`: the app's live features at a fixed action rate for a long time, for
/// `make soak` to watch its memory, descriptors and threads.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Run every live feature at a fixed action rate for a while, writing counters (what make soak runs).",
        discussion: """
            Drives one session as a user who never stops would: tasks added, completed, removed, undone \
            and redone (saved by the persisting middleware), a task's detail opened and closed (its \
            timer effect), screens pushed and popped, the settings changed (shared values saved to \
            files), a debounced search, pushes to the server with a failure injected before every \
            fourth (retried), the server's list followed as Server-Sent Events, its revision polled, \
            a GraphQL mutation whose event a long-lived subscription receives, and short GraphQL \
            subscriptions opened and finished. With --inspect, a PrismInspector page can watch it all. \
            Every second it rewrites --counters with what it has done (the *_total counts) and what \
            is open now (the others). At the end it stops everything, saves, reads the saved list \
            back, and fails if anything failed or was lost.
            """
    )

    @OptionGroup var options: SessionOptions
    @OptionGroup var server: ServerOptions

    @Option(help: ArgumentHelp("How long to run, in seconds.", valueName: "seconds"))
    var seconds: Double = 60

    @Option(
        help: ArgumentHelp("Stop after this many actions, if --seconds has not ended the run first.", valueName: "n"))
    var actions: Int?

    @Option(help: ArgumentHelp("Actions per second the soak sends, 1 to 1000.", valueName: "n"))
    var rate = 20

    @Option(help: ArgumentHelp("A file to rewrite every second with the counters, as JSON.", valueName: "file"))
    var counters: String?

    @Flag(help: "Serve PrismInspector on 127.0.0.1 and print its URL (Inspector: <url>) before the run.")
    var inspect = false

    @Option(
        help: ArgumentHelp(
            "With --inspect: wait up to this many seconds for a page to connect before starting, and fail if none does or if it leaves.",
            valueName: "seconds"))
    var waitForPage: Double = 0

    func validate() throws {
        guard seconds > 0, seconds <= 7 * 24 * 3_600 else {
            throw ValidationError("--seconds must be more than 0 and at most a week (604800).")
        }
        if let actions, actions < 1 { throw ValidationError("--actions must be at least 1.") }
        guard (1...1_000).contains(rate) else { throw ValidationError("--rate must be 1 to 1000.") }
        guard waitForPage >= 0, waitForPage <= 600 else { throw ValidationError("--wait-for-page must be 0 to 600.") }
        if waitForPage > 0, !inspect { throw ValidationError("--wait-for-page needs --inspect.") }
        if let counters, counters.isEmpty { throw ValidationError("--counters needs a file.") }
    }

    @MainActor
    func run() async throws {
        let soak = Soak(
            plan: Soak.Plan(
                duration: .milliseconds(Int64((seconds * 1_000).rounded())),
                rate: rate,
                actions: actions,
                countersFile: counters.map { URL(fileURLWithPath: NSString(string: $0).expandingTildeInPath) },
                inspect: inspect,
                pageWait: waitForPage > 0 ? .milliseconds(Int64((waitForPage * 1_000).rounded())) : nil
            ),
            directory: options.directory,
            target: server.target,
            timeout: server.requestTimeout
        )
        let report = try await soak.run()
        Console.line(report.summary)
        guard report.problems.isEmpty else {
            throw SampleError(
                "The soak found \(report.problems.count) problem(s):\n"
                    + report.problems.prefix(10).map { "  - \($0)" }.joined(separator: "\n"))
        }
    }
}
