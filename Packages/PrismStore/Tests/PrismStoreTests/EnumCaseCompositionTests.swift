import Testing

@testable import PrismStore

// MARK: A list written with cases only: no extractor properties on its action enum

enum CaseOnlyAction: Equatable, Sendable {
    case row(id: Int, action: RowAction)
    case detail(DetailAction)
    /// Same payload type as `detail`: must never reach the detail.
    case echo(DetailAction)
    case settings(SettingsAction)
    case add(Row)
    case showDetail(id: Int)
}

struct CaseOnlyList: PrismFeature {
    let ticks: TickSource

    var body: some PrismReducer<ListState, CaseOnlyAction> {
        PrismScope(state: \.settings, action: CaseOnlyAction.settings) {
            SettingsFeature()
        }
        PrismReduce<ListState, CaseOnlyAction> { state, action in
            switch action {
            case .add(let row): state.rows.append(row)
            case .showDetail(let id): state.detail = Detail(id: id)
            case .echo(let action): state.log.append("echo \(action)")
            case .row, .detail, .settings: break
            }
            return .none
        }
        .ifLet(\.detail, action: CaseOnlyAction.detail) {
            DetailFeature(ticks: ticks)
        }
        .forEach(\.rows, action: CaseOnlyAction.row) {
            RowFeature(ticks: ticks)
        }
    }
}

// MARK: The same list with case key paths, on a conformance written as `@CasePathable` writes it

extension CaseOnlyAction: CasePathable {
    struct AllCasePaths {
        var row: AnyCasePath<CaseOnlyAction, (id: Int, action: RowAction)> {
            AnyCasePath(
                embed: { .row(id: $0.id, action: $0.action) },
                extract: { if case .row(let id, let action) = $0 { (id, action) } else { nil } }
            )
        }
        var detail: AnyCasePath<CaseOnlyAction, DetailAction> {
            AnyCasePath(embed: { .detail($0) }, extract: { if case .detail(let action) = $0 { action } else { nil } })
        }
        var settings: AnyCasePath<CaseOnlyAction, SettingsAction> {
            AnyCasePath(
                embed: { .settings($0) }, extract: { if case .settings(let action) = $0 { action } else { nil } })
        }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
}

struct CaseKeyPathList: PrismFeature {
    let ticks: TickSource

    var body: some PrismReducer<ListState, CaseOnlyAction> {
        PrismScope(state: \.settings, action: \.settings) {
            SettingsFeature()
        }
        PrismReduce<ListState, CaseOnlyAction> { state, action in
            if case .showDetail(let id) = action { state.detail = Detail(id: id) }
            if case .echo(let action) = action { state.log.append("echo \(action)") }
            return .none
        }
        .ifLet(\.detail, action: \.detail) {
            DetailFeature(ticks: ticks)
        }
        .forEach(\.rows, action: \.row) {
            RowFeature(ticks: ticks)
        }
    }
}

// MARK: Enum shapes the extraction must read right

final class Payload: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

struct Padded: Equatable, Sendable {
    var flag: Bool
    var count: Int
    var other: Bool
}

enum Shapes: Sendable {
    case number(Int)
    case otherNumber(Int)
    case pair(id: Int, name: String)
    case labeled(action: Int)
    case object(Payload)
    case existential(any Sendable)
    case padded(Padded)
    indirect case nested(Shapes)
    case zeroSized(id: Int, action: Single)
    case empty
    case optional(Int?)
}

/// One case, no payload: a type of size zero.
enum Single: Sendable, Equatable {
    case only
}

enum Generic<Value: Sendable>: Sendable {
    case value(Value)
    case nothing
}

struct NotAnEnum: Sendable {
    var value: Int
}

// MARK: More cases than the main actor's cache of readings starts with

/// Eighty cases with the same payload type: eighty keys of the readings table, one per case,
/// more than the main actor's cache has slots at first.
enum ManyCases: Sendable {
    case c0(Int)
    case c1(Int)
    case c2(Int)
    case c3(Int)
    case c4(Int)
    case c5(Int)
    case c6(Int)
    case c7(Int)
    case c8(Int)
    case c9(Int)
    case
        c10(Int)
    case c11(Int)
    case c12(Int)
    case c13(Int)
    case c14(Int)
    case c15(Int)
    case c16(Int)
    case c17(Int)
    case c18(Int)
    case c19(Int)
    case
        c20(Int)
    case c21(Int)
    case c22(Int)
    case c23(Int)
    case c24(Int)
    case c25(Int)
    case c26(Int)
    case c27(Int)
    case c28(Int)
    case c29(Int)
    case
        c30(Int)
    case c31(Int)
    case c32(Int)
    case c33(Int)
    case c34(Int)
    case c35(Int)
    case c36(Int)
    case c37(Int)
    case c38(Int)
    case c39(Int)
    case
        c40(Int)
    case c41(Int)
    case c42(Int)
    case c43(Int)
    case c44(Int)
    case c45(Int)
    case c46(Int)
    case c47(Int)
    case c48(Int)
    case c49(Int)
    case
        c50(Int)
    case c51(Int)
    case c52(Int)
    case c53(Int)
    case c54(Int)
    case c55(Int)
    case c56(Int)
    case c57(Int)
    case c58(Int)
    case c59(Int)
    case
        c60(Int)
    case c61(Int)
    case c62(Int)
    case c63(Int)
    case c64(Int)
    case c65(Int)
    case c66(Int)
    case c67(Int)
    case c68(Int)
    case c69(Int)
    case
        c70(Int)
    case c71(Int)
    case c72(Int)
    case c73(Int)
    case c74(Int)
    case c75(Int)
    case c76(Int)
    case c77(Int)
    case c78(Int)
    case c79(Int)

    /// Each case's constructor, in order.
    static let all: [@Sendable (Int) -> ManyCases] = [
        ManyCases.c0, ManyCases.c1, ManyCases.c2, ManyCases.c3, ManyCases.c4, ManyCases.c5, ManyCases.c6,
        ManyCases.c7, ManyCases.c8, ManyCases.c9, ManyCases.c10, ManyCases.c11, ManyCases.c12, ManyCases.c13,
        ManyCases.c14, ManyCases.c15, ManyCases.c16, ManyCases.c17, ManyCases.c18, ManyCases.c19, ManyCases.c20,
        ManyCases.c21, ManyCases.c22, ManyCases.c23, ManyCases.c24, ManyCases.c25, ManyCases.c26, ManyCases.c27,
        ManyCases.c28, ManyCases.c29, ManyCases.c30, ManyCases.c31, ManyCases.c32, ManyCases.c33, ManyCases.c34,
        ManyCases.c35, ManyCases.c36, ManyCases.c37, ManyCases.c38, ManyCases.c39, ManyCases.c40, ManyCases.c41,
        ManyCases.c42, ManyCases.c43, ManyCases.c44, ManyCases.c45, ManyCases.c46, ManyCases.c47, ManyCases.c48,
        ManyCases.c49, ManyCases.c50, ManyCases.c51, ManyCases.c52, ManyCases.c53, ManyCases.c54, ManyCases.c55,
        ManyCases.c56, ManyCases.c57, ManyCases.c58, ManyCases.c59, ManyCases.c60, ManyCases.c61, ManyCases.c62,
        ManyCases.c63, ManyCases.c64, ManyCases.c65, ManyCases.c66, ManyCases.c67, ManyCases.c68, ManyCases.c69,
        ManyCases.c70, ManyCases.c71, ManyCases.c72, ManyCases.c73, ManyCases.c74, ManyCases.c75, ManyCases.c76,
        ManyCases.c77, ManyCases.c78, ManyCases.c79,
    ]
}

/// One scope per case, each given the case alone, each adding its payload to its own total.
struct ManyCasesFeature: PrismFeature {
    var body: some PrismReducer<[Int], ManyCases> {
        for (index, embed) in ManyCases.all.enumerated() {
            PrismScope(state: \.[index], action: embed) {
                PrismReduce<Int, Int> { total, amount in
                    total += amount
                    return .none
                }
            }
        }
    }
}

@MainActor
@Suite("Composition with an enum case alone")
struct EnumCaseCompositionTests {
    @Test("ifLet, forEach and PrismScope route by the case alone")
    func routesByCase() {
        let store = PrismStore(initialState: ListState.three, reducer: CaseOnlyList(ticks: TickSource()))
        store.send(.row(id: 2, action: .toggle))
        store.send(.row(id: 3, action: .tick))
        store.send(.showDetail(id: 9))
        store.send(.detail(.tick))
        store.send(.settings(.setFontSize(20)))
        #expect(store.state.rows.map(\.isDone) == [false, true, false])
        #expect(store.state.rows.map(\.ticks) == [0, 0, 1])
        #expect(store.state.detail == Detail(id: 9, seconds: 1))
        #expect(store.state.settings.fontSize == 20)
    }

    @Test("ifLet, forEach and PrismScope route by case key paths")
    func routesByCaseKeyPath() async {
        let ticks = TickSource()
        let store = PrismStore(initialState: ListState.three, reducer: CaseKeyPathList(ticks: ticks))
        store.send(.row(id: 2, action: .toggle))
        store.send(.echo(.tick))
        store.send(.showDetail(id: 9))
        store.send(.detail(.tick))
        store.send(.settings(.setFontSize(20)))
        #expect(store.state.rows.map(\.isDone) == [false, true, false])
        #expect(store.state.detail == Detail(id: 9, seconds: 1))
        #expect(store.state.settings.fontSize == 20)
        #expect(store.state.log == ["echo tick"])
        // A child effect's actions come back through the key path's embedding.
        store.send(.row(id: 1, action: .startTimer))
        ticks.tick("row 1")
        #expect(await settle { store.state.rows[id: 1]?.ticks == 1 })
        store.send(.row(id: 1, action: .stopTimer))
    }

    @Test("another case with the same payload type never reaches the child, before or after it learned its case")
    func sameTypeOtherCase() {
        let store = PrismStore(initialState: ListState(), reducer: CaseOnlyList(ticks: TickSource()))
        store.send(.showDetail(id: 1))
        // The first DetailAction the scope sees is in the other case.
        store.send(.echo(.tick))
        store.send(.detail(.tick))
        store.send(.echo(.tick))
        store.send(.detail(.tick))
        #expect(store.state.detail?.seconds == 2)
        #expect(store.state.log == ["echo tick", "echo tick"])
    }

    @Test("an action for a missing row is still the warning it was")
    func missingRow() {
        let store = PrismStore(initialState: ListState(), reducer: CaseOnlyList(ticks: TickSource()))
        withKnownIssue {
            store.send(.row(id: 42, action: .toggle))
        } matching: { issue in
            issue.description.contains("42")
        }
    }

    @Test("each shape of payload is read back, and only from its own case")
    func shapes() {
        func extract<Value>(_ embed: @escaping @Sendable (Value) -> Shapes, _ values: [Shapes]) -> [Value?] {
            let enumCase = PrismEnumCase(embed: embed)
            // Twice: once while learning the case, once knowing it.
            return values.map { enumCase.extract(from: $0) } + values.map { enumCase.extract(from: $0) }
        }
        let mixed: [Shapes] = [.otherNumber(1), .number(2), .empty, .pair(id: 3, name: "x"), .labeled(action: 4)]
        #expect(extract(Shapes.number, mixed) == [nil, 2, nil, nil, nil, nil, 2, nil, nil, nil])
        #expect(extract(Shapes.otherNumber, mixed) == [1, nil, nil, nil, nil, 1, nil, nil, nil, nil])
        #expect(extract(Shapes.labeled, mixed) == [nil, nil, nil, nil, 4, nil, nil, nil, nil, 4])

        let pairs = extract({ (payload: (Int, String)) in Shapes.pair(id: payload.0, name: payload.1) }, mixed)
        #expect(pairs.map { $0?.1 } == [nil, nil, nil, "x", nil, nil, nil, nil, "x", nil])

        let padded = extract(Shapes.padded, [.padded(Padded(flag: true, count: 5, other: false)), .number(1)])
        #expect(
            padded == [
                Padded(flag: true, count: 5, other: false), nil, Padded(flag: true, count: 5, other: false), nil,
            ])

        let nested = extract(Shapes.nested, [.nested(.number(7)), .number(7), .nested(.empty)])
        #expect(nested.map { $0.map { "\($0)" } } == ["number(7)", nil, "empty", "number(7)", nil, "empty"])

        let optionals = extract(Shapes.optional, [.optional(nil), .optional(3), .number(3)])
        #expect(optionals == [.some(nil), .some(3), nil, .some(nil), .some(3), nil])

        let existential = extract(Shapes.existential, [.existential(5), .number(5), .existential("five")])
        #expect(existential.map { $0.map { "\($0)" } } == ["5", nil, "five", "5", nil, "five"])

        let generic = PrismEnumCase(embed: Generic<String>.value)
        #expect(generic.extract(from: .nothing) == nil)
        #expect(generic.extract(from: .value("a")) == "a")
        #expect(generic.extract(from: .value("b")) == "b")
        #expect(generic.extract(from: .nothing) == nil)
    }

    @Test("a payload object read back is retained and released as it should be")
    func objectPayloadLifetime() {
        weak var weakPayload: Payload?
        do {
            let enumCase = PrismEnumCase(embed: Shapes.object)
            _ = enumCase.extract(from: .object(Payload(name: "learning")))
            #expect(enumCase.reading(for: .object(Payload(name: "x"))) == .inPlace)
            var names: [String] = []
            do {
                let payload = Payload(name: "kept")
                weakPayload = payload
                let action = Shapes.object(payload)
                for _ in 0..<1_000 {
                    if let read = enumCase.extract(from: action) { names.append(read.name) }
                }
            }
            #expect(names.count == 1_000)
            #expect(names.allSatisfy { $0 == "kept" })
        }
        #expect(weakPayload == nil)
    }

    @Test("an action type that is not an enum is a warning where the combinator is written")
    func notAnEnum() {
        withKnownIssue {
            _ = PrismScope(state: \Settings.self, action: { (action: SettingsAction) in NotAnEnum(value: 1) }) {
                SettingsFeature()
            }
        } matching: { issue in
            issue.description.contains("NotAnEnum is not an enum")
        }
    }

    @Test("ifLet and forEach given the case alone warn where they are written when the action is not an enum")
    func notAnEnumForIfLetAndForEach() {
        let parent = PrismReduce<ListState, NotAnEnum> { _, _ in .none }
        let ticks = TickSource()
        withKnownIssue {
            _ = parent.ifLet(\.detail, action: { (_: DetailAction) in NotAnEnum(value: 1) }) {
                DetailFeature(ticks: ticks)
            }
        } matching: { issue in
            issue.description.contains("NotAnEnum is not an enum")
        }
        withKnownIssue {
            _ = parent.forEach(\.rows, action: { (_: Int, _: RowAction) in NotAnEnum(value: 2) }) {
                RowFeature(ticks: ticks)
            }
        } matching: { issue in
            issue.description.contains("NotAnEnum is not an enum")
        }
    }
}

@Suite("Enum case extraction: how a payload is read")
struct EnumCaseReadingTests {
    @Test("a plain case's payload is read from memory; an indirect one's by reflection")
    func readingMode() {
        let number = PrismEnumCase(embed: Shapes.number)
        #expect(number.extract(from: .number(1)) == 1)
        #expect(number.reading(for: .number(1)) == .inPlace)
        #expect(number.extract(from: .otherNumber(1)) == nil)
        #expect(number.reading(for: .otherNumber(1)) == .inPlace)
        #expect(number.extract(from: .empty) == nil)
        #expect(number.reading(for: .empty) == .notValue)

        let pair = PrismEnumCase(embed: { (payload: (Int, String)) in Shapes.pair(id: payload.0, name: payload.1) })
        #expect(pair.extract(from: .pair(id: 1, name: "a"))?.1 == "a")
        #expect(pair.reading(for: .pair(id: 1, name: "a")) == .inPlace)

        let zeroSized = PrismEnumCase(embed: { (payload: (Int, Single)) in
            Shapes.zeroSized(id: payload.0, action: payload.1)
        })
        #expect(zeroSized.extract(from: .zeroSized(id: 8, action: .only))?.0 == 8)
        #expect(zeroSized.reading(for: .zeroSized(id: 8, action: .only)) == .inPlace)

        let nested = PrismEnumCase(embed: Shapes.nested)
        #expect(nested.extract(from: .nested(.empty)) != nil)
        #expect(nested.reading(for: .nested(.empty)) == .reflected)

        let existential = PrismEnumCase(embed: Shapes.existential)
        #expect(existential.extract(from: .existential(3)) != nil)
        #expect(existential.reading(for: .existential(3)) == .reflected)
    }

    @Test("eighty cases, each scoped by the case alone, each reach only their own child, learned and read again")
    @MainActor
    func manyCasesEachReachTheirOwnChild() {
        let store = PrismStore(initialState: [Int](repeating: 0, count: 80), reducer: ManyCasesFeature())
        // Twice over: the first round learns each case (and grows the main actor's cache past
        // its first size), the second reads what was learned.
        for round in 1...2 {
            for (index, embed) in ManyCases.all.enumerated() { store.send(embed(index + 1)) }
            #expect(store.state == (0..<80).map { round * ($0 + 1) })
        }
    }

    @Test("many tasks learning and reading the same cases at once agree")
    func concurrentLearning() async {
        enum Fresh: Sendable {
            case first(String)
            case second(String)
            case third(Int)
        }
        let results = await withTaskGroup(of: [String?].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let first = PrismEnumCase(embed: Fresh.first)
                    let second = PrismEnumCase(embed: Fresh.second)
                    return (0..<500).flatMap { index in
                        [
                            first.extract(from: .first("a\(index)")), first.extract(from: .second("b")),
                            first.extract(from: .third(index)), second.extract(from: .second("b\(index)")),
                        ]
                    }
                }
            }
            var all: [[String?]] = []
            for await result in group { all.append(result) }
            return all
        }
        let expected = (0..<500).flatMap { index in ["a\(index)", nil, nil, "b\(index)"] }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
    }
}
