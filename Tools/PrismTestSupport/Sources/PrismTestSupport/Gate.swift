/// A one-shot signal that tasks can wait for.
public final class Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    /// A closed gate.
    public init() { (stream, continuation) = AsyncStream.makeStream() }

    /// Opens the gate: every waiter, and every later one, goes on.
    public func open() { continuation.finish() }

    /// Waits until the gate is open.
    public func wait() async { for await _ in stream {} }
}
