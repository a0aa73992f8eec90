import Dispatch
import PrismStore

/// Keeps a shared value of a ``PrismPersistedKey``: loads it once through a `PersistWriter`,
/// saves its changes through a `PersistScheduler` (first change at once, then at most once per
/// coalescing window, off the main actor), and on exit (`ExitFlusher`).
///
/// Everything PrismPersistMiddleware guarantees holds, because it is the same writer: a value
/// that could not be loaded is never saved over (saves are refused until a load succeeds), an
/// unreadable one is moved aside and reported, migrations apply, writers of one key are
/// serialised across processes.
final class SharedPersistence<Value: Codable & Sendable>: PrismSharedBacking, @unchecked Sendable {
    let scheduler: PersistScheduler<Value>

    init(
        strategy: any PrismPersistenceStrategy,
        key: String,
        options: PrismPersistedKey<Value>.Options
    ) {
        let writer = PersistWriter<Value>(
            strategy: strategy, key: key, logger: options.logger, onError: options.onError)
        scheduler = PersistScheduler(writer: writer, window: options.coalescingWindow, clock: options.clock)
        if let timeout = options.exitTimeout {
            ExitFlusher.shared.register(scheduler, timeout: timeout)
        }
    }

    func load() -> Value? {
        // Errors are reported by the writer (logger, onError); a failure that leaves a value
        // behind blocks saving until a later load succeeds.
        try? scheduler.writer.restore()
    }

    func valueChanged(_ value: Value) {
        scheduler.record(value)
    }

    func attach(reading: @escaping @MainActor @Sendable () -> Value?) {
        scheduler.attach(reading)
    }

    func flush() async throws {
        try await scheduler.flush()
    }
}
