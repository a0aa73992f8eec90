import Testing

@testable import PrismStore

/// What releasing a store, a scoped store or a derived store does to the effects its actions
/// started: effects belong to the root store, and end when nothing keeps the root alive.
@MainActor
@Suite("Effects end with their store")
struct StoreLifetimeTests {
    struct State: Equatable, Sendable {
        var child = Child()
        var received: [Int] = []
    }

    struct Child: Equatable, Sendable {
        var received: [Int] = []
    }

    enum Action: Sendable {
        /// Starts an effect with no cancellation id that forwards `values` until cancelled.
        case listen
        case received(Int)
        case child(ChildAction)
    }

    enum ChildAction: Sendable {
        case listen
        case received(Int)
    }

    /// A stream of values the test pushes into the effects, and how many effects are listening
    /// to it and have stopped listening.
    final class Feed: Sendable {
        let values: AsyncStream<Int>
        let continuation: AsyncStream<Int>.Continuation
        let listening = LockedBox(0)
        let ended = LockedBox(0)

        init() {
            (values, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        }

        /// An effect like a timer or a socket: it listens until cancelled, with no id.
        func listen<Action: Sendable>(_ embed: @escaping @Sendable (Int) -> Action) -> PrismEffect<Action> {
            .run { [self] send in
                listening.mutate { $0 += 1 }
                for await value in values { send(embed(value)) }
                ended.mutate { $0 += 1 }
            }
        }
    }

    /// The store's reducer: the root listens to `feed`, the child to `childFeed` (`feed` unless
    /// given), so that a test can tell which effect a value went to.
    static func reducer(_ feed: Feed, childFeed: Feed? = nil) -> PrismReduce<State, Action> {
        let childFeed = childFeed ?? feed
        return PrismReduce { state, action in
            switch action {
            case .listen:
                return feed.listen(Action.received)
            case .received(let value):
                state.received.append(value)
                return .none
            case .child(.listen):
                return childFeed.listen(ChildAction.received).map(Action.child)
            case .child(.received(let value)):
                state.child.received.append(value)
                return .none
            }
        }
    }

    @Test("releasing the store ends its effects that have no cancellation id")
    func releasingTheStoreEndsEffects() async throws {
        let feed = Feed()
        var store: PrismStore<State, Action>? = PrismStore(initialState: State(), reducer: Self.reducer(feed))
        let task = store?.send(.listen)
        try await eventually { feed.listening.wrappedValue == 1 }
        feed.continuation.yield(1)
        try await eventually { store?.state.received == [1] }
        store = nil
        try await eventually { feed.ended.wrappedValue == 1 }
        await task?.finish()
    }

    @Test("releasing a scoped store leaves the effects its actions started running in the root")
    func releasingAScopedStoreKeepsEffects() async throws {
        let feed = Feed()
        let store = PrismStore(initialState: State(), reducer: Self.reducer(feed))
        var child: PrismStore<Child, ChildAction>? = store.scope(state: \.child, action: Action.child)
        child?.send(.listen)
        try await eventually { feed.listening.wrappedValue == 1 }
        child = nil
        feed.continuation.yield(7)
        try await eventually { store.state.child.received == [7] }
        #expect(feed.ended.wrappedValue == 0)
    }

    @Test("a scoped store keeps its root, and the root's effects, alive until it is released too")
    func scopedStoreKeepsTheRoot() async throws {
        // One feed per effect: an AsyncStream hands each value to only one of its listeners.
        let feed = Feed()
        let childFeed = Feed()
        var root: PrismStore<State, Action>? = PrismStore(
            initialState: State(),
            reducer: Self.reducer(feed, childFeed: childFeed)
        )
        var child = root?.scope(state: \.child, action: Action.child)
        child?.send(.listen)
        root?.send(.listen)
        try await eventually { feed.listening.wrappedValue == 1 && childFeed.listening.wrappedValue == 1 }
        root = nil
        // The scoped store still sends to (and reads from) the root: its effects go on.
        childFeed.continuation.yield(3)
        try await eventually { child?.state.received == [3] }
        #expect(feed.ended.wrappedValue == 0)
        #expect(childFeed.ended.wrappedValue == 0)
        child = nil
        try await eventually { feed.ended.wrappedValue == 1 && childFeed.ended.wrappedValue == 1 }
    }

    @Test("a derived store keeps the root's effects alive until it is released too")
    func derivedStoreKeepsTheRoot() async throws {
        let feed = Feed()
        var root: PrismStore<State, Action>? = PrismStore(initialState: State(), reducer: Self.reducer(feed))
        var count = root?.derive { $0.received.count }
        root?.send(.listen)
        try await eventually { feed.listening.wrappedValue == 1 }
        root = nil
        feed.continuation.yield(5)
        try await eventually { count?.value == 1 }
        count = nil
        try await eventually { feed.ended.wrappedValue == 1 }
    }
}
