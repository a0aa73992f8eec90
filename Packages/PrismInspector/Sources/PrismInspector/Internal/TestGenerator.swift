// The test generator: a range of recorded actions written as a Swift Testing test that replays
// it with PrismTestStore, exhaustively. One pure function of what the inspector gathered (the
// JSON of each state and action, where each came from); the inspector gathers, this writes.
//
// What is written, and why:
//
// | Recorded                          | Written                                                 |
// | --------------------------------- | ------------------------------------------------------- |
// | the state before the first action | `states[0]`, the test store's initial state              |
// | an action a `send` made           | `try await store.send(action) { $0 = states[n] }`       |
// | an action an effect sent          | `try await store.receive(action) { $0 = states[n] }`    |
// |                                   | (a JSON match when the action type is not `Equatable`)  |
// | what each action changed          | a comment per changed path, above the step             |
// | a skipped action                  | nothing: the states shown are the ones without it       |
// | effects of the range still        | `store.skipInFlightEffects()` and                       |
// |   running, or an effect's action  | `store.skipReceivedActions()`, with a comment; else     |
// |   recorded after the range        | `await store.finish()`                                  |
// | a state or action that does not   | a comment saying why, and `Issue.record` in the test:   |
// |   encode as JSON                  | the file compiles, the test fails saying what to write  |
// | a type Swift code cannot name     | the same (a private or local type)                      |
// | a state its JSON does not bring   | the parts its JSON holds checked, the others taken from |
// |   back whole (`CodingKeys` leave  |   the store (`keepingUnencoded`), with a comment naming |
// |   a part out)                     |   the parts left out                                    |
//
// States are whole (`$0 = states[n]`): exact whatever the state holds, where assignments of
// changed paths would need every path to be settable from a test. The states and actions are
// the JSON their `Codable` conformances make, decoded by the test: what a raw string literal
// holds needs no escaping, and a state of any size stays one line per state.
//
// The test runs the reducer given by `PrismInspector.Configuration.testReducer`, or the store's
// reducer type called with no arguments, with the dependencies
// `PrismInspector.Configuration.testDependencies` sets. A recording holds what the app did, not
// what its dependencies answered: a store made with dependencies of its own (its
// `withDependencies` closure) gets a test that does not compile until they are set (an `#error`
// naming their types), rather than one that calls the live services.
//
// Shared values (`@PrismShared`) are written with their key and as they were at each step (the
// history holds them by reference; PrismSharedTools.Journal kept their values). The first state joins
// the test's shared values, those its store changes; the expected states hold theirs as written,
// and `PrismTestStore` compares them with the values each action left.

import PrismInspectorModel
import PrismSupport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct TestGenerator {
    /// One recorded action of the range.
    struct Step {
        /// Its snapshot's number.
        let index: Int
        /// The action on one line, secrets redacted (for the comment).
        let summary: String
        /// The action as JSON, or why it could not be written.
        let action: Result<String, Failure>
        /// The state after it as JSON, or why it could not be written.
        let state: Result<String, Failure>
        /// Whether an effect sent it.
        let byEffect: Bool
        /// Where it was sent from.
        let site: String?
        /// What it changed (path, old, new), for the comment.
        let changes: [DiffLine]
        /// The paths of the state after it that its JSON does not bring back (its `Codable`
        /// conformance leaves them out): empty when the JSON is the whole state.
        let unencoded: [String]
    }

    /// Why a value could not be written.
    struct Failure: Error {
        let reason: String
    }

    /// The state type as Swift code names it (`PrismSample.AppState`), or nil when it cannot.
    let stateType: String?
    /// The action type likewise.
    let actionType: String?
    /// The module to import with `@testable`.
    let module: String?
    /// A Swift expression that makes the reducer.
    let reducer: String?
    /// A Swift expression of type `(inout DependencyValues) -> Void` that sets the test's
    /// dependencies (`PrismInspector.Configuration.testDependencies`), if configured.
    let dependencies: String?
    /// The types of the dependency values the store was made with, nil when it was made without
    /// (then the test's dependencies are its defaults).
    let dependencyOverrides: [String]?
    /// Whether the action type is `Equatable` (`receive(action)`, else a JSON match).
    let actionIsEquatable: Bool
    /// Whether the state type is `Equatable` (PrismTestStore needs it).
    let stateIsEquatable: Bool
    /// Why states cannot be written at all (the types are not `Codable`), if so.
    let notCodable: String?
    /// The state before the first step.
    let initialState: Result<String, Failure>
    /// The steps, in order.
    let steps: [Step]
    /// Whether effects the range started were still running, or effects sent actions after it.
    let effectsOutlastRange: Bool
    /// The title of the inspected store, and when the test is written (for the header).
    let title: String
    let written: Date

    /// The name of the file to save the test as.
    var fileName: String { "\(suiteName).swift" }

    /// `Recorded<Title>Session<date><time>`, a valid Swift identifier.
    var suiteName: String {
        let letters = title.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return "Recorded\(letters.prefix(40))Session\(Self.stamp(written))"
    }

    /// The test's source.
    func source() -> String {
        var out = SourceWriter()
        let first = steps.first?.index
        let last = steps.last?.index
        let range = first.map { first in first == last ? "#\(first)" : "#\(first) through #\(last ?? first)" } ?? "none"
        out.line(
            "// Written by PrismInspector from the actions \(range) of \(Self.comment(title)), \(Self.iso(written)).")
        out.line("// Each step sends the recorded action (or receives it, when an effect sent it) and expects")
        out.line("// the whole state the app reached after it. States and actions are the JSON their Codable")
        out.line("// conformances write. The reducer and the dependencies its effects read are set below.")
        out.line("")
        out.line("import Foundation")
        out.line("import PrismStore")
        out.line("import PrismTesting")
        out.line("import Testing")
        if let module {
            out.line("")
            out.line("@testable import \(module)")
        }
        out.line("")
        let problems = blockingProblems()
        guard problems.isEmpty, let stateType, let actionType, let reducer else {
            writeUnwritable(problems, into: &out)
            return out.text
        }
        out.line("@MainActor")
        out.line("@Suite struct \(suiteName) {")
        out.indent {
            writeTest(stateType: stateType, actionType: actionType, reducer: reducer, into: &$0)
            $0.line("")
            writeHelpers(stateType: stateType, actionType: actionType, into: &$0)
        }
        out.line("}")
        return out.text
    }

    /// What keeps any step from being written: the types, the reducer, the initial state.
    private func blockingProblems() -> [String] {
        var problems: [String] = []
        if let notCodable { problems.append(notCodable) }
        if stateType == nil || actionType == nil {
            problems.append(
                "The state or action type cannot be named from another file (a private or local type): make it "
                    + "internal to write tests of it.")
        }
        if !stateIsEquatable { problems.append("The state type is not Equatable: PrismTestStore compares states.") }
        if reducer == nil {
            problems.append(
                "The store's reducer cannot be made from its type alone: set PrismInspector.Configuration's "
                    + "testReducer to the Swift expression that makes it, as a test would write it.")
        }
        if problems.isEmpty, case .failure(let failure) = initialState {
            problems.append("The state before the first action could not be written as JSON: \(failure.reason)")
        }
        return problems
    }

    /// A test that compiles and fails saying why no replay could be written, with the actions as
    /// comments.
    private func writeUnwritable(_ problems: [String], into out: inout SourceWriter) {
        out.line("@Suite struct \(suiteName) {")
        out.indent { out in
            out.line("@Test func replay() {")
            out.indent { out in
                out.line("// The recorded actions:")
                for step in steps { out.line("// #\(step.index) \(Self.comment(step.summary))") }
                for problem in problems {
                    out.line("Issue.record(\(Self.raw("PrismInspector could not write this test: " + problem)))")
                }
            }
            out.line("}")
        }
        out.line("}")
    }

    private func writeTest(stateType: String, actionType: String, reducer: String, into out: inout SourceWriter) {
        let names = steps.map { "#\($0.index) \($0.summary)" }
        let shown = names.count <= 3 ? names.joined(separator: ", ") : "\(names[0]) … \(names[names.count - 1])"
        out.line("@Test(\(Self.raw("Replays \(shown)")))")
        out.line("func replay() async throws {")
        out.indent { out in
            out.line("let states = try Self.states()")
            out.line("let store = PrismTestStore(")
            out.indent { out in
                out.line("initialState: states[0],")
                out.line("reducer: \(reducer),")
                if let dependencies {
                    out.line("withDependencies: \(dependencies)")
                } else {
                    out.line("withDependencies: { dependencies in")
                    out.indent { out in writeDependencyPlaceholder(into: &out) }
                    out.line("}")
                }
            }
            out.line(")")
            out.line("store.exhaustivity = .on")
            var stateNumber = 0
            for step in steps {
                out.line("")
                var heading = "// #\(step.index) \(Self.comment(step.summary))"
                if step.byEffect {
                    heading += ", sent by an effect" + (step.site.map { " made at \($0)" } ?? "")
                } else if let site = step.site {
                    heading += ", sent from \(site)"
                }
                out.line(heading)
                for change in step.changes.prefix(12) {
                    out.line("//   \(Self.comment(change.described))")
                }
                if step.changes.count > 12 { out.line("//   … \(step.changes.count - 12) more changes") }
                let action: String
                switch step.action {
                case .success(let json): action = json
                case .failure(let failure):
                    writeStop("Action #\(step.index) could not be written as JSON: \(failure.reason)", into: &out)
                    return
                }
                switch step.state {
                case .success: stateNumber += 1
                case .failure(let failure):
                    writeStop(
                        "The state after action #\(step.index) could not be written as JSON: \(failure.reason)",
                        into: &out)
                    return
                }
                var expected = "{ $0 = states[\(stateNumber)] }"
                if !step.unencoded.isEmpty {
                    let paths = step.unencoded.prefix(5).joined(separator: ", ")
                    out.line(
                        "// The state's Codable leaves out \(Self.comment(paths)): the test checks what its JSON holds."
                    )
                    expected = "{ $0 = try Self.keepingUnencoded(states[\(stateNumber)], from: store.state) }"
                }
                if !step.byEffect {
                    out.line("try await store.send(Self.action(\(Self.raw(action)))) \(expected)")
                } else if actionIsEquatable {
                    out.line("try await store.receive(Self.action(\(Self.raw(action))), assert: \(expected))")
                } else {
                    out.line("await store.receive(Self.matching(\(Self.raw(action))), assert: \(expected))")
                }
            }
            out.line("")
            if effectsOutlastRange {
                out.line("// Effects of these actions ran past the last one recorded here (or sent actions after it):")
                out.line("// the test stops without waiting for them.")
                out.line("store.skipReceivedActions()")
                out.line("store.skipInFlightEffects()")
            } else {
                out.line("await store.finish()")
            }
        }
        out.line("}")
    }

    /// What the test's dependencies closure holds when the configuration names none: nothing to
    /// set for a store made without dependencies of its own; for one made with them, an
    /// `#error` that names their types, so that the test does not run against live services.
    private func writeDependencyPlaceholder(into out: inout SourceWriter) {
        guard let overrides = dependencyOverrides else {
            out.line("// The store was made without dependencies of its own: the test's are the defaults.")
            out.line("_ = dependencies")
            return
        }
        let names = overrides.isEmpty ? "dependencies of its own" : overrides.joined(separator: ", ")
        out.line(
            "// The app's store was made with \(Self.comment(names)) (PrismStore(initialState:reducer:withDependencies:))."
        )
        out.line("// Set them here as a test should have them, or set PrismInspector.Configuration.testDependencies")
        out.line("// to the expression that does, and write the test again.")
        out.line("_ = dependencies")
        out.line(
            "#error(\(Self.raw("The store was made with \(names): set them in this closure (PrismInspector.Configuration.testDependencies writes them for you)."))"
        )
    }

    /// Ends the test at a step that cannot be written: it fails saying what to write by hand.
    private func writeStop(_ reason: String, into out: inout SourceWriter) {
        out.line("// \(Self.comment(reason))")
        out.line("// Write this step by hand; the steps after it are left out.")
        out.line("Issue.record(\(Self.raw(reason)))")
        out.line("store.skipReceivedActions()")
        out.line("store.skipInFlightEffects()")
    }

    private func writeHelpers(stateType: String, actionType: String, into out: inout SourceWriter) {
        var states: [String] = []
        if case .success(let json) = initialState { states.append(json) }
        for step in steps {
            guard case .success = step.action, case .success(let json) = step.state else { break }
            states.append(json)
        }
        out.line("/// The state before the first action, then the state after each. The first state's shared")
        out.line("/// values are the test's own (those of the store it starts), set as recorded; the others")
        out.line("/// hold theirs as recorded, the values each step expects.")
        out.line("static func states() throws -> [\(stateType)] {")
        out.indent { out in
            out.line("let json = [")
            out.indent { out in
                for json in states { out.line(Self.raw(json) + ",") }
            }
            out.line("]")
            out.line("let first = JSONDecoder()")
            out.line("first.userInfo[.prismSharedDecoding] = PrismSharedDecoding.restoring")
            out.line("let expected = JSONDecoder()")
            out.line("expected.userInfo[.prismSharedDecoding] = PrismSharedDecoding.asWritten")
            out.line("return try json.enumerated().map { index, json in")
            out.indent { out in
                out.line("try (index == 0 ? first : expected).decode(\(stateType).self, from: Data(json.utf8))")
            }
            out.line("}")
        }
        out.line("}")
        out.line("")
        out.line("static func action(_ json: String) throws -> \(actionType) {")
        out.indent { $0.line("try JSONDecoder().decode(\(actionType).self, from: Data(json.utf8))") }
        out.line("}")
        if steps.contains(where: { !$0.unencoded.isEmpty }) {
            out.line("")
            out.line("/// `expected`, or the store's state when both write the same JSON: what the state's Codable")
            out.line("/// leaves out cannot be written here, so it is taken from the store.")
            out.line(
                "static func keepingUnencoded(_ expected: \(stateType), from actual: \(stateType)) throws -> \(stateType) {"
            )
            out.indent { out in
                out.line("let encoder = JSONEncoder()")
                out.line("encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]")
                out.line("return try encoder.encode(actual) == encoder.encode(expected) ? actual : expected")
            }
            out.line("}")
        }
        guard !actionIsEquatable, steps.contains(where: \.byEffect) else { return }
        out.line("")
        out.line("/// Matches an action by its JSON (the action type is not Equatable).")
        out.line("static func matching(_ json: String) -> (\(actionType)) -> Bool {")
        out.indent { out in
            out.line("{ action in")
            out.indent { out in
                out.line("let encoder = JSONEncoder()")
                out.line("encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]")
                out.line("return (try? encoder.encode(action)).map { String(decoding: $0, as: UTF8.self) } == json")
            }
            out.line("}")
        }
        out.line("}")
    }

    // MARK: Writing Swift

    /// `text` as a Swift raw string literal: `#"…"#`, with as many `#` as it needs, on one
    /// line (line breaks and other control characters escaped as the literal's escapes).
    static func raw(_ text: String) -> String {
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        var body = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": body += "\\\(hashes)n"
            case "\r": body += "\\\(hashes)r"
            case "\t": body += "\\\(hashes)t"
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value):
                body += "\\\(hashes)u{\(String(scalar.value, radix: 16))}"
            default: body.unicodeScalars.append(scalar)
            }
        }
        return hashes + "\"" + body + "\"" + hashes
    }

    /// `text` made safe for a line comment: one line (each line break, CR, NEL, U+2028 and
    /// U+2029 included, a space), no end of a block comment, and every other control character
    /// and bidirectional formatting character written as `\u{...}`, so that the comment reads
    /// as it compiles.
    static func comment(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029:
                result += " "
            case 0x09:
                result.unicodeScalars.append(scalar)
            case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result.replacingOccurrences(of: "*/", with: "* /")
    }

    /// `20261128T011856`.
    static func stamp(_ date: Date) -> String {
        iso(date).filter { $0.isNumber || $0 == "T" }
    }

    /// `2026-11-28T01:18:56Z`.
    static func iso(_ date: Date) -> String {
        HTTPDate.formatISO8601(Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}

/// Lines of Swift, indented by four spaces per level.
struct SourceWriter {
    private(set) var text = ""
    private var depth = 0

    mutating func line(_ line: String) {
        text += line.isEmpty ? "\n" : String(repeating: "    ", count: depth) + line + "\n"
    }

    mutating func indent(_ body: (inout SourceWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }
}

extension DiffLine {
    /// `count: 1 → 2`, `items[2]: + "milk"`, `items[0]: − "eggs"`.
    var described: String {
        switch (old, new) {
        case (let old?, let new?): "\(path): \(old) → \(new)"
        case (nil, let new?): "\(path): + \(new)"
        case (let old?, nil): "\(path): − \(old)"
        case (nil, nil): path
        }
    }
}
