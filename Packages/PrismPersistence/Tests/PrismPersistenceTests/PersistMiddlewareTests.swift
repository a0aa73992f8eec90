import Foundation
import Logging
import PrismTestSupport
import Testing

@testable import PrismPersistence

@MainActor
@Suite("Persist middleware")
struct PersistMiddlewareTests {
    struct Counter: Codable, Sendable, Equatable {
        var count = 0
        var note = ""
    }

    enum CounterAction: Sendable {
        case increment
        case noop
        case note(String)
    }

    static let reducer = PrismReduce<Counter, CounterAction> { state, action in
        switch action {
        case .increment: state.count += 1
        case .noop: break
        case .note(let text): state.note = text
        }
        return .none
    }

    /// A real disk strategy that records every save: the state, and whether it ran on the main
    /// thread. It can be told to fail the next saves.
    struct RecordingStrategy: PrismPersistenceStrategy {
        struct Save: Sendable {
            var count: Int
            var onMainThread: Bool
        }

        struct Refused: Error {}

        let disk: PrismDiskPersistence
        let saves = LockedBox<[Save]>([])
        let failures = LockedBox(0)

        func save<State: Codable & Sendable>(_ state: State, key: String) throws {
            if failures.mutate({ remaining in
                defer { remaining = max(0, remaining - 1) }
                return remaining > 0
            }) {
                throw Refused()
            }
            try disk.save(state, key: key)
            let count = (state as? Counter)?.count ?? -1
            saves.mutate { $0.append(Save(count: count, onMainThread: Thread.isMainThread)) }
        }

        func load<State: Codable & Sendable>(key: String) throws -> State? {
            try disk.load(key: key)
        }

        func clear(key: String) throws {
            try disk.clear(key: key)
        }

        var counts: [Int] { saves.wrappedValue.map(\.count) }
    }

    /// Log messages at error level, for the logger tests.
    struct CapturingLogHandler: LogHandler {
        let messages: LockedBox<[String]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            messages.mutate { $0.append("\(event.level): \(event.message)") }
        }
    }

    /// A state with a large list, and an action that changes one item of it.
    struct Listing: Codable, Sendable, Equatable {
        var items = Array(0..<10_000)
    }

    enum ListingAction: Sendable {
        case touch
    }

    /// How a test attaches the persist middleware to its store.
    enum Attachment: Sendable, CustomTestStringConvertible {
        /// `PrismStore(initialState:reducer:middleware:)` with the middleware alone.
        case middleware
        /// `PrismStore(initialState:reducer:middleware:)` with an array of one middleware.
        case middlewareArray
        /// A `PrismCombineReducers` block, the reducer then the middleware (the seed pages' form).
        case block

        var testDescription: String { "\(self)" }
    }

    /// A store running `reducer`, with `persist` attached to it as `attachment` says.
    static func store<State, Action>(
        _ initialState: State,
        reducer: PrismReduce<State, Action>,
        persist: PrismPersistMiddleware<State, Action>,
        attached attachment: Attachment
    ) -> PrismStore<State, Action> {
        switch attachment {
        case .middleware:
            PrismStore(initialState: initialState, reducer: reducer, middleware: persist)
        case .middlewareArray:
            PrismStore(initialState: initialState, reducer: reducer, middleware: [persist])
        case .block:
            PrismStore(
                initialState: initialState,
                reducer: PrismCombineReducers {
                    reducer
                    persist
                })
        }
    }

    /// A middleware that saves a `Counter` under "counter" with `strategy`; its window, an hour
    /// unless told otherwise, ends only when the test flushes or advances `clock`.
    static func counterMiddleware(
        _ strategy: some PrismPersistenceStrategy,
        coalescingWindow: Duration = .seconds(3600),
        clock: any Clock<Duration> = ContinuousClock()
    ) -> PrismPersistMiddleware<Counter, CounterAction> {
        PrismPersistMiddleware(strategy: strategy, key: "counter", coalescingWindow: coalescingWindow, clock: clock)
    }

    /// A store of a `Counter`, from zero, with `persist` as its middleware.
    static func counterStore(
        _ persist: PrismPersistMiddleware<Counter, CounterAction>
    ) -> PrismStore<Counter, CounterAction> {
        PrismStore(initialState: Counter(), reducer: Self.reducer, middleware: persist)
    }

    /// Runs `body` with a recording strategy over real files in a fresh folder, a middleware
    /// that saves through it (see ``counterMiddleware(_:coalescingWindow:clock:)``) and a
    /// store of a `Counter` with that middleware.
    static func withRecordingStore(
        _ body: (RecordingStrategy, PrismPersistMiddleware<Counter, CounterAction>, PrismStore<Counter, CounterAction>)
            async throws -> Void
    ) async throws {
        try await withRecordingStrategy { strategy in
            let persist = counterMiddleware(strategy)
            try await body(strategy, persist, counterStore(persist))
        }
    }

    /// Runs `body` with a recording strategy over real files in a fresh folder.
    static func withRecordingStrategy(_ body: (RecordingStrategy) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            try await body(RecordingStrategy(disk: PrismDiskPersistence(directory: directory)))
        }
    }

    @Test(
        "attached as middleware (the seed pages' form), it keeps no copy of the state between sends",
        arguments: [Attachment.middleware, .block])
    func keepsNoCopy(attachment: Attachment) async throws {
        try await withTemporaryDirectory { directory in
            // Whether each change was made in place: a list that somebody else also holds is
            // copied whole by the change (its storage moves).
            let inPlace = LockedBox<[Bool]>([])
            let reducer = PrismReduce<Listing, ListingAction> { state, _ in
                let before = state.items.withUnsafeBufferPointer { $0.baseAddress }
                state.items[0] += 1
                let after = state.items.withUnsafeBufferPointer { $0.baseAddress }
                inPlace.mutate { $0.append(before == after) }
                return .none
            }
            let disk = PrismDiskPersistence(directory: directory)
            let persist = PrismPersistMiddleware<Listing, ListingAction>(
                strategy: disk, key: "listing", coalescingWindow: .seconds(3600))
            let store = Self.store(Listing(), reducer: reducer, persist: persist, attached: attachment)
            // The first change is saved at once, and the writer keeps the state it saved last
            // (to skip saving an equal one): the next change copies the list once. After that,
            // the changes within the window are made in place: nothing keeps a copy of the state.
            store.send(.touch)
            try await persist.flush()
            for _ in 0..<4 { store.send(.touch) }
            #expect(Array(inPlace.wrappedValue.suffix(3)) == [true, true, true])
            // What the window saves is still the latest state, read from the store.
            try await persist.flush()
            let saved: Listing? = try disk.load(key: "listing")
            #expect(saved?.items.first == 5)
        }
    }

    @Test("the first change is saved at once, off the main thread")
    func firstChangeAtOnce() async throws {
        try await Self.withRecordingStore { strategy, persist, store in
            store.send(.increment)
            try await eventually { strategy.counts == [1] }
            #expect(strategy.saves.wrappedValue.allSatisfy { !$0.onMainThread })
            let saved: Counter? = try strategy.disk.load(key: "counter")
            #expect(saved?.count == 1)
        }
    }

    @Test(
        "a state put back by undo, redo or replaceState is saved like one after an action, and survives a relaunch",
        arguments: [Attachment.middlewareArray, .block])
    func undoIsSaved(attachment: Attachment) async throws {
        try await withDiskPersistence { disk, _ in
            let persist = Self.counterMiddleware(disk)
            let store = Self.store(Counter(), reducer: Self.reducer, persist: persist, attached: attachment)
            let history = PrismUndoRedoStack<Counter>(currentState: { store.state })
            for _ in 0..<3 {
                history.push(store.state)
                store.send(.increment)
            }
            try await persist.flush()
            #expect((try disk.load(key: "counter") as Counter?)?.count == 3)

            // Undo twice: the store is put back to 1, and that is what is saved.
            store.replaceState(with: try #require(history.undo()))
            store.replaceState(with: try #require(history.undo()))
            try await persist.flush()
            #expect((try disk.load(key: "counter") as Counter?)?.count == 1)

            // A relaunch restores the undone state.
            let relaunched = Self.counterMiddleware(disk)
            #expect(relaunched.restore(default: Counter()).count == 1)

            // Redo is saved too.
            store.replaceState(with: try #require(history.redo()))
            try await persist.flush()
            #expect((try disk.load(key: "counter") as Counter?)?.count == 2)
        }
    }

    @Test("a restored store takes dependencies like any store, and saves what they gave")
    func restoredWithDependencies() async throws {
        try await withDiskPersistence { disk, _ in
            try disk.save(Counter(count: 5), key: "counter")
            let stamping = PrismReduce<Counter, CounterAction> { state, _ in
                @Dependency(\.date.now) var now
                state.note = "\(Int(now.timeIntervalSince1970))"
                return .none
            }
            let persist = Self.counterMiddleware(disk)
            let store = PrismStore(restoringWith: persist, default: Counter(), reducer: stamping) {
                $0.date = .constant(Date(timeIntervalSince1970: 42))
            }
            #expect(store.state.count == 5)
            store.send(.noop)
            #expect(store.state.note == "42")
            try await persist.flush()
            #expect((try disk.load(key: "counter") as Counter?)?.note == "42")

            let later = await PrismStore(
                restoringOffMainActorWith: Self.counterMiddleware(disk),
                default: Counter(), reducer: stamping
            ) {
                $0.date = .constant(Date(timeIntervalSince1970: 7))
            }
            later.send(.noop)
            #expect(later.state.count == 5)
            #expect(later.state.note == "7")
        }
    }

    @Test("changes within the window are saved once, with the latest state, when flushed")
    func coalescesUntilFlush() async throws {
        try await Self.withRecordingStore { strategy, persist, store in
            for _ in 0..<1000 { store.send(.increment) }
            try await persist.flush()
            #expect(strategy.counts == [1, 1000])
            let saved: Counter? = try strategy.disk.load(key: "counter")
            #expect(saved?.count == 1000)
        }
    }

    @Test("at the end of the window the latest state is saved, once")
    func coalescesPerWindow() async throws {
        try await Self.withRecordingStrategy { strategy in
            let clock = TestClock()
            let persist = Self.counterMiddleware(strategy, coalescingWindow: .milliseconds(50), clock: clock)
            let store = Self.counterStore(persist)
            for _ in 0..<500 { store.send(.increment) }
            // The first change is saved at once; the other 499 wait for the end of the window.
            try await eventually { strategy.counts == [1] }
            await clock.waitForSleeper()
            await clock.advance(by: .milliseconds(49))
            #expect(strategy.counts == [1])
            await clock.waitForSleeper()
            await clock.advance(by: .milliseconds(1))
            try await eventually { strategy.counts == [1, 500] }
            // A quiet window closes it; the next change opens a new one and is saved at once.
            await clock.waitForSleeper()
            await clock.advance(by: .milliseconds(50))
            try await eventually { !persist.scheduler.isWindowOpen }
            store.send(.increment)
            #expect(persist.scheduler.isWindowOpen)
            try await eventually { strategy.counts == [1, 500, 501] }
            // The window's timer ends: a task left asleep on a clock nobody advances holds the
            // middleware forever (make test-leaks reports it).
            await clock.run(timeout: .seconds(60))  // real time: only a failing run waits it
        }
    }

    @Test("attached to its store, the middleware keeps no state between saves and saves the latest")
    func attachedCoalesces() async throws {
        try await Self.withRecordingStrategy { strategy in
            let clock = TestClock()
            let persist = Self.counterMiddleware(strategy, coalescingWindow: .milliseconds(50), clock: clock)
            let store = PrismStore(restoringWith: persist, default: Counter(), reducer: Self.reducer)
            for _ in 0..<500 {
                store.send(.increment)
                #expect(persist.scheduler.latest == nil)
            }
            try await eventually { strategy.counts == [1] }
            await clock.waitForSleeper()
            await clock.advance(by: .milliseconds(50))
            try await eventually { strategy.counts == [1, 500] }
            store.send(.note("flushed"))
            try await persist.flush()
            let saved: Counter? = try strategy.disk.load(key: "counter")
            #expect(saved == Counter(count: 500, note: "flushed"))
            await clock.run(timeout: .seconds(60))  // real time: only a failing run waits it
        }
    }

    @Test("an Equatable state that did not change is not saved again")
    func skipsUnchanged() async throws {
        try await Self.withRecordingStore { strategy, persist, store in
            store.send(.increment)
            try await persist.flush()
            #expect(strategy.counts == [1])
            store.send(.noop)
            store.send(.noop)
            try await persist.flush()
            #expect(strategy.counts == [1])
            store.send(.increment)
            try await persist.flush()
            #expect(strategy.counts == [1, 2])
        }
    }

    @Test("a state that is not Equatable is saved whenever an action ran")
    func savesNonEquatable() async throws {
        struct Log: Codable, Sendable {
            var lines: [String] = []
        }
        try await Self.withRecordingStrategy { strategy in
            let persist = PrismPersistMiddleware<Log, CounterAction>(
                strategy: strategy,
                key: "log",
                coalescingWindow: .seconds(3600)
            )
            let store = PrismStore(
                initialState: Log(),
                reducer: PrismReduce<Log, CounterAction> { _, _ in .none },
                middleware: persist
            )
            store.send(.noop)
            try await persist.flush()
            store.send(.noop)
            try await persist.flush()
            #expect(strategy.saves.wrappedValue.count == 2)
        }
    }

    @Test("a failed save reaches the handler and the log, and flush retries it")
    func failureIsReported() async throws {
        try await Self.withRecordingStrategy { strategy in
            strategy.failures.mutate { $0 = 1 }
            let errors = LockedBox<[PrismPersistenceError]>([])
            let messages = LockedBox<[String]>([])
            let persist = PrismPersistMiddleware<Counter, CounterAction>(
                strategy: strategy,
                key: "counter",
                coalescingWindow: .seconds(3600),
                logger: Logger(label: "test") { _ in CapturingLogHandler(messages: messages) },
                onError: { error in errors.mutate { $0.append(error) } }
            )
            let store = Self.counterStore(persist)
            store.send(.increment)
            try await eventually { !errors.wrappedValue.isEmpty }
            let error = try #require(errors.wrappedValue.first)
            #expect(error.code == .strategyFailed)
            #expect(error.key == "counter")
            #expect(error.underlying is RecordingStrategy.Refused)
            #expect(messages.wrappedValue.contains { $0.hasPrefix("error: ") && $0.contains("could not save") })
            #expect(strategy.counts.isEmpty)

            try await persist.flush()
            #expect(strategy.counts == [1])
            #expect(errors.wrappedValue.count == 1)
        }
    }

    @Test("flush throws the error of the save it made")
    func flushThrows() async throws {
        try await withTemporaryDirectory { directory in
            let errors = LockedBox<[PrismPersistenceError]>([])
            let persist = PrismPersistMiddleware<Counter, CounterAction>(
                strategy: PrismDiskPersistence(directory: directory),
                key: "not/a/file/name",
                coalescingWindow: .seconds(3600),
                onError: { error in errors.mutate { $0.append(error) } }
            )
            let store = Self.counterStore(persist)
            store.send(.increment)
            store.send(.increment)
            do {
                try await persist.flush()
                Issue.record("flush did not throw")
            } catch let error as PrismPersistenceError {
                #expect(error.code == .invalidKey)
            }
            #expect(errors.wrappedValue.map(\.code) == [.invalidKey, .invalidKey])
        }
    }

    @Test("restore gives the saved state, or the default when there is none")
    func restore() async throws {
        try await withDiskPersistence { disk, _ in
            let persist = PrismPersistMiddleware<Counter, CounterAction>(strategy: disk, key: "counter")
            #expect(persist.key == "counter")
            #expect(persist.restore(default: Counter(count: -1)) == Counter(count: -1))
            try disk.save(Counter(count: 41, note: "saved"), key: "counter")
            #expect(persist.restore(default: Counter()) == Counter(count: 41, note: "saved"))
        }
    }

    @Test("restoring an unreadable file gives the default, reports it, and keeps the file aside")
    func restoreCorrupt() async throws {
        try await withTemporaryDirectory { directory in
            try Data("{\"version\":1,\"sta".utf8).write(to: directory.appendingPathComponent("counter.json"))
            let errors = LockedBox<[PrismPersistenceError]>([])
            let persist = PrismPersistMiddleware<Counter, CounterAction>(
                strategy: PrismDiskPersistence(directory: directory),
                key: "counter",
                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                onError: { error in errors.mutate { $0.append(error) } }
            )
            #expect(persist.restore(default: Counter(count: 7)) == Counter(count: 7))
            let error = try #require(errors.wrappedValue.first)
            #expect(error.code == .corruptFile)
            let aside = try #require(error.movedAsideURL)
            #expect(try Data(contentsOf: aside) == Data("{\"version\":1,\"sta".utf8))
        }
    }

    @Test("PrismStore(restoringWith:default:reducer:) restores, then saves after actions")
    func storeRestoring() async throws {
        try await Self.withRecordingStrategy { strategy in
            try strategy.disk.save(Counter(count: 10), key: "counter")
            let persist = Self.counterMiddleware(strategy)
            let store = PrismStore(restoringWith: persist, default: Counter(), reducer: Self.reducer)
            #expect(store.state.count == 10)
            // The restored state counts as saved: an action that changes nothing writes nothing.
            store.send(.noop)
            // On its first action, the middleware found the store: it reads the state from there.
            #expect(persist.scheduler.readsStore)
            try await persist.flush()
            #expect(strategy.counts.isEmpty)
            store.send(.increment)
            try await persist.flush()
            #expect(strategy.counts == [11])

            // The next launch.
            let relaunched = PrismStore(
                restoringWith: PrismPersistMiddleware(strategy: strategy.disk, key: "counter"),
                default: Counter(),
                reducer: Self.reducer
            )
            #expect(relaunched.state.count == 11)
        }
    }
}
