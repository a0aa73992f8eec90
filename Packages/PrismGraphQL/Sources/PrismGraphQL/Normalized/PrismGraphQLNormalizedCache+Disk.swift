import Foundation

extension PrismGraphQLNormalizedCache {
    /// Opens the cache kept in the file at `url` (an SQLite database, made if there is none), with
    /// the records it held when the app last ran.
    ///
    /// ```swift
    /// let url = URL.applicationSupportDirectory.appending(path: "graphql-cache.sqlite")
    /// let cache: PrismGraphQLNormalizedCache
    /// do {
    ///     cache = try await .open(at: url)
    /// } catch let error where error.code == .cacheStoreCorrupted {
    ///     // Moved aside (the message says where): start again with an empty store.
    ///     cache = try await .open(at: url)
    /// }
    /// ```
    ///
    /// The cache works in memory as one made by ``init(configuration:clock:)`` does, and writes
    /// what changed to the file behind each write, as one SQLite transaction: a process killed
    /// at any moment leaves the file as it was after some write, never torn. ``flush()`` waits
    /// until the file has every write so far; ``close()`` flushes and closes it. Optimistic
    /// answers are never written to the file. The records no query reaches and the budget
    /// (``PrismGraphQLNormalizedCacheConfiguration/maximumRecordCount``) apply to the file as
    /// to memory. A field's age (``PrismGraphQLNormalizedCacheConfiguration/maxAge``) goes on
    /// counting while the app is not running.
    ///
    /// One process at a time has a store: a second open of it, in this process or another,
    /// throws `cacheStoreFailed` until the first is closed.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `cacheStoreCorrupted` when the file cannot be
    ///   read (it was moved aside; nothing of it is served), `cacheStoreFailed` when it cannot be
    ///   opened, or `cacheStoreUnavailable` without the `SQLite` package trait.
    public static func open<C: Clock>(
        at url: URL, configuration: PrismGraphQLNormalizedCacheConfiguration = .init(),
        clock: C = ContinuousClock()
    ) async throws(PrismGraphQLError) -> PrismGraphQLNormalizedCache where C.Duration == Duration {
        #if SQLite
        let (store, rows) = try await NormalizedDiskStore.open(at: url)
        var loaded: [PrismGraphQLCacheKey: RecordCoding.Stored] = [:]
        loaded.reserveCapacity(rows.count)
        for (key, bytes) in rows {
            do throws(RecordCoding.Malformed) {
                loaded[PrismGraphQLCacheKey(rawValue: key)] = try RecordCoding.decode(bytes)
            } catch {
                await store.close()
                throw NormalizedDiskStore.setAside(url, because: "its record \(key) does not read back (\(error))")
            }
        }
        let persistence = NormalizedPersistence(
            url: url, save: { batch throws(PrismGraphQLError) in try await store.save(batch) },
            close: { await store.close() })
        return PrismGraphQLNormalizedCache(
            configuration: configuration, clock: clock, loaded: loaded, persistence: persistence)
        #else
        throw PrismGraphQLError(
            code: .cacheStoreUnavailable,
            message:
                "This build of PrismGraphQL keeps the normalized cache in memory only: add Prism with its SQLite trait to keep it on disk."
        )
        #endif
    }

    /// The file the cache is kept in; nil for a cache in memory only.
    public var storeURL: URL? { persistence?.url }

    /// Returns once the cache's file holds every write made to the cache before the call (at
    /// once for a cache in memory only). An app calls it before it may be suspended.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `cacheStoreFailed` when the file could not be
    ///   written (the disk is full, say): the cache in memory keeps the writes, and the next
    ///   write or flush tries again.
    public func flush() async throws(PrismGraphQLError) {
        guard let persistence, let generation = unsavedGeneration() else { return }
        try await persistence.flush(upTo: generation)
    }

    /// Flushes, then closes the cache's file, which another cache may then open. The cache goes
    /// on in memory only. Dropping the last reference to a cache with a file closes it too,
    /// after its last writes.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `cacheStoreFailed` when the last writes could not
    ///   be written (the file is closed all the same).
    public func close() async throws(PrismGraphQLError) {
        guard let persistence else { return }
        var failure: PrismGraphQLError?
        do {
            try await flush()
        } catch {
            failure = error
        }
        let last = takeUnsaved()
        _ = unsavedGeneration(closing: true)
        await persistence.finish(last: last)
        if let failure { throw failure }
    }
}
