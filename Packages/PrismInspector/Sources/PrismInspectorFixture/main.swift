// A small app with PrismInspector attached, for the browser test
// (Tools/scripts/test-inspector-browser.sh). It prints `URL <inspector url>`, sends a few
// actions, then obeys lines on standard input:
//
//   send <action as JSON>   sends the action to the store
//   state                   prints `STATE <the state as JSON>`
//   burst <n>               sends n increments at 10,000 a second (100 every 10 ms), then
//                           prints `BURST <n> <the main actor's longest stall, in ms>`
//   quit                    stops the inspector and exits
import Foundation
import PrismInspector
import PrismStore

struct Profile: Codable, Equatable, Sendable {
    var name = "Ada"
    @PrismSecret var token = ""
}

struct FixtureState: Codable, Equatable, Sendable {
    var count = 0
    var items: [String] = []
    var profile = Profile()
    var timerRunning = false
}

enum FixtureAction: Codable, Equatable, Sendable {
    case increment
    case decrement
    case add(String)
    /// The token is marked secret: the inspector shows it redacted, in the action and in the state.
    case setToken(PrismSecret<String>)
    case startTimer
    case stopTimer
}

struct FixtureReducer: PrismReducer {
    func reduce(into state: inout FixtureState, action: FixtureAction) -> PrismEffect<FixtureAction> {
        switch action {
        case .increment:
            state.count += 1
        case .decrement:
            state.count -= 1
        case .add(let item):
            state.items.append(item)
        case .setToken(let token):
            state.profile.token = token.wrappedValue
        case .startTimer:
            state.timerRunning = true
            return .run { _ in
                while true { try await Task.sleep(for: .seconds(3_600)) }
            }
            .cancellable(id: "timer", cancelInFlight: true)
        case .stopTimer:
            state.timerRunning = false
            return .cancel(id: "timer")
        }
        return .none
    }
}

func output(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Lines of standard input, read on a thread of their own.
func standardInputLines() -> AsyncStream<String> {
    let (lines, continuation) = AsyncStream.makeStream(of: String.self)
    let thread = Thread {
        while let line = readLine() { continuation.yield(line) }
        continuation.finish()
    }
    thread.start()
    return lines
}

/// Sends `count` increments, 100 every 10 ms, and returns the longest the main actor was late
/// for a tick, in milliseconds.
@MainActor
func burst(_ count: Int, to store: PrismStore<FixtureState, FixtureAction>) async -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    var longest = Duration.zero
    var sent = 0
    var tick = 0
    while sent < count {
        tick += 1
        let deadline = start + .milliseconds(10 * tick)
        try? await clock.sleep(until: deadline, tolerance: nil)
        longest = max(longest, clock.now - deadline)
        for _ in 0..<min(100, count - sent) { store.send(.increment) }
        sent += min(100, count - sent)
    }
    let parts = longest.components
    return (Double(parts.seconds) * 1e4 + Double(parts.attoseconds) * 1e-14).rounded() / 10
}

@MainActor
func run() async throws {
    let store = PrismStore(initialState: FixtureState(), reducer: FixtureReducer())
    // 300 snapshots: fewer than a burst sends between two batches (500 at 10,000 a second and
    // a batch every 50 ms), so the page is told about actions the history evicted first.
    let inspector = try await PrismInspector.start(store, configuration: .init(historyLimit: 300, printsURL: false))
    output("URL \(inspector.url.absoluteString)")
    for action in [
        FixtureAction.increment, .increment, .add("milk"), .setToken(PrismSecret(wrappedValue: "s3cret-token")),
        .add("eggs"), .increment,
    ] {
        store.send(action)
    }
    store.send(.startTimer)
    // A second store on the same page: the page switches between them.
    let background = PrismStore(
        initialState: 0,
        reducer: PrismReduce<Int, BackgroundAction> { state, _ in
            state += 1
            return .none
        })
    let backgroundInspector = try await PrismInspector.start(
        background, configuration: .init(printsURL: false, title: "Background"), joining: inspector.host)
    background.send(.refreshed)
    background.send(.refreshed)
    for await line in standardInputLines() {
        if line == "quit" { break }
        if line == "state" {
            let data = try JSONEncoder().encode(store.state)
            output("STATE " + String(decoding: data, as: UTF8.self))
        } else if line.hasPrefix("burst "), let count = Int(line.dropFirst(6)) {
            let stall = await burst(count, to: store)
            output("BURST \(count) \(stall)")
        } else if line.hasPrefix("send ") {
            do {
                store.send(try JSONDecoder().decode(FixtureAction.self, from: Data(line.dropFirst(5).utf8)))
                output("SENT")
            } catch {
                output("ERROR \(error)")
            }
        }
    }
    store.send(.stopTimer)
    await backgroundInspector.stop()
    await inspector.stop()
}

/// The background store's one action.
enum BackgroundAction: Codable, Equatable, Sendable {
    case refreshed
}

try await run()
