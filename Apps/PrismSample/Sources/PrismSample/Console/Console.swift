import Foundation

/// Where the sample writes: standard output for what it shows, standard error for failures.
enum Console {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String = "") {
        print(text)
    }

    /// Writes `text` as it is (no newline) and flushes it: a line redrawn in place.
    static func write(_ text: String) {
        print(text, terminator: "")
        fflush(nil)
    }

    /// Writes each of `texts` on a line of its own.
    static func lines(_ texts: [String]) {
        for text in texts { print(text) }
    }

    /// Writes out what standard output holds now (it is buffered when it is not a terminal),
    /// so that a reader at the other end of a pipe sees it at once.
    static func flush() {
        fflush(nil)
    }

    /// Writes `text` and a newline to standard error, after what standard output holds.
    static func error(_ text: String) {
        flush()
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
