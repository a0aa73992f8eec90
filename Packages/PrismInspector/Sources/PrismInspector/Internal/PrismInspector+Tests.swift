import PrismInspectorModel
@_spi(PrismInternals) import PrismStore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Tests from sessions: a range of recorded actions written as a Swift Testing test (see
// TestGenerator.swift for what is written). Here: choosing the range and gathering what the
// generator needs, on the main actor (cheap copies); encoding and writing run off it, on the
// page's connection.
extension PrismInspector {
    /// Writes the test of the actions numbered `first` through `last` and sends it to `page`.
    func writeTest(from first: Int, through last: Int, for page: PageConnection) {
        switch testInput(from: first, through: last) {
        case .failure(let failure):
            page.send { NoticeMessage.error(failure.reason).jsonText }
        case .success(let input):
            page.send {
                let generator = input.generator()
                return TestMessage(
                    fileName: generator.fileName, source: generator.source(), actions: input.steps.count,
                    containsSecrets: input.containsSecrets
                ).jsonText
            }
        }
    }

    func testInput(from first: Int, through last: Int) -> Result<TestInput<State, Action>, TestGenerator.Failure> {
        guard let store else { return .failure(.init(reason: "The store is gone.")) }
        store.tools.moveRecording()
        let all = recorded.snapshots(from: .min)
        guard first <= last,
            let start = all.firstIndex(where: { $0.index == first }),
            let end = all.firstIndex(where: { $0.index == last })
        else {
            return .failure(
                .init(reason: "Choose a range of actions that are still kept (#\(first) through #\(last))."))
        }
        // A range that starts at a note starts from its state.
        let lower = recorded.action(of: all[start]) == nil ? start + 1 : start
        guard lower > 0 else {
            return .failure(.init(reason: "The state before #\(first) is no longer kept: start the test later."))
        }
        guard lower <= end else { return .failure(.init(reason: "There is no action in that range.")) }
        var steps: [TestInput<State, Action>.Step] = []
        for snapshot in all[lower...end] {
            guard let action = recorded.action(of: snapshot) else {
                return .failure(
                    .init(
                        reason:
                            "#\(snapshot.index) is a note (\(snapshot.action)): the state after it is not one an action "
                            + "made. Choose actions on one side of it."))
            }
            // A skipped action is left out: the states shown are the ones without it.
            guard !skipped.contains(snapshot.index) else { continue }
            steps.append(
                .init(
                    index: snapshot.index, action: action, state: snapshot.state,
                    sharedValues: recorded.sharedValues(ofSnapshot: snapshot.index),
                    byEffect: recorded.isSentByEffect(snapshot),
                    site: recorded.callSite(of: snapshot)?.description))
        }
        guard !steps.isEmpty else { return .failure(.init(reason: "Every action in that range is skipped.")) }
        let running = effects.contains { effect in
            (first...last).contains(effect.index) && !effect.task.isFinished
        }
        let effectActionsAfter = all[(end + 1)...].contains { recorded.isSentByEffect($0) }
        return .success(
            TestInput(
                initialState: all[lower - 1].state,
                initialSharedValues: recorded.sharedValues(ofSnapshot: all[lower - 1].index),
                steps: steps,
                effectsOutlastRange: running || effectActionsAfter,
                title: configuration.title ?? ValueNode.displayName(of: State.self),
                reducer: configuration.testReducer ?? Self.reducerExpression(store.tools.reducerType),
                dependencies: configuration.testDependencies,
                dependencyOverrides: store.tools.dependencyOverrides,
                encodeState: capabilities.encodeStateForTest,
                encodeAction: capabilities.encodeActionForTest,
                decodeState: capabilities.decodeStateForTest
            ))
    }

    /// `TypeName()` for a reducer type Swift code can name without arguments, else nil.
    static func reducerExpression(_ type: Any.Type?) -> String? {
        guard let type else { return nil }
        let name = String(reflecting: type)
        guard TestInput<State, Action>.isNameable(name), !name.contains("<") else { return nil }
        return name + "()"
    }
}

/// What the generator needs, gathered on the main actor; encoded and written off it.
struct TestInput<State: Sendable, Action: Sendable>: Sendable {
    struct Step: Sendable {
        let index: Int
        let action: Action
        let state: State
        /// Its shared values as they were then (the state holds them by reference).
        let sharedValues: PrismSharedTools.Values
        let byEffect: Bool
        let site: String?
    }

    let initialState: State
    let initialSharedValues: PrismSharedTools.Values
    let steps: [Step]
    let effectsOutlastRange: Bool
    let title: String
    let reducer: String?
    /// The expression that sets the test's dependencies, if configured.
    let dependencies: String?
    /// The types of the dependency values the store was made with, nil when made without.
    let dependencyOverrides: [String]?
    let encodeState: (@Sendable (State, PrismSharedTools.Values) throws -> String)?
    let encodeAction: (@Sendable (Action) throws -> String)?
    let decodeState: (@Sendable (String) throws -> State)?

    /// Whether a value marked secret is in the states or actions (written in clear in the test).
    var containsSecrets: Bool {
        ValueNode.containsSecret(initialState)
            || steps.contains { ValueNode.containsSecret($0.action) || ValueNode.containsSecret($0.state) }
    }

    /// Whether `name` (from `String(reflecting:)`) is one Swift code in another file can write.
    static func isNameable(_ name: String) -> Bool {
        !name.contains("(") && !name.isEmpty
    }

    /// The module a type named `name` is in, unless it is the standard library's.
    static func module(of name: String) -> String? {
        guard isNameable(name), let dot = name.firstIndex(of: ".") else { return nil }
        let module = String(name[..<dot])
        return ["Swift", "Foundation", "FoundationEssentials", "PrismStore", "PrismEffects"].contains(module)
            ? nil : module
    }

    /// The paths of `state` its JSON does not bring back (its `Codable` conformance leaves
    /// them out, or writes them otherwise): empty when the JSON decodes to an equal state.
    func unencodedPaths(of state: State, tree: ValueNode, json: String, sharedValues: PrismSharedTools.Values)
        -> [String]
    {
        guard let decodeState, let decoded = try? decodeState(json) else { return [] }
        guard !Self.equal(state, decoded) else { return [] }
        // The decoded state holds the same shared values (it joins them): seen as they were too.
        let decodedTree = PrismSharedTools.Values.$inEffect.withValue(sharedValues) { ValueNode(of: decoded) }
        let lost = tree.diff(to: decodedTree, limit: 20).map(\.path)
        return lost.isEmpty ? ["(state)"] : lost
    }

    /// Whether `a` and `b` are equal, when the state type is `Equatable` (else true: nothing
    /// to compare with).
    static func equal(_ a: State, _ b: State) -> Bool {
        guard let a = a as? any Equatable else { return true }
        return isEqual(a, b)
    }

    private static func isEqual<Value: Equatable>(_ a: Value, _ b: Any) -> Bool {
        a == (b as? Value)
    }

    func generator() -> TestGenerator {
        let stateName = String(reflecting: State.self)
        let actionName = String(reflecting: Action.self)
        func encoded<Value>(_ value: Value, _ encode: ((Value) throws -> String)?) -> Result<
            String, TestGenerator.Failure
        > {
            guard let encode else { return .failure(.init(reason: "the type is not Codable")) }
            do {
                return .success(try encode(value))
            } catch {
                return .failure(.init(reason: "\(error)"))
            }
        }
        // The trees show each state's shared values as they were (the states hold them by reference).
        var before = PrismSharedTools.Values.$inEffect.withValue(initialSharedValues) { ValueNode(of: initialState) }
        var written: [TestGenerator.Step] = []
        for step in steps {
            let after = PrismSharedTools.Values.$inEffect.withValue(step.sharedValues) { ValueNode(of: step.state) }
            let state = encoded(step.state, encodeState.map { encode in { try encode($0, step.sharedValues) } })
            written.append(
                .init(
                    index: step.index,
                    summary: ValueNode(of: step.action, budget: .summary).oneLine(limit: 120),
                    action: encoded(step.action, encodeAction),
                    state: state,
                    byEffect: step.byEffect,
                    site: step.site,
                    changes: before.diff(to: after, limit: 50),
                    unencoded: (try? state.get()).map {
                        unencodedPaths(of: step.state, tree: after, json: $0, sharedValues: step.sharedValues)
                    } ?? []
                ))
            before = after
        }
        return TestGenerator(
            stateType: Self.isNameable(stateName) ? stateName : nil,
            actionType: Self.isNameable(actionName) ? actionName : nil,
            module: Self.module(of: stateName) ?? Self.module(of: actionName),
            reducer: reducer,
            dependencies: dependencies,
            dependencyOverrides: dependencyOverrides,
            actionIsEquatable: Action.self is any Equatable.Type,
            stateIsEquatable: State.self is any Equatable.Type,
            notCodable: encodeState == nil || encodeAction == nil
                ? "The state and action types are not Codable: the test could not write them." : nil,
            initialState: encoded(initialState, encodeState.map { encode in { try encode($0, initialSharedValues) } }),
            steps: written,
            effectsOutlastRange: effectsOutlastRange,
            title: title,
            written: Date.now
        )
    }
}
