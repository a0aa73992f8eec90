import Dispatch
import PrismStore
import PrismSupport

/// Keeps a shared value of a ``PrismPersistedKey``: loads it once through a `PersistWriter`,
/// saves its changes through a `PersistScheduler` (first change at once, then at most once per
/// coalescing window, off the main actor), and on exit (`ExitFlusher`).
///
/// Everything PrismPersistMiddleware guarantees holds, because it is the same writer: a value
/// that could not be loaded is never saved over (saves are refused until a load succeeds), an
/// unreadable one is moved aside and reported, migrations apply, writers of one key are
/// serialised across processes.
///
/// ## Outside changes
/// With a strategy that can tell (`OutsideChangeSource`: files, defaults), a save by someone
/// else (another process, another storage of this process) is loaded by the writer, and a value
/// that differs from the last one loaded or saved is handed to the holders on the main actor,
/// unless this process changed the value after the writer loaded it: the later change wins
/// (it is saved over the outside one, and the other process hears of it in turn). Nothing is
/// saved back: the writer knows the value as saved, so two processes never echo each other.
final class SharedPersistence<Value: Codable & Sendable>: PrismSharedBacking, @unchecked Sendable {
    let scheduler: PersistScheduler<Value>
    private let strategy: any PrismPersistenceStrategy
    private let key: String
    /// The watch of outside changes, once observed; ends with the backing.
    private let watch = PrismLocked<(any FileWatch)?>(nil)

    init(
        strategy: any PrismPersistenceStrategy,
        key: String,
        options: PrismPersistedKey<Value>.Options
    ) {
        self.strategy = strategy
        self.key = key
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

    func observeOutsideChanges(_ apply: @escaping @MainActor @Sendable (Value) -> Void) {
        guard let source = strategy as? any OutsideChangeSource else { return }
        let writer = scheduler.writer
        let scheduler = scheduler
        let started = source.watchOutsideChanges(key: key) {
            writer.reloadOutsideChange { value, taken in
                Task { @MainActor in
                    // A change of this process made after the load: it wins, and is (or will
                    // be) saved over what was loaded.
                    guard !scheduler.isDirty, writer.submittedCount == taken else { return }
                    apply(value)
                }
            }
        }
        watch.withLock { $0 = started }
    }
}
