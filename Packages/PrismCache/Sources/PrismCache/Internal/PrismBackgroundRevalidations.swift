/// The background revalidations a client is running (a stale entry served while it is revalidated),
/// one per cache key: a second stale hit for a key that is being revalidated starts nothing.
///
/// A client keeps one and nothing else does, so that when the client goes away this goes with
/// it and cancels what is still running: no revalidation outlives its client, or writes into a
/// cache after it. A revalidation's operation therefore must not hold the client itself (it
/// holds the parts it needs). Each one leaves the set when it ends, whichever way.
///
/// Exposed to Prism's own modules only (`@_spi(PrismInternals)`): not a stable API.
@_spi(PrismInternals)
public actor PrismBackgroundRevalidations {
    private struct Running {
        var id: UInt64
        var task: Task<Void, Never>
    }

    private var running: [PrismCacheKey: Running] = [:]
    private var nextID: UInt64 = 0
    private var isCancelled = false

    /// An empty set.
    public init() {}

    deinit {
        for revalidation in running.values { revalidation.task.cancel() }
    }

    /// Starts `operation` for `key` unless a revalidation of `key` is running (or ``cancelAll()``
    /// was called); returns whether it started.
    @discardableResult
    public func start(for key: PrismCacheKey, _ operation: @escaping @Sendable () async -> Void) -> Bool {
        guard !isCancelled, running[key] == nil else { return false }
        nextID &+= 1
        let id = nextID
        // Added before this call returns: `finish` runs on this actor, so it cannot come first.
        let task = Task { [weak self] in
            await operation()
            await self?.finish(key, id: id)
        }
        running[key] = Running(id: id, task: task)
        return true
    }

    /// Cancels every running revalidation and starts no more.
    public func cancelAll() {
        isCancelled = true
        for revalidation in running.values { revalidation.task.cancel() }
        running.removeAll()
    }

    /// The revalidations running now (a test awaits them).
    public var tasks: [Task<Void, Never>] {
        running.values.map(\.task)
    }

    /// The number of revalidations running now.
    public var count: Int { running.count }

    /// Returns when no revalidation is running (those started meanwhile included).
    public func waitForAll() async {
        while let next = running.values.first?.task {
            // When it returns, the task's `finish` has run (or `cancelAll()` removed it).
            await next.value
        }
    }

    private func finish(_ key: PrismCacheKey, id: UInt64) {
        if running[key]?.id == id { running[key] = nil }
    }
}
