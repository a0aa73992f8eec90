/// A failure the user can act on, said in a sentence: what went wrong and what to do.
///
/// Commands throw it; ArgumentParser prints `Error: <message>` to standard error and exits
/// with status 1. The interactive mode prints it and carries on.
struct SampleError: Error, CustomStringConvertible, Equatable {
    /// The sentence shown to the user.
    var message: String

    /// Creates an error that says `message`.
    init(_ message: String) {
        self.message = message
    }

    var description: String { message }

    /// There is no task with `id`.
    static func noSuchTask(_ id: Int) -> SampleError {
        SampleError("There is no task #\(id). `prism-sample list` shows the tasks and their numbers.")
    }
}
