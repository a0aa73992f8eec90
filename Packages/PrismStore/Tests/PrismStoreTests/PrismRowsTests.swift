import Foundation
import Observation
import Testing

@testable import PrismStore

/// A seeded generator, so that a failing sequence of operations can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct RowsItemValue: Codable, Equatable, Hashable, Identifiable, Sendable {
    var id: Int
    var value: Int
}

/// Every node of a tree, for counting what two copies share.
private func nodes<Element>(of rows: PrismRows<Element>) -> [ObjectIdentifier] {
    var found: [ObjectIdentifier] = []
    func visit(_ node: RowsNode) {
        found.append(ObjectIdentifier(node))
        for child in node.children { visit(child.node) }
    }
    visit(rows.root)
    return found
}

/// Checks the tree's bookkeeping: counts, largest stamps, stamps increasing, the trie.
private func checkInvariants<Element>(_ rows: PrismRows<Element>, _ comment: Comment? = nil) {
    var stamps: [UInt64] = []
    func visit(_ node: RowsNode, isRoot: Bool) -> (count: Int, maxStamp: UInt64) {
        if node.isLeaf {
            let items = RowsTree<Element>.leaf(node).items
            if !isRoot { #expect(items.count >= 1 && items.count <= RowsNode.leafCapacity, comment) }
            stamps += items.map(\.stamp)
            return (items.count, items.last?.stamp ?? 0)
        }
        #expect(node.children.count >= (isRoot ? 2 : 1) && node.children.count <= RowsNode.innerCapacity, comment)
        var total = 0
        for child in node.children {
            let (count, maxStamp) = visit(child.node, isRoot: false)
            #expect(count == child.count && maxStamp == child.maxStamp, comment)
            total += count
        }
        return (total, node.children.last?.maxStamp ?? 0)
    }
    let (count, _) = visit(rows.root, isRoot: true)
    #expect(count == rows.count, comment)
    #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, comment ?? "stamps increase with position")
    for (element, stamp) in zip(rows, stamps) {
        #expect(rows.stamps[element.id] == stamp, comment)
    }
}

@Suite("PrismRows: an identified collection whose copies share storage")
struct PrismRowsTests {
    @Test("random operations give the same elements as an array; copies kept along the way never change")
    func matchesAnArray() {
        var generator = SplitMix64(state: 42)
        var rows = PrismRows<RowsItemValue>()
        var model: [RowsItemValue] = []
        var nextID = 0
        var snapshots: [(PrismRows<RowsItemValue>, [RowsItemValue])] = []
        for step in 0..<6_000 {
            let choice = Int.random(in: 0..<100, using: &generator)
            switch choice {
            case 0..<30:
                let index = Int.random(in: 0...model.count, using: &generator)
                let item = RowsItemValue(id: nextID, value: step)
                nextID += 1
                #expect(rows.insert(item, at: index) == (true, index))
                model.insert(item, at: index)
            case 30..<40:
                let item = RowsItemValue(id: nextID, value: step)
                nextID += 1
                rows.append(item)
                model.append(item)
            case 40..<55 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &generator)
                #expect(rows.remove(at: index) == model.remove(at: index))
            case 55..<62 where !model.isEmpty:
                let id = model.randomElement(using: &generator)!.id
                #expect(rows.remove(id: id) == model.remove(at: model.firstIndex { $0.id == id }!))
            case 62..<80 where !model.isEmpty:
                let index = Int.random(in: 0..<model.count, using: &generator)
                rows[index].value += 1
                model[index].value += 1
            case 80..<90 where !model.isEmpty:
                let id = model.randomElement(using: &generator)!.id
                rows[id: id]?.value = -step
                model[model.firstIndex { $0.id == id }!].value = -step
            case 90..<93 where model.count > 1:
                let i = Int.random(in: 0..<model.count, using: &generator)
                let j = Int.random(in: 0..<model.count, using: &generator)
                rows.swapAt(i, j)
                model.swapAt(i, j)
            case 93..<96 where model.count > 2:
                let offsets = Set((0..<3).map { _ in Int.random(in: 0..<model.count, using: &generator) })
                let destination = Int.random(in: 0...model.count, using: &generator)
                rows.move(fromOffsets: offsets, toOffset: destination)
                let moved = offsets.sorted().map { model[$0] }
                let before = offsets.filter { $0 < destination }.count
                for offset in offsets.sorted(by: >) { model.remove(at: offset) }
                model.insert(contentsOf: moved, at: destination - before)
            case 96..<98:
                snapshots.append((rows, model))
            default:
                let item = model.randomElement(using: &generator)
                if let item {
                    #expect(
                        rows.append(item) == (false, model.firstIndex(of: item)!), "an id already there is not added")
                }
            }
            #expect(rows.count == model.count)
            if step % 500 == 0 {
                #expect(Array(rows) == model, "step \(step)")
                checkInvariants(rows, "step \(step)")
            }
        }
        #expect(Array(rows) == model)
        #expect(rows.elements == model)
        checkInvariants(rows)
        for item in model.shuffled(using: &generator).prefix(200) {
            #expect(rows[id: item.id] == item)
            #expect(rows.index(id: item.id) == model.firstIndex(of: item))
        }
        #expect(!snapshots.isEmpty)
        for (snapshot, expected) in snapshots {
            #expect(Array(snapshot) == expected)
            #expect(snapshot == PrismRows(uniqueElements: expected))
            checkInvariants(snapshot)
        }
    }

    @Test("many insertions at one place renumber the stamps around it and keep the order")
    func insertionsAtOnePlace() {
        var rows = PrismRows(uniqueElements: (0..<1_000).map { RowsItemValue(id: $0, value: $0) })
        var model = Array(rows)
        for id in 1_000..<4_000 {
            // Always right after the first element: the gap there halves each time.
            rows.insert(RowsItemValue(id: id, value: id), at: 1)
            model.insert(RowsItemValue(id: id, value: id), at: 1)
        }
        for id in 4_000..<6_000 {
            rows.insert(RowsItemValue(id: id, value: id), at: 0)
            model.insert(RowsItemValue(id: id, value: id), at: 0)
        }
        #expect(Array(rows) == model)
        checkInvariants(rows)
        #expect(rows.index(id: 2_500) == model.firstIndex { $0.id == 2_500 })
    }

    @Test("a change to a copy copies only the nodes on the way to it, and leaves the original as it was")
    func copiesShareStorage() {
        let original = PrismRows(uniqueElements: (0..<100_000).map { RowsItemValue(id: $0, value: 0) })
        var copy = original
        copy[id: 54_321]?.value = 7
        let before = Set(nodes(of: original))
        let after = nodes(of: copy)
        let copied = after.filter { !before.contains($0) }
        // One leaf and the inner nodes above it: the depth of the tree.
        #expect(copied.count >= 2 && copied.count <= 6, "copied \(copied.count) of \(after.count) nodes")
        #expect(original[id: 54_321]?.value == 0)
        #expect(copy[id: 54_321]?.value == 7)
        #expect(copy != original)
        copy[id: 54_321]?.value = 0
        #expect(copy == original)
        #expect(copy.stamps.count == original.stamps.count)
    }

    @Test("equality compares elements in order, whatever the trees' shapes")
    func equality() {
        let items = (0..<500).map { RowsItemValue(id: $0, value: $0) }
        var built = PrismRows<RowsItemValue>()
        for item in items.reversed() { built.insert(item, at: 0) }
        let bulk = PrismRows(uniqueElements: items)
        #expect(built == bulk)
        #expect(built.hashValue == bulk.hashValue)
        var changed = bulk
        changed[499].value = -1
        #expect(changed != bulk)
        var reordered = bulk
        reordered.swapAt(0, 1)
        #expect(reordered != bulk)
        #expect(PrismRows<RowsItemValue>() == [])
    }

    @Test("encodes as an array of its elements and decodes from one")
    func codable() throws {
        let rows: PrismRows<RowsItemValue> = [RowsItemValue(id: 3, value: 30), RowsItemValue(id: 1, value: 10)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(rows)
        #expect(String(decoding: data, as: UTF8.self) == #"[{"id":3,"value":30},{"id":1,"value":10}]"#)
        let decoded = try JSONDecoder().decode(PrismRows<RowsItemValue>.self, from: data)
        #expect(decoded == rows)
        #expect(decoded[id: 1]?.value == 10)
    }

    @Test("decoding a repeated id throws a DecodingError that names it")
    func decodingRepeatedID() throws {
        let json = Data(#"[{"id": 1, "value": 1}, {"id": 2, "value": 2}, {"id": 1, "value": 3}]"#.utf8)
        #expect {
            try JSONDecoder().decode(PrismRows<RowsItemValue>.self, from: json)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription.contains("id 1") && context.debugDescription.contains("index 2")
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(PrismRows<RowsItemValue>.self, from: Data(#"{"id": 1}"#.utf8))
        }
    }

    @Test("setting an element by id changes it, appends it, or removes it with nil")
    func subscriptByID() {
        var rows: PrismRows<RowsItemValue> = [RowsItemValue(id: 1, value: 1)]
        rows[id: 2] = RowsItemValue(id: 2, value: 2)
        #expect(rows.elements == [RowsItemValue(id: 1, value: 1), RowsItemValue(id: 2, value: 2)])
        rows[id: 1] = nil
        #expect(rows.elements == [RowsItemValue(id: 2, value: 2)])
        #expect(rows[id: 1] == nil)
        #expect(!rows.contains(id: 1) && rows.contains(id: 2))
        rows[id: 2]?.value = 20
        #expect(rows[0] == RowsItemValue(id: 2, value: 20))
        rows.removeAll()
        #expect(rows.isEmpty)
    }

    @Test("sorting, removing by a condition, reversing and slicing work as on an array")
    func collectionAlgorithms() {
        var generator = SplitMix64(state: 7)
        let items = (0..<300).map { RowsItemValue(id: $0, value: Int.random(in: 0..<50, using: &generator)) }
        var rows = PrismRows(uniqueElements: items)
        var model = items
        rows.sort { ($0.value, $0.id) < ($1.value, $1.id) }
        model.sort { ($0.value, $0.id) < ($1.value, $1.id) }
        #expect(Array(rows) == model)
        rows.removeAll { $0.value % 3 == 0 }
        model.removeAll { $0.value % 3 == 0 }
        #expect(Array(rows) == model)
        rows.reverse()
        model.reverse()
        #expect(Array(rows) == model)
        #expect(Array(rows[10..<20]) == Array(model[10..<20]))
        #expect(rows.map(\.id) == model.map(\.id))
        #expect(Array(rows.ids) == model.map(\.id))
        checkInvariants(rows)
        for item in model {
            #expect(rows.index(id: item.id) == model.firstIndex(of: item))
        }
    }

    @Test("prints and mirrors as an array")
    func descriptions() {
        let rows: PrismRows<RowsItemValue> = [RowsItemValue(id: 1, value: 2)]
        #expect(rows.description == [RowsItemValue(id: 1, value: 2)].description)
        #expect(rows.customMirror.displayStyle == .collection)
        #expect(rows.customMirror.children.count == 1)
    }
}

// MARK: With a store

struct RowsListState: Equatable, Sendable {
    var rows: PrismRows<Row> = [Row(id: 1, title: "One"), Row(id: 2, title: "Two"), Row(id: 3, title: "Three")]
}

enum RowsListAction: Equatable, Sendable {
    case row(id: Int, action: RowAction)
    case remove(id: Int)

    var row: (id: Int, action: RowAction)? {
        if case .row(let id, let action) = self { (id, action) } else { nil }
    }
}

struct RowsListFeature: PrismFeature {
    let ticks: TickSource

    var body: some PrismReducer<RowsListState, RowsListAction> {
        PrismReduce<RowsListState, RowsListAction> { state, action in
            if case .remove(let id) = action { state.rows.remove(id: id) }
            return .none
        }
        .forEach(\.rows, action: RowsListAction.row, toElementAction: \.row) {
            RowFeature(ticks: ticks)
        }
    }
}

@MainActor
@Suite("PrismRows in a store: forEach and row stores")
struct PrismRowsStoreTests {
    @Test("an element's action changes that row; removing a row ends its effects only")
    func forEachOverRows() async {
        let ticks = TickSource()
        let store = PrismStore(initialState: RowsListState(), reducer: RowsListFeature(ticks: ticks))
        store.send(.row(id: 2, action: .toggle))
        #expect(store.state.rows.map(\.isDone) == [false, true, false])
        let first = store.send(.row(id: 1, action: .startTimer))
        let third = store.send(.row(id: 3, action: .startTimer))
        store.send(.remove(id: 1))
        #expect(await settle { first.isFinished })
        ticks.tick("row 3")
        #expect(await settle { store.state.rows[id: 3]?.ticks == 1 })
        #expect(!third.isFinished)
        store.send(.remove(id: 3))
        #expect(await settle { third.isFinished })
        #expect(Array(store.state.rows.ids) == [2])
    }

    @Test("a row store reads and sends to its row, and a scoped store of the rows hears only changes")
    func rowStores() throws {
        let store = PrismStore(initialState: RowsListState(), reducer: RowsListFeature(ticks: TickSource()))
        let row = try #require(store.scope(state: \.rows, id: 2, action: RowsListAction.row))
        row.send(.toggle)
        #expect(row.state.isDone)
        #expect(store.state.rows[id: 2]?.isDone == true)

        let rows = store.scope(state: \.rows, action: { (action: RowsListAction) in action })
        let changes = LockedBox(0)
        withObservationTracking {
            _ = rows.state.count
        } onChange: {
            changes.mutate { $0 += 1 }
        }
        store.send(.remove(id: 42))
        #expect(changes.wrappedValue == 0, "an action that changes no row")
        store.send(.row(id: 1, action: .toggle))
        #expect(changes.wrappedValue == 1)
    }

    final class Storage: Sendable {}

    struct BoxedRow: Equatable, Identifiable, Sendable {
        let id: Int
        var storage = Storage()
        var wasUniqueInReduce: Bool?

        static func == (lhs: BoxedRow, rhs: BoxedRow) -> Bool {
            lhs.id == rhs.id && lhs.storage === rhs.storage && lhs.wasUniqueInReduce == rhs.wasUniqueInReduce
        }
    }

    struct BoxedRowFeature: PrismReducer {
        func reduce(into state: inout BoxedRow, action: Void) -> PrismEffect<Void> {
            state.wasUniqueInReduce = isKnownUniquelyReferenced(&state.storage)
            return .none
        }
    }

    struct BoxedListState: Equatable, Sendable {
        var rows: PrismRows<BoxedRow> = [BoxedRow(id: 1), BoxedRow(id: 2)]
    }

    @Test("a row's action changes the row where it is stored: what the row holds is not copied")
    func rowActionsRunInPlace() {
        let store = PrismStore(
            initialState: BoxedListState(),
            reducer: PrismEmptyReducer<BoxedListState, Int>().forEach(
                \.rows, action: { id, _ in id }, toElementAction: { id in (id, ()) }
            ) {
                BoxedRowFeature()
            }
        )
        store.send(2)
        #expect(store.state.rows[id: 2]?.wasUniqueInReduce == true)
        #expect(store.state.rows[id: 1]?.wasUniqueInReduce == nil)
    }

    struct BoxedArrayState: Equatable, Sendable {
        var rows: IdentifiedArrayOf<BoxedRow> = [BoxedRow(id: 1), BoxedRow(id: 2)]
    }

    @Test("the same in an IdentifiedArray")
    func identifiedArrayRowActionsRunInPlace() {
        let store = PrismStore(
            initialState: BoxedArrayState(),
            reducer: PrismEmptyReducer<BoxedArrayState, Int>().forEach(
                \.rows, action: { id, _ in id }, toElementAction: { id in (id, ()) }
            ) {
                BoxedRowFeature()
            }
        )
        store.send(2)
        #expect(store.state.rows[id: 2]?.wasUniqueInReduce == true)
    }
}
