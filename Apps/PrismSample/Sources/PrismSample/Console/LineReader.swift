import Foundation

/// Reads standard input a line at a time without blocking the main actor: each read waits on a
/// thread of its own, so effects and the persistence middleware keep running meanwhile.
enum LineReader {
    /// The next line without its newline, or nil at the end of the input (Ctrl-D, or the end
    /// of a pipe).
    static func next() async -> String? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: readLine(strippingNewline: true)) }.start()
        }
    }

    /// Whether standard input is a terminal (a person typing) rather than a pipe or a file.
    static var isInteractive: Bool {
        isatty(STDIN_FILENO) != 0
    }
}
