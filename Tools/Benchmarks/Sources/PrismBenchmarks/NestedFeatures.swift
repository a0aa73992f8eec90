// Eleven nested feature levels (state, action, reducer each) for the scope-depth benchmark.
import Foundation
import PrismArchitecture

struct Level0State: Equatable, Sendable {
    var count = 0
    var child = Level1State()
}

enum Level0Action: Sendable {
    case increment
    case child(Level1Action)
}

struct Level1State: Equatable, Sendable {
    var count = 0
    var child = Level2State()
}

enum Level1Action: Sendable {
    case increment
    case child(Level2Action)
}

struct Level2State: Equatable, Sendable {
    var count = 0
    var child = Level3State()
}

enum Level2Action: Sendable {
    case increment
    case child(Level3Action)
}

struct Level3State: Equatable, Sendable {
    var count = 0
    var child = Level4State()
}

enum Level3Action: Sendable {
    case increment
    case child(Level4Action)
}

struct Level4State: Equatable, Sendable {
    var count = 0
    var child = Level5State()
}

enum Level4Action: Sendable {
    case increment
    case child(Level5Action)
}

struct Level5State: Equatable, Sendable {
    var count = 0
    var child = Level6State()
}

enum Level5Action: Sendable {
    case increment
    case child(Level6Action)
}

struct Level6State: Equatable, Sendable {
    var count = 0
    var child = Level7State()
}

enum Level6Action: Sendable {
    case increment
    case child(Level7Action)
}

struct Level7State: Equatable, Sendable {
    var count = 0
    var child = Level8State()
}

enum Level7Action: Sendable {
    case increment
    case child(Level8Action)
}

struct Level8State: Equatable, Sendable {
    var count = 0
    var child = Level9State()
}

enum Level8Action: Sendable {
    case increment
    case child(Level9Action)
}

struct Level9State: Equatable, Sendable {
    var count = 0
    var child = Level10State()
}

enum Level9Action: Sendable {
    case increment
    case child(Level10Action)
}

struct Level10State: Equatable, Sendable {
    var count = 0
}

enum Level10Action: Sendable {
    case increment
}

struct Level0Reducer: PrismReducer {
    func reduce(into state: inout Level0State, action: Level0Action) -> PrismEffect<Level0Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level1Reducer().reduce(into: &state.child, action: action).map(Level0Action.child)
        }
    }
}

struct Level1Reducer: PrismReducer {
    func reduce(into state: inout Level1State, action: Level1Action) -> PrismEffect<Level1Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level2Reducer().reduce(into: &state.child, action: action).map(Level1Action.child)
        }
    }
}

struct Level2Reducer: PrismReducer {
    func reduce(into state: inout Level2State, action: Level2Action) -> PrismEffect<Level2Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level3Reducer().reduce(into: &state.child, action: action).map(Level2Action.child)
        }
    }
}

struct Level3Reducer: PrismReducer {
    func reduce(into state: inout Level3State, action: Level3Action) -> PrismEffect<Level3Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level4Reducer().reduce(into: &state.child, action: action).map(Level3Action.child)
        }
    }
}

struct Level4Reducer: PrismReducer {
    func reduce(into state: inout Level4State, action: Level4Action) -> PrismEffect<Level4Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level5Reducer().reduce(into: &state.child, action: action).map(Level4Action.child)
        }
    }
}

struct Level5Reducer: PrismReducer {
    func reduce(into state: inout Level5State, action: Level5Action) -> PrismEffect<Level5Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level6Reducer().reduce(into: &state.child, action: action).map(Level5Action.child)
        }
    }
}

struct Level6Reducer: PrismReducer {
    func reduce(into state: inout Level6State, action: Level6Action) -> PrismEffect<Level6Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level7Reducer().reduce(into: &state.child, action: action).map(Level6Action.child)
        }
    }
}

struct Level7Reducer: PrismReducer {
    func reduce(into state: inout Level7State, action: Level7Action) -> PrismEffect<Level7Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level8Reducer().reduce(into: &state.child, action: action).map(Level7Action.child)
        }
    }
}

struct Level8Reducer: PrismReducer {
    func reduce(into state: inout Level8State, action: Level8Action) -> PrismEffect<Level8Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level9Reducer().reduce(into: &state.child, action: action).map(Level8Action.child)
        }
    }
}

struct Level9Reducer: PrismReducer {
    func reduce(into state: inout Level9State, action: Level9Action) -> PrismEffect<Level9Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        case .child(let action):
            return Level10Reducer().reduce(into: &state.child, action: action).map(Level9Action.child)
        }
    }
}

struct Level10Reducer: PrismReducer {
    func reduce(into state: inout Level10State, action: Level10Action) -> PrismEffect<Level10Action> {
        switch action {
        case .increment:
            state.count &+= 1
            return .none
        }
    }
}

/// The deepest action, wrapped for the root: what a send from the deepest child becomes.
let deepestActionFromRoot: Level0Action = Level0Action.child(
    .child(.child(.child(.child(.child(.child(.child(.child(.child(.increment))))))))))

/// Scopes `store` ten times, down to the deepest level.
@MainActor
func scopeToDeepest(_ store: PrismStore<Level0State, Level0Action>) -> PrismStore<Level10State, Level10Action> {
    let level1 = store.scope(state: \.child, action: Level0Action.child)
    let level2 = level1.scope(state: \.child, action: Level1Action.child)
    let level3 = level2.scope(state: \.child, action: Level2Action.child)
    let level4 = level3.scope(state: \.child, action: Level3Action.child)
    let level5 = level4.scope(state: \.child, action: Level4Action.child)
    let level6 = level5.scope(state: \.child, action: Level5Action.child)
    let level7 = level6.scope(state: \.child, action: Level6Action.child)
    let level8 = level7.scope(state: \.child, action: Level7Action.child)
    let level9 = level8.scope(state: \.child, action: Level8Action.child)
    let level10 = level9.scope(state: \.child, action: Level9Action.child)
    return level10
}

/// The same store as `scopeToDeepest`, scoped in one step: the ten key paths composed into one,
/// the ten embeddings written as one closure (what the compiler can inline).
@MainActor
func scopeInOneStep(_ store: PrismStore<Level0State, Level0Action>) -> PrismStore<Level10State, Level10Action> {
    store.scope(
        state: \.child.child.child.child.child.child.child.child.child.child,
        action: { .child(.child(.child(.child(.child(.child(.child(.child(.child(.child($0)))))))))) }
    )
}

/// `--filter "scope loop"` (or `"deep scope loop"`, `"root send loop"`): 50,000,000 sends
/// (or `PRISM_LOOP_SENDS`) from the store scoped 10 levels deep in one step (one level at a
/// time; the root's own send of the wrapped action), to profile one send alone (`perf record`).
/// No figure, and only when asked for by name.
@MainActor
func scopeLoop() {
    guard let filter = benchmarkFilter, filter.hasSuffix("scope loop") || filter == "root send loop" else { return }
    let sends = ProcessInfo.processInfo.environment["PRISM_LOOP_SENDS"].flatMap { Int($0) } ?? 50_000_000
    let root = held(PrismStore(initialState: Level0State(), reducer: Level0Reducer()))
    let start = DispatchTime.now().uptimeNanoseconds
    if filter == "root send loop" {
        for _ in 0..<sends { root.send(deepestActionFromRoot) }
    } else {
        let deepest = filter == "deep scope loop" ? scopeToDeepest(root) : scopeInOneStep(root)
        for _ in 0..<sends { deepest.send(.increment) }
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(sends)
    precondition(root.state.child.child.child.child.child.child.child.child.child.child.count == sends)
    print(String(format: "%@: %.2f ns a send", filter, elapsed))
}
