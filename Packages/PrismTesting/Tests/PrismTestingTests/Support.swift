import PrismStore
@_exported import PrismTestSupport
import PrismTesting
import Testing

struct CounterState: Equatable, Sendable {
    var count = 0
    var isLoading = false
    var note = ""
}

enum CounterAction: Equatable, Sendable {
    case increment
    case decrement
    case fetch
    case loaded(Int)
    case startTimer
    case tick
    case stopTimer
    case echoTwice
    case fail
}

struct TimerID: Hashable, Sendable {}

struct CounterReducer: PrismReducer {
    /// The timer's ticks: the test yields them, so that a timer test does not race the clock.
    /// By default nothing ever ticks and the timer runs until it is cancelled.
    var ticks: AsyncStream<Void> = AsyncStream { _ in }
    /// How `.fetch` waits for its "server": the test's clock.
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout CounterState, action: CounterAction) -> PrismEffect<CounterAction> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .decrement:
            state.count -= 1
            return .none
        case .fetch:
            state.isLoading = true
            return .run { [clock] send in
                try await clock.sleep(for: .milliseconds(10))
                send(.loaded(42))
            }
        case .loaded(let value):
            state.isLoading = false
            state.count = value
            return .none
        case .startTimer:
            let ticks = self.ticks
            return PrismEffect.run { send in
                for await _ in ticks { send(.tick) }
                // A stream that ends early is not a timer: keep running until cancelled.
                // (Cancelled, it ends at once: no test waits for this hour.)
                try await Task.sleep(for: .seconds(3_600))
            }
            .cancellable(id: TimerID())
        case .tick:
            state.count += 1
            return .none
        case .stopTimer:
            return .cancel(id: TimerID())
        case .echoTwice:
            return .sequence([.increment, .increment])
        case .fail:
            return .run { _ in
                struct Offline: Error {}
                throw Offline()
            }
        }
    }
}

extension Issue {
    /// Whether the issue's text contains every one of `fragments`.
    func mentions(_ fragments: String...) -> Bool {
        mentions(fragments)
    }

    /// Whether the issue's text contains every one of `fragments`.
    func mentions(_ fragments: [String]) -> Bool {
        let text = comments.map(\.rawValue).joined(separator: "\n") + "\n\(description)"
        return fragments.allSatisfy { text.contains($0) }
    }
}

/// Runs `body`, which must record a known issue whose text mentions every one of `fragments`.
func expectIssue(
    mentioning fragments: String...,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async -> Void
) async {
    await withKnownIssue(isolation: isolation, sourceLocation: sourceLocation) {
        await body()
    } matching: { issue in
        issue.mentions(fragments)
    }
}

/// A test store of the counter whose clock is immediate: `.fetch` answers at once.
@MainActor
func counterStore(
    ticks: AsyncStream<Void> = AsyncStream { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> PrismTestStore<CounterState, CounterAction> {
    PrismTestStore(
        initialState: CounterState(),
        reducer: CounterReducer(ticks: ticks),
        withDependencies: { $0.continuousClock = ImmediateClock() },
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}
