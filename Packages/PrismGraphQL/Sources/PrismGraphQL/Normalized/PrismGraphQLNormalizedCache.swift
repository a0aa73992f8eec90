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
        /// Each document read once.
        var documents: [String: GraphQLDocument] = [:]
        /// The watched operations, by id.
        var watchers: [Int: Watcher] = [:]
        var lastWatcher = 0
    }

    /// A watched operation: the records its last read went through, and how to read it again.
    struct Watcher {
        var dependencies: Set<PrismGraphQLCacheKey>
        var refresh: @Sendable () -> Void
    }

    private let state = PrismLocked(State())

    /// An empty cache.
    public init(configuration: PrismGraphQLNormalizedCacheConfiguration = .init()) {
        self.configuration = configuration
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
        let (normalizer, selections, root) = try prepare(operation)
        let result = state.withLock { state -> Result<Set<PrismGraphQLCacheKey>, NormalizationError> in
            var records = state.records
            var changed: Set<PrismGraphQLCacheKey> = []
            do throws(NormalizationError) {
                try normalizer.write(data, selections: selections, key: root, into: &records, changed: &changed)
            } catch {
                return .failure(error)
            }
            state.records = records
            return .success(changed)
        }
        switch result {
        case .success(let changed):
            notifyWatchers(of: changed)
            return changed
        case .failure(let error):
            throw failure(error, operation: Operation.self, writing: true)
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
            return try JSONDecoder().decode(
                Operation.Data.self, from: JSONEncoder().encode(PrismGraphQLValue.object(data)))
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
        try readTracking(operation).data
    }

    /// Reads `operation`, and the keys of every record the read went through.
    func readTracking<Operation: PrismGraphQLOperation>(_ operation: Operation) throws(PrismGraphQLError)
        -> (data: [String: PrismGraphQLValue], records: Set<PrismGraphQLCacheKey>)
    {
        let (normalizer, selections, root) = try prepare(operation)
        let records = state.withLock { $0.records }
        var reading: Set<PrismGraphQLCacheKey> = []
        do {
            let data = try normalizer.read(selections, from: root, in: records, reading: &reading)
            return (data, reading)
        } catch {
            throw failure(error, operation: Operation.self, writing: false)
        }
    }

    /// The record stored under `key`.
    public func record(for key: PrismGraphQLCacheKey) -> PrismGraphQLRecord? {
        state.withLock { $0.records[key] }
    }

    /// The keys of every record.
    public var keys: Set<PrismGraphQLCacheKey> {
        state.withLock { Set($0.records.keys) }
    }

    /// Removes every record (at sign-out, say). Watched operations deliver nothing until their
    /// records are written again.
    public func removeAll() {
        state.withLock { $0.records.removeAll() }
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
        let (stream, continuation) = AsyncStream<Operation.Data>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int in
            state.lastWatcher += 1
            return state.lastWatcher
        }
        let delivered = PrismLocked<[String: PrismGraphQLValue]?>(nil)
        // One refresh at a time per watch, each reading the records as they are then: a refresh
        // that started for an earlier write can never deliver after a later one.
        let refresh: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            delivered.withLock { last in
                guard let (data, dependencies) = try? self.readTracking(operation) else { return }
                self.state.withLock { state in state.watchers[id]?.dependencies = dependencies }
                guard last != data,
                    let decoded = try? JSONDecoder().decode(
                        Operation.Data.self, from: JSONEncoder().encode(PrismGraphQLValue.object(data)))
                else { return }
                last = data
                continuation.yield(decoded)
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

    // MARK: Parts

    private func prepare<Operation: PrismGraphQLOperation>(_ operation: Operation) throws(PrismGraphQLError)
        -> (Normalizer, [GraphQLDocument.Selection], PrismGraphQLCacheKey)
    {
        let document = try self.document(of: Operation.self)
        guard let definition = document.operation(named: Operation.operationName) ?? document.operation(named: nil)
        else {
            throw PrismGraphQLError(
                code: .invalidDocument,
                message: "The document does not define the operation \(Operation.operationName).",
                operationName: Operation.operationName)
        }
        var variables = definition.variableDefaults.mapValues { $0.resolved([:]) }
        do {
            let encoded = try JSONEncoder().encode(operation.variables)
            if case .object(let given) = try JSONDecoder().decode(PrismGraphQLValue.self, from: encoded) {
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
        let normalizer = Normalizer(configuration: configuration, fragments: document.fragments, variables: variables)
        return (normalizer, definition.selections, root)
    }

    private func document<Operation: PrismGraphQLOperation>(of _: Operation.Type) throws(PrismGraphQLError)
        -> GraphQLDocument
    {
        let text = Operation.document
        if let document = state.withLock({ $0.documents[text] }) { return document }
        do {
            let document = try GraphQLDocumentParser.parse(text)
            state.withLock { state in
                if state.documents.count >= 256 { state.documents.removeAll(keepingCapacity: true) }
                state.documents[text] = document
            }
            return document
        } catch {
            throw PrismGraphQLError(
                code: .invalidDocument, message: "The document of \(Operation.operationName) cannot be read: \(error)",
                operationName: Operation.operationName)
        }
    }

    private func failure<Operation: PrismGraphQLOperation>(
        _ error: NormalizationError, operation _: Operation.Type, writing: Bool
    ) -> PrismGraphQLError {
        switch error {
        case .missing(let path):
            return writing
                ? PrismGraphQLError(
                    code: .invalidDocument, message: "The answer has no \(path), which the document selects.",
                    operationName: Operation.operationName)
                : PrismGraphQLError(
                    code: .cacheMiss, message: "The cache has no \(path).", operationName: Operation.operationName)
        case .unknownFragment(let name):
            return PrismGraphQLError(
                code: .invalidDocument, message: "The document spreads the fragment \(name), which it does not define.",
                operationName: Operation.operationName)
        }
    }
}
