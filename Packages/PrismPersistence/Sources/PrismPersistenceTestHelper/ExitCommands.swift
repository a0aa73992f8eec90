import Foundation
import PrismPersistence
import PrismSupport

/// What the exit command keeps in a store.
struct Counter: Codable, Sendable, Equatable {
    var count = 0
}

enum CounterAction: Sendable {
    case set(Int)
}

let counterReducer = PrismReduce<Counter, CounterAction> { state, action in
    switch action {
    case .set(let count): state.count = count
    }
    return .none
}

/// A store that saves a counter to `directory` with a coalescing window of an hour, so that
/// only the first change is saved unless something flushes. Sends `.set(1)` to `.set(count)`,
/// prints "sent", then:
/// - `signal`: calls `flushOnExit()` first, and waits to be stopped by a signal;
/// - `none`: waits to be stopped by a signal, without `flushOnExit()`;
/// - `exit`: calls `flushOnExit()` first, and calls `exit(0)` right after the sends;
/// - `exit-longest`: the same with the longest timeout there is, `.seconds(Int64.max)`.
@MainActor
func exitFlush(directory: String, key: String, mode: String, count: Int) async -> Never {
    // A child inherits the signal mask of the thread that started it; a process started from a
    // shell has none blocked, and this one is to behave like that.
    var signals = sigset_t()
    sigemptyset(&signals)
    for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, number) }
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)

    let persistence = PrismPersistMiddleware<Counter, CounterAction>(
        strategy: PrismDiskPersistence(directory: URL(fileURLWithPath: directory)),
        key: key,
        coalescingWindow: .seconds(3600)
    )
    if mode == "exit-longest" {
        persistence.flushOnExit(timeout: .seconds(Int64.max))
    } else if mode != "none" {
        persistence.flushOnExit()
    }
    let store = PrismStore(restoringWith: persistence, default: Counter(), reducer: counterReducer)
    for value in 1...count { store.send(.set(value)) }
    print("sent \(store.state.count)")
    fflush(nil)
    if mode.hasPrefix("exit") { exit(0) }
    while true {
        try? await Task.sleep(for: .seconds(60))
    }
}
