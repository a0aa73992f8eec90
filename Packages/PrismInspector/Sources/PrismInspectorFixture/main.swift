// A small app with PrismInspector attached, for the browser test
// (Tools/scripts/test-inspector-browser.sh). It prints `URL <inspector url>`, sends a few
// actions, then obeys lines on standard input:
//
//   send <action as JSON>   sends the action to the store
//   state                   prints `STATE <the state as JSON>`
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

@MainActor
func run() async throws {
    let store = PrismStore(initialState: FixtureState(), reducer: FixtureReducer())
    let inspector = try await PrismInspector.start(store, configuration: .init(printsURL: false))
    output("URL \(inspector.url.absoluteString)")
    for action in [
        FixtureAction.increment, .increment, .add("milk"), .setToken(PrismSecret(wrappedValue: "s3cret-token")),
        .add("eggs"), .increment,
    ] {
        store.send(action)
    }
    store.send(.startTimer)
    for await line in standardInputLines() {
        if line == "quit" { break }
        if line == "state" {
            let data = try JSONEncoder().encode(store.state)
            output("STATE " + String(decoding: data, as: UTF8.self))
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
    await inspector.stop()
}

try await run()
