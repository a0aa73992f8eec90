// The nested features of NestedScopes.swift, each PrismScope given only the case of its action
// (`action: Level0Action.child`): the form most features are written in, whose scopes read
// the child's action out by the enum's tag (PrismEnumCase).
import PrismArchitecture

struct CaseLevel0Feature: PrismFeature {
    var body: some PrismReducer<Level0State, Level0Action> {
        PrismScope(state: \.child, action: Level0Action.child) {
            CaseLevel1Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel1Feature: PrismFeature {
    var body: some PrismReducer<Level1State, Level1Action> {
        PrismScope(state: \.child, action: Level1Action.child) {
            CaseLevel2Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel2Feature: PrismFeature {
    var body: some PrismReducer<Level2State, Level2Action> {
        PrismScope(state: \.child, action: Level2Action.child) {
            CaseLevel3Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel3Feature: PrismFeature {
    var body: some PrismReducer<Level3State, Level3Action> {
        PrismScope(state: \.child, action: Level3Action.child) {
            CaseLevel4Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel4Feature: PrismFeature {
    var body: some PrismReducer<Level4State, Level4Action> {
        PrismScope(state: \.child, action: Level4Action.child) {
            CaseLevel5Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel5Feature: PrismFeature {
    var body: some PrismReducer<Level5State, Level5Action> {
        PrismScope(state: \.child, action: Level5Action.child) {
            CaseLevel6Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel6Feature: PrismFeature {
    var body: some PrismReducer<Level6State, Level6Action> {
        PrismScope(state: \.child, action: Level6Action.child) {
            CaseLevel7Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel7Feature: PrismFeature {
    var body: some PrismReducer<Level7State, Level7Action> {
        PrismScope(state: \.child, action: Level7Action.child) {
            CaseLevel8Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel8Feature: PrismFeature {
    var body: some PrismReducer<Level8State, Level8Action> {
        PrismScope(state: \.child, action: Level8Action.child) {
            CaseLevel9Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel9Feature: PrismFeature {
    var body: some PrismReducer<Level9State, Level9Action> {
        PrismScope(state: \.child, action: Level9Action.child) {
            CaseLevel10Feature()
        }
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}

struct CaseLevel10Feature: PrismFeature {
    var body: some PrismReducer<Level10State, Level10Action> {
        PrismReduce { state, action in
            if case .increment = action { state.count &+= 1 }
            return .none
        }
    }
}
