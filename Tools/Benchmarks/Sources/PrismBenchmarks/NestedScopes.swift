// Eleven nested features composed with PrismScope, for the PrismScope-depth benchmark: the same
// states and actions as NestedFeatures.swift, reduced by the library's composition instead of
// by hand.
import PrismArchitecture

struct ScopedLevel0Feature: PrismFeature {
    nonisolated static func child(of action: Level0Action) -> Level1Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level0State, Level0Action> {
        PrismScope(state: \.child, action: Level0Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel1Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel1Feature: PrismFeature {
    nonisolated static func child(of action: Level1Action) -> Level2Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level1State, Level1Action> {
        PrismScope(state: \.child, action: Level1Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel2Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel2Feature: PrismFeature {
    nonisolated static func child(of action: Level2Action) -> Level3Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level2State, Level2Action> {
        PrismScope(state: \.child, action: Level2Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel3Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel3Feature: PrismFeature {
    nonisolated static func child(of action: Level3Action) -> Level4Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level3State, Level3Action> {
        PrismScope(state: \.child, action: Level3Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel4Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel4Feature: PrismFeature {
    nonisolated static func child(of action: Level4Action) -> Level5Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level4State, Level4Action> {
        PrismScope(state: \.child, action: Level4Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel5Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel5Feature: PrismFeature {
    nonisolated static func child(of action: Level5Action) -> Level6Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level5State, Level5Action> {
        PrismScope(state: \.child, action: Level5Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel6Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel6Feature: PrismFeature {
    nonisolated static func child(of action: Level6Action) -> Level7Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level6State, Level6Action> {
        PrismScope(state: \.child, action: Level6Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel7Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel7Feature: PrismFeature {
    nonisolated static func child(of action: Level7Action) -> Level8Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level7State, Level7Action> {
        PrismScope(state: \.child, action: Level7Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel8Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel8Feature: PrismFeature {
    nonisolated static func child(of action: Level8Action) -> Level9Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level8State, Level8Action> {
        PrismScope(state: \.child, action: Level8Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel9Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel9Feature: PrismFeature {
    nonisolated static func child(of action: Level9Action) -> Level10Action? {
        if case .child(let child) = action { child } else { nil }
    }

    var body: some PrismReducer<Level9State, Level9Action> {
        PrismScope(state: \.child, action: Level9Action.child, toChildAction: Self.child(of:)) {
            ScopedLevel10Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct ScopedLevel10Feature: PrismFeature {
    var body: some PrismReducer<Level10State, Level10Action> {
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}
