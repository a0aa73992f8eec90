import Foundation
import PrismSupport

/// A normalized GraphQL cache: each object of an answer stored once, as a record under its key
/// (`User:42`), so that every operation that shows the object reads the same record, and an
/// answer that changes it (a mutation that renames an item) changes it for all of them.
///
/// ```swift
/// let cache = PrismGraphQLNormalizedCache()
/// try cache.write(data: answer, for: GetRepositoryQuery(owner: "acme", name: "prism"))
/// let repository = try cache.read(GetRepositoryQuery(owner: "acme", name: "prism"))
/// ```
///
/// Reading an operation gives exactly what the server would have sent for it, or throws
/// `cacheMiss` naming the first record or field the cache lacks. Fields with arguments are stored
/// apart (`items(first: 10)` and `items(first: 20)`); aliases, fragments, type conditions and
/// `@include`/`@skip` are followed as the server follows them. Objects are identified as the
/// ``PrismGraphQLNormalizedCacheConfiguration`` says (`id` by default); the code generator adds
/// `__typename` and the key fields to every selection.
public final class PrismGraphQLNormalizedCache: Sendable {
    /// How objects are identified.
    public let configuration: PrismGraphQLNormalizedCacheConfiguration

    private struct State {
        var records: [PrismGraphQLCacheKey: PrismGraphQLRecord] = [:]
        /// Optimistic answers over the records, oldest first, by id.
        var layers: [(id: Int, records: [PrismGraphQLCacheKey: PrismGraphQLRecord])] = []
        var lastLayer = 0
        /// Each document read once.
        var documents: [String: GraphQLDocument] = [:]
        /// The watched operations, by id.
        var watchers: [Int: Watcher] = [:]
        var lastWatcher = 0
        /// When each field was written (time since the cache was made), kept when the
        /// configuration has a `maxAge`.
        var fieldTimes: [PrismGraphQLCacheKey: [String: Duration]] = [:]
        /// When each root field was last written (a count of writes), for the record budget.
        var rootFieldWrites: [String: UInt64] = [:]
        var writes: UInt64 = 0
        /// What the store on disk lacks, when the cache has a store.
        var unsaved: Unsaved?

        var view: RecordView { RecordView(base: records, layers: layers.map(\.records)) }

        /// Notes that the records under `keys` changed or went, for the store.
        mutating func markUnsaved(_ keys: some Sequence<PrismGraphQLCacheKey>) {
            guard unsaved != nil else { return }
            let before = unsaved!.keys.count
            unsaved!.keys.formUnion(keys)
            if unsaved!.keys.count != before { unsaved!.generation += 1 }
        }
    }

    /// The records changed since the store's last write.
    struct Unsaved {
        var keys: Set<PrismGraphQLCacheKey> = []
        var clearing = false
        /// A count of changes; the store has caught up with the cache when it wrote this one.
        var generation: UInt64 = 0
    }

    /// A watched operation: the records its last read went through, and how to read it again.
    struct Watcher {
        var dependencies: Set<PrismGraphQLCacheKey>
        var refresh: @Sendable () -> Void
    }

    /// What a write or a read goes through: the selections, where they start, and the rules.
    struct Target: Sendable {
        var normalizer: Normalizer
        var selections: [GraphQLDocument.Selection]
        var key: PrismGraphQLCacheKey
        var operationName: String?
    }

    /// One write, ready to be applied under the lock.
    struct StagedWrite: Sendable {
        var target: Target
        var data: [String: PrismGraphQLValue]
    }

    private let state = PrismLocked(State())
    /// The time since the cache was made, on its clock.
    private let now: @Sendable () -> Duration
    /// The wall-clock time the cache was made, in seconds since 1970: a field's write time is
    /// kept on disk as `start + now()`.
    private let start = Date().timeIntervalSince1970
    /// The store on disk, for a cache made by ``open(at:configuration:clock:)``.
    let persistence: NormalizedPersistence?

    /// An empty cache, whose fields' ages (``PrismGraphQLNormalizedCacheConfiguration/maxAge``)
    /// are measured on `clock`: the continuous clock if omitted (a test can pass one it controls).
    public init<C: Clock>(
        configuration: PrismGraphQLNormalizedCacheConfiguration = .init(), clock: C = ContinuousClock()
    ) where C.Duration == Duration {
        self.configuration = configuration
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
        self.persistence = nil
    }

    /// A cache with the records of a store, which it keeps up to date through `persistence`.
    init<C: Clock>(
        configuration: PrismGraphQLNormalizedCacheConfiguration, clock: C,
        loaded: [PrismGraphQLCacheKey: RecordCoding.Stored], persistence: NormalizedPersistence
    ) where C.Duration == Duration {
        self.configuration = configuration
        let origin = clock.now
        self.now = { origin.duration(to: clock.now) }
        self.persistence = persistence
        let start = self.start
        state.withLock { state in
            state.unsaved = Unsaved()
            state.records.reserveCapacity(loaded.count)
            for (key, stored) in loaded {
                state.records[key] = stored.record
                if !stored.times.isEmpty {
                    state.fieldTimes[key] = stored.times.mapValues { .seconds($0 - start) }
                }
                if key == .queryRoot {
                    state.rootFieldWrites = stored.writes
                    state.writes = stored.writes.values.max() ?? 0
                }
            }
        }
        persistence.start(
            snapshot: { [weak self] in self?.takeUnsaved() },
            restore: { [weak self] snapshot in self?.restoreUnsaved(snapshot) })
    }

    deinit {
        guard let persistence else { return }
        persistence.finishBehind(last: takeUnsaved())
    }

    /// Writes the answer of `operation` (the response's `data`) into the cache.
    ///
    /// - Returns: The keys of the records whose fields changed.
    /// - Throws: ``PrismGraphQLError`` with code `invalidDocument` when the document cannot be read
    ///   or `data` lacks what it selects (nothing is written then).
    @discardableResult
    public func write<Operation: PrismGraphQLOperation>(
        data: [String: PrismGraphQLValue], for operation: Operation
    ) throws(PrismGraphQLError) -> Set<PrismGraphQLCacheKey> {
        try commit([StagedWrite(target: try target(of: operation), data: data)])
    }

    /// Writes `data`, the fields a fragment selects, into the record under `key`: an app's own
    /// change (`fragment ItemName on Item { name }` with `["name": "Deux"]` at `Item:2`).
    ///
    /// - Parameters:
    ///   - data: The fragment's fields, as the server would send them.
    ///   - document: The fragment's text (and the fragments it spreads).
    ///   - fragmentName: Which fragment of the document; nil for its only one.
    ///   - key: The record's key (`Item:2`).
    ///   - variables: The values of the variables the fragment uses.
    /// - Throws: ``PrismGraphQLError`` with code `invalidDocument`.
    @discardableResult
    public func writeFragment(
        data: [String: PrismGraphQLValue], fragment document: String, named fragmentName: String? = nil,
        at key: PrismGraphQLCacheKey, variables: [String: PrismGraphQLValue] = [:]
    ) throws(PrismGraphQLError) -> Set<PrismGraphQLCacheKey> {
        try commit([
            StagedWrite(
                target: try fragmentTarget(document, named: fragmentName, at: key, variables: variables), data: data)
        ])
    }

    /// Reads the fields a fragment selects from the record under `key`.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `cacheMiss` or `invalidDocument`.
    public func readFragment(
        _ document: String, named fragmentName: String? = nil, at key: PrismGraphQLCacheKey,
        variables: [String: PrismGraphQLValue] = [:]
    ) throws(PrismGraphQLError) -> [String: PrismGraphQLValue] {
        try read(try fragmentTarget(document, named: fragmentName, at: key, variables: variables)).data
    }

    /// Reads a generated fragment from the record under `key`.
    ///
    /// ```swift
    /// let name = try cache.read(ItemName.self, at: PrismGraphQLCacheKey(rawValue: "Item:2"))
    /// ```
    ///
    /// - Throws: ``PrismGraphQLError`` with code `cacheMiss`, `invalidDocument`, or
    ///   `decodingFailed`.
    public func read<Fragment: PrismGraphQLFragment>(
        _ fragment: Fragment.Type, at key: PrismGraphQLCacheKey, variables: [String: PrismGraphQLValue] = [:]
    ) throws(PrismGraphQLError) -> Fragment {
        let data = try readFragment(Fragment.fragmentDefinition, at: key, variables: variables)
        do {
            return try PrismGraphQLValue.object(data).decoded(as: Fragment.self)
        } catch {
            throw PrismGraphQLError(
                code: .decodingFailed,
                message: "The cached record does not decode as \(Fragment.self): \(DecodingErrorText.describe(error))",
                underlying: error)
        }
    }

    /// Writes `data`, the fields of a generated fragment, into the record under `key` (see
    /// ``writeFragment(data:fragment:named:at:variables:)``).
    @discardableResult
    public func write<Fragment: PrismGraphQLFragment>(
        data: [String: PrismGraphQLValue], for fragment: Fragment.Type, at key: PrismGraphQLCacheKey,
        variables: [String: PrismGraphQLValue] = [:]
    ) throws(PrismGraphQLError) -> Set<PrismGraphQLCacheKey> {
        try writeFragment(data: data, fragment: Fragment.fragmentDefinition, at: key, variables: variables)
    }

    /// Runs `body`, whose writes are applied together when it returns: all or none, and the
    /// watched operations hear of them once.
    ///
    /// ```swift
    /// try cache.performTransaction { transaction in
    ///     try transaction.write(data: first, for: ItemQuery(id: "1"))
    ///     try transaction.write(data: second, for: ItemQuery(id: "2"))
    /// }
    /// ```
    ///
    /// - Returns: The keys of the records whose fields changed.
    /// - Throws: What `body` throws, or a write's ``PrismGraphQLError`` (nothing is written then).
    @discardableResult
    public func performTransaction(_ body: (inout PrismGraphQLCacheTransaction) throws -> Void) throws
        -> Set<PrismGraphQLCacheKey>
    {
        var transaction = PrismGraphQLCacheTransaction(cache: self)
        try body(&transaction)
        return try commit(transaction.writes)
    }

    /// Shows `data` as the answer of `operation` at once, over the records, until
    /// ``removeOptimisticUpdate(_:)`` takes it away: a mutation's expected answer while it is sent.
    /// Later optimistic answers lie over earlier ones; the server's answers go under them all.
    ///
    /// - Returns: What identifies the optimistic answer.
    /// - Throws: ``PrismGraphQLError`` with code `invalidDocument`.
    public func writeOptimistically<Operation: PrismGraphQLOperation>(
        data: [String: PrismGraphQLValue], for operation: Operation
    ) throws(PrismGraphQLError) -> PrismGraphQLOptimisticUpdate {
        let staged = StagedWrite(target: try target(of: operation), data: data)
        let result = state.withLock { state -> Result<(Int, Set<PrismGraphQLCacheKey>), PrismGraphQLError> in
            var layer: [PrismGraphQLCacheKey: PrismGraphQLRecord] = [:]
            var changed: Set<PrismGraphQLCacheKey> = []
            do throws(NormalizationError) {
                try staged.target.normalizer.write(
                    staged.data, selections: staged.target.selections, key: staged.target.key, into: &layer,
                    changed: &changed)
            } catch {
                return .failure(Self.failure(error, operationName: staged.target.operationName, writing: true))
            }
            state.lastLayer += 1
            state.layers.append((state.lastLayer, layer))
            return .success((state.lastLayer, changed))
        }
        switch result {
        case .success(let (id, changed)):
            notifyWatchers(of: changed)
            return PrismGraphQLOptimisticUpdate(id: id)
        case .failure(let error):
            throw error
        }
    }

    /// Takes an optimistic answer away: what it showed is shown as the records below say (the
    /// server's answer, if it was written meanwhile, or what was there before).
    public func removeOptimisticUpdate(_ update: PrismGraphQLOptimisticUpdate) {
        let changed = state.withLock { state -> Set<PrismGraphQLCacheKey> in
            guard let index = state.layers.firstIndex(where: { $0.id == update.id }) else { return [] }
            return Set(state.layers.remove(at: index).records.keys)
        }
        notifyWatchers(of: changed)
    }

    /// Applies `writes` together, and takes `optimistic` away in the same step (a mutation's
    /// answer replacing its optimistic one), then tells the watched operations once.
    func commit(
        _ writes: [StagedWrite], removing optimistic: PrismGraphQLOptimisticUpdate? = nil,
        records: [PrismGraphQLCacheKey: PrismGraphQLRecord] = [:]
    ) throws(PrismGraphQLError) -> Set<PrismGraphQLCacheKey> {
        // First the answers as records of their own, outside the lock: a write that fails leaves
        // the cache as it was, and the cache's records are never copied.
        var written: [PrismGraphQLCacheKey: PrismGraphQLRecord] = [:]
        var ignored: Set<PrismGraphQLCacheKey> = []
        for write in writes {
            do throws(NormalizationError) {
                try write.target.normalizer.write(
                    write.data, selections: write.target.selections, key: write.target.key, into: &written,
                    changed: &ignored)
            } catch {
                throw Self.failure(error, operationName: write.target.operationName, writing: true)
            }
        }
        // Records of the cache's own (a pager's pages), field by field over the answers'.
        for (key, record) in records {
            written[key, default: PrismGraphQLRecord()].fields.merge(record.fields) { $1 }
        }
        // Then each field into its record, noting the records that changed. A mutation's or a
        // subscription event's root fields are not kept (no operation reads them back, and each
        // mutation's arguments would add one for good): the objects they hold are.
        let result = state.withLock { state -> Result<Set<PrismGraphQLCacheKey>, PrismGraphQLError> in
            var changed: Set<PrismGraphQLCacheKey> = []
            if let optimistic, let index = state.layers.firstIndex(where: { $0.id == optimistic.id }) {
                changed.formUnion(state.layers.remove(at: index).records.keys)
            }
            let tracksAge = !configuration.maxAge.isEmpty
            let time = tracksAge ? now() : .zero
            for (key, record) in written where key != .mutationRoot && key != .subscriptionRoot {
                if tracksAge {
                    for field in record.fields.keys { state.fieldTimes[key, default: [:]][field] = time }
                }
                if key == .queryRoot {
                    state.writes += 1
                    for field in record.fields.keys { state.rootFieldWrites[field] = state.writes }
                }
                // A new write time, or the root's order of writes, is news for the store too.
                if tracksAge || key == .queryRoot { state.markUnsaved(CollectionOfOne(key)) }
                guard state.records[key] != nil else {
                    state.records[key] = record
                    changed.insert(key)
                    state.markUnsaved(CollectionOfOne(key))
                    continue
                }
                for (field, value) in record.fields where state.records[key]?.fields[field] != value {
                    state.records[key, default: PrismGraphQLRecord()].fields[field] = value
                    changed.insert(key)
                    state.markUnsaved(CollectionOfOne(key))
                }
            }
            if let budget = configuration.maximumRecordCount, state.records.count > budget {
                changed.formUnion(Self.enforce(budget, on: &state))
            }
            return .success(changed)
        }
        switch result {
        case .success(let changed):
            persistence?.wake()
            notifyWatchers(of: changed)
            return changed
        case .failure(let error):
            throw error
        }
    }

    /// Reads `operation` from the cache, as the server would have answered it.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `cacheMiss` (the message names what is missing),
    ///   `invalidDocument`, or `decodingFailed` when the stored answer does not decode as the
    ///   operation's `Data`.
    public func read<Operation: PrismGraphQLOperation>(_ operation: Operation) throws(PrismGraphQLError)
        -> Operation.Data
    {
        let data = try readData(operation)
        do {
            return try PrismGraphQLValue.object(data).decoded(as: Operation.Data.self)
        } catch {
            throw PrismGraphQLError(
                code: .decodingFailed,
                message:
                    "The cached answer does not decode as \(Operation.self).Data: \(DecodingErrorText.describe(error))",
                operationName: Operation.operationName, underlying: error)
        }
    }

    /// Reads `operation` from the cache as JSON, the `data` the server would have sent.
    ///
    /// - Throws: ``PrismGraphQLError`` with code `cacheMiss` or `invalidDocument`.
    public func readData<Operation: PrismGraphQLOperation>(_ operation: Operation) throws(PrismGraphQLError)
        -> [String: PrismGraphQLValue]
    {
        try read(try target(of: operation)).data
    }

    func read(_ target: Target) throws(PrismGraphQLError)
        -> (data: [String: PrismGraphQLValue], records: Set<PrismGraphQLCacheKey>)
    {
        let (data, trace) = try read(target, tracingFields: false)
        return (data, trace.keys)
    }

    private func read(_ target: Target, tracingFields: Bool) throws(PrismGraphQLError)
        -> (data: [String: PrismGraphQLValue], trace: ReadTrace)
    {
        let view = state.withLock { $0.view }
        var trace = ReadTrace(tracksFields: tracingFields)
        do {
            let data = try target.normalizer.read(target.selections, from: target.key, in: view, reading: &trace)
            return (data, trace)
        } catch {
            throw Self.failure(error, operationName: target.operationName, writing: false)
        }
    }

    /// Whether the cache holds the whole answer to `operation`, and whether a field of it is past
    /// its ``PrismGraphQLNormalizedCacheConfiguration/maxAge``.
    func freshness<Operation: PrismGraphQLOperation>(of operation: Operation) -> (whole: Bool, stale: Bool) {
        guard let target = try? target(of: operation) else { return (false, false) }
        let maxAge = configuration.maxAge
        guard let (_, trace) = try? read(target, tracingFields: !maxAge.isEmpty) else { return (false, false) }
        guard !maxAge.isEmpty else { return (true, false) }
        let time = now()
        let times = state.withLock { $0.fieldTimes }
        let stale = trace.fields.contains { key, typename, field in
            guard let typename else { return false }
            let name = field.firstIndex(of: "(").map { String(field[..<$0]) } ?? field
            guard let age = maxAge["\(typename).\(name)"] ?? maxAge[typename], let written = times[key]?[field] else {
                return false
            }
            return time - written > age
        }
        return (true, stale)
    }

    /// The record stored under `key`, optimistic answers included.
    public func record(for key: PrismGraphQLCacheKey) -> PrismGraphQLRecord? {
        state.withLock { $0.view[key] }
    }

    /// The keys of every record.
    public var keys: Set<PrismGraphQLCacheKey> {
        state.withLock { state in state.layers.reduce(Set(state.records.keys)) { $0.union($1.records.keys) } }
    }

    /// Removes the records no query reaches any more: from the root of queries, through every
    /// reference, and from the optimistic answers shown now. A record replaced in a list, or an
    /// object a mutation deleted from every list, is collected; one a query still shows is not.
    ///
    /// - Returns: How many records were removed.
    @discardableResult
    public func collectGarbage() -> Int {
        let removed = state.withLock { state in
            let before = state.records.count
            Self.collect(&state)
            return before - state.records.count
        }
        if removed > 0 { persistence?.wake() }
        return removed
    }

    /// Removes every record and optimistic answer (at sign-out, say). Watched operations deliver
    /// nothing until their records are written again.
    public func removeAll() {
        state.withLock { state in
            state.records.removeAll()
            state.layers.removeAll()
            state.fieldTimes.removeAll()
            state.rootFieldWrites.removeAll()
            if state.unsaved != nil {
                state.unsaved!.keys.removeAll()
                state.unsaved!.clearing = true
                state.unsaved!.generation += 1
            }
        }
        persistence?.wake()
    }

    // MARK: Watching

    /// The answers to `operation` the cache can give: the one it holds now, if whole, then a new
    /// one after each write that changes a record the last one was read from, without a request.
    /// A write that leaves the answer as it was delivers nothing, nor does a write to records the
    /// operation does not read; a write that leaves it incomplete delivers nothing until it is
    /// whole again. The latest answer waits for a slow reader (older ones are dropped). Ends when
    /// the reading task is cancelled or the sequence is dropped.
    ///
    /// ```swift
    /// for await items in cache.watch(ItemsQuery()) { show(items) }
    /// ```
    public func watch<Operation: PrismGraphQLOperation>(_ operation: Operation) -> AsyncStream<Operation.Data> {
        // The operation's document and variables are worked out once for the watch.
        let target = try? self.target(of: operation)
        return observe { cache in
            guard let target, let (data, records) = try? cache.read(target) else { return nil }
            return (data, records)
        } output: { data in
            try? PrismGraphQLValue.object(data).decoded(as: Operation.Data.self)
        }
    }

    /// Watches what `read` reads: delivers `output` of its value now, if it has one, then again
    /// each time a write changes a record it was read from (the keys it returns beside the
    /// value) and the value differs. `read` gives nil while the cache lacks something.
    func observe<Value: Equatable & Sendable, Output: Sendable>(
        _ read: @escaping @Sendable (PrismGraphQLNormalizedCache) -> (Value, Set<PrismGraphQLCacheKey>)?,
        output: @escaping @Sendable (Value) -> Output?
    ) -> AsyncStream<Output> {
        let (stream, continuation) = AsyncStream<Output>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int in
            state.lastWatcher += 1
            return state.lastWatcher
        }
        let delivered = PrismLocked<Value?>(nil)
        // One refresh at a time per watch, each reading the records as they are then: a refresh
        // that started for an earlier write can never deliver after a later one.
        let refresh: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            delivered.withLock { last in
                guard let (value, dependencies) = read(self) else { return }
                self.state.withLock { state in state.watchers[id]?.dependencies = dependencies }
                guard last != value, let result = output(value) else { return }
                last = value
                continuation.yield(result)
            }
        }
        state.withLock { state in
            // Until the first whole read, any write may complete the answer.
            state.watchers[id] = Watcher(dependencies: [], refresh: refresh)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        refresh()
        return stream
    }

    /// How many operations are watched.
    var watcherCount: Int { state.withLock { $0.watchers.count } }

    /// Reads again every watched operation whose last read went through a record in `changed`
    /// (or that has not been whole yet).
    private func notifyWatchers(of changed: Set<PrismGraphQLCacheKey>) {
        guard !changed.isEmpty else { return }
        let affected = state.withLock { state in
            state.watchers.values.compactMap { watcher in
                watcher.dependencies.isEmpty || !watcher.dependencies.isDisjoint(with: changed) ? watcher.refresh : nil
            }
        }
        for refresh in affected { refresh() }
    }

    // MARK: The store on disk

    /// What the store lacks, taken in one piece (nil once the cache was closed).
    func takeUnsaved() -> NormalizedSnapshot? {
        let start = self.start
        return state.withLock { state -> NormalizedSnapshot? in
            guard let unsaved = state.unsaved else { return nil }
            var snapshot = NormalizedSnapshot(clearing: unsaved.clearing, generation: unsaved.generation)
            for key in unsaved.keys {
                guard let record = state.records[key] else {
                    snapshot.deletes.append(key)
                    continue
                }
                var stored = RecordCoding.Stored(record: record)
                if let times = state.fieldTimes[key] {
                    stored.times = times.mapValues {
                        start + Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18
                    }
                }
                if key == .queryRoot { stored.writes = state.rootFieldWrites }
                snapshot.upserts.append((key, stored))
            }
            state.unsaved = Unsaved(generation: unsaved.generation)
            return snapshot
        }
    }

    /// Hands back a snapshot the store could not write: its records are written next time.
    func restoreUnsaved(_ snapshot: NormalizedSnapshot) {
        state.withLock { state in
            guard state.unsaved != nil else { return }
            state.unsaved!.keys.formUnion(snapshot.upserts.map(\.key))
            state.unsaved!.keys.formUnion(snapshot.deletes)
            if snapshot.clearing { state.unsaved!.clearing = true }
        }
    }

    /// The cache's count of changes now, and stops counting them when `closing`.
    func unsavedGeneration(closing: Bool = false) -> UInt64? {
        state.withLock { state in
            defer { if closing { state.unsaved = nil } }
            return state.unsaved?.generation
        }
    }

    // MARK: Collecting

    /// Keeps the records reachable from the root of queries and from the optimistic layers.
    private static func collect(_ state: inout State) {
        var reached: Set<PrismGraphQLCacheKey> = []
        var pending: [PrismGraphQLCacheKey] = [.queryRoot]
        for layer in state.layers {
            pending.append(contentsOf: layer.records.keys)
            for record in layer.records.values { references(in: record, into: &pending) }
        }
        while let key = pending.popLast() {
            guard reached.insert(key).inserted, let record = state.records[key] else { continue }
            references(in: record, into: &pending)
        }
        if state.unsaved != nil {
            state.markUnsaved(state.records.keys.filter { !reached.contains($0) })
        }
        state.records = state.records.filter { reached.contains($0.key) }
        if !state.fieldTimes.isEmpty { state.fieldTimes = state.fieldTimes.filter { reached.contains($0.key) } }
    }

    private static func references(in record: PrismGraphQLRecord, into keys: inout [PrismGraphQLCacheKey]) {
        func visit(_ value: PrismGraphQLRecordValue) {
            switch value {
            case .reference(let key): keys.append(key)
            case .list(let items): items.forEach(visit)
            case .value: break
            }
        }
        record.fields.values.forEach(visit)
    }

    /// Collects; then, while there are more records than `budget`, drops the root fields written
    /// longest ago (an eighth of them at a time) and collects again. Returns the keys whose
    /// records changed or went.
    private static func enforce(_ budget: Int, on state: inout State) -> Set<PrismGraphQLCacheKey> {
        let before = Set(state.records.keys)
        collect(&state)
        var droppedRoot = false
        while state.records.count > budget, let fields = state.records[.queryRoot]?.fields, !fields.isEmpty {
            let oldest = fields.keys.sorted { (state.rootFieldWrites[$0] ?? 0) < (state.rootFieldWrites[$1] ?? 0) }
            for field in oldest.prefix(max(1, oldest.count / 8)) {
                state.records[.queryRoot]?.fields[field] = nil
                state.rootFieldWrites[field] = nil
            }
            state.markUnsaved(CollectionOfOne(.queryRoot))
            droppedRoot = true
            collect(&state)
        }
        var changed = before.subtracting(state.records.keys)
        if droppedRoot { changed.insert(.queryRoot) }
        return changed
    }

    // MARK: Parts

    func target<Operation: PrismGraphQLOperation>(of operation: Operation) throws(PrismGraphQLError) -> Target {
        let document = try self.document(Operation.document, name: Operation.operationName)
        guard let definition = document.operation(named: Operation.operationName) ?? document.operation(named: nil)
        else {
            throw PrismGraphQLError(
                code: .invalidDocument,
                message: "The document does not define the operation \(Operation.operationName).",
                operationName: Operation.operationName)
        }
        var variables = definition.variableDefaults.mapValues { $0.resolved([:]) }
        do {
            if case .object(let given) = try PrismGraphQLValue.encoding(operation.variables) {
                variables.merge(given) { _, given in given }
            }
        } catch {
            throw PrismGraphQLError(
                code: .encodingFailed, message: "The variables could not be encoded: \(error)",
                operationName: Operation.operationName, underlying: error)
        }
        let root: PrismGraphQLCacheKey =
            switch definition.type {
            case .query: .queryRoot
            case .mutation: .mutationRoot
            case .subscription: .subscriptionRoot
            }
        return Target(
            normalizer: Normalizer(configuration: configuration, fragments: document.fragments, variables: variables),
            selections: definition.selections, key: root, operationName: Operation.operationName)
    }

    private func fragmentTarget(
        _ text: String, named name: String?, at key: PrismGraphQLCacheKey, variables: [String: PrismGraphQLValue]
    ) throws(PrismGraphQLError) -> Target {
        let document = try self.document(text, name: name, fragmentsOnly: true)
        let fragment =
            name.flatMap { document.fragments[$0] }
            ?? (name == nil && document.fragments.count == 1 ? document.fragments.values.first : nil)
        guard let fragment else {
            throw PrismGraphQLError(
                code: .invalidDocument,
                message: name.map { "The document does not define the fragment \($0)." }
                    ?? "The document defines more than one fragment: name the one to use.")
        }
        return Target(
            normalizer: Normalizer(configuration: configuration, fragments: document.fragments, variables: variables),
            selections: fragment.selections, key: key, operationName: nil)
    }

    private func document(_ text: String, name: String?, fragmentsOnly: Bool = false) throws(PrismGraphQLError)
        -> GraphQLDocument
    {
        if let document = state.withLock({ $0.documents[text] }) { return document }
        do {
            let document = try GraphQLDocumentParser.parse(text, requiringOperation: !fragmentsOnly)
            state.withLock { state in
                if state.documents.count >= 256 { state.documents.removeAll(keepingCapacity: true) }
                state.documents[text] = document
            }
            return document
        } catch {
            throw PrismGraphQLError(
                code: .invalidDocument,
                message: "The document\(name.map { " of \($0)" } ?? "") cannot be read: \(error)", operationName: name)
        }
    }

    private static func failure(_ error: NormalizationError, operationName: String?, writing: Bool) -> PrismGraphQLError
    {
        switch error {
        case .missing(let path):
            return writing
                ? PrismGraphQLError(
                    code: .invalidDocument, message: "The answer has no \(path), which the document selects.",
                    operationName: operationName)
                : PrismGraphQLError(
                    code: .cacheMiss, message: "The cache has no \(path).", operationName: operationName)
        case .unknownFragment(let name):
            return PrismGraphQLError(
                code: .invalidDocument, message: "The document spreads the fragment \(name), which it does not define.",
                operationName: operationName)
        }
    }
}

/// The writes of ``PrismGraphQLNormalizedCache/performTransaction(_:)``, applied together when
/// its body returns.
public struct PrismGraphQLCacheTransaction {
    let cache: PrismGraphQLNormalizedCache
    var writes: [PrismGraphQLNormalizedCache.StagedWrite] = []

    /// Adds the write of `operation`'s answer (see ``PrismGraphQLNormalizedCache/write(data:for:)``).
    ///
    /// - Throws: ``PrismGraphQLError`` with code `invalidDocument` when the document cannot be read.
    public mutating func write<Operation: PrismGraphQLOperation>(
        data: [String: PrismGraphQLValue], for operation: Operation
    ) throws(PrismGraphQLError) {
        writes.append(.init(target: try cache.target(of: operation), data: data))
    }

    /// Reads `operation` as the cache holds it now (the transaction's own writes are not applied
    /// yet).
    public func read<Operation: PrismGraphQLOperation>(_ operation: Operation) throws(PrismGraphQLError)
        -> Operation.Data
    {
        try cache.read(operation)
    }
}

/// An optimistic answer shown by the normalized cache, until it is removed.
public struct PrismGraphQLOptimisticUpdate: Hashable, Sendable {
    let id: Int
}
