import Foundation
import PrismStore
import Testing

@testable import PrismInspectorModel

private struct Row: Equatable, Sendable {
    var id: Int
    var title: String
    var tags: Set<String> = []
}

private enum RowAction: Sendable {
    case toggle
    case rename(String)
}

private enum ListAction: Sendable {
    case rows(RowsAction)
    case reload
}

private enum RowsAction: Sendable {
    case element(id: Int, action: RowAction)
}

private struct Login {
    var user = "ada"
    @PrismSecret var password = "hunter2"
}

private struct Preferences: Equatable, Sendable {
    var theme = "dark"
}

private struct WithShared {
    var title = "home"
    @PrismShared var preferences: Preferences
    @PrismShared var visits: Int

    init() {
        _preferences = PrismShared(wrappedValue: Preferences(), .inMemory("preferences"))
        _visits = PrismShared(wrappedValue: 3, .inMemory("visits"))
    }
}

private final class Node {
    var next: Node?
}

@Suite("How the page shows values")
struct ValueNodeTests {
    @Test("a struct is a tree of its properties, with type names free of module names")
    func structTree() throws {
        let node = ValueNode(of: Row(id: 1, title: "milk"))
        #expect(node.type == "Row")
        #expect(node.children?.map(\.label) == ["id", "title", "tags"])
        #expect(node.children?.map(\.value) == ["1", #""milk""#, nil])
        #expect(node.children?.last?.type == "Set<String>")
        #expect(node.oneLine() == #"Row(id: 1, title: "milk", tags: [])"#)
    }

    @Test("optionals, enums with payloads, dictionaries and arrays read like Swift")
    func shapes() {
        #expect(ValueNode(of: Optional<Int>.none as Any).oneLine() == "nil")
        #expect(ValueNode(of: Optional(3) as Any).oneLine() == "3")
        #expect(ValueNode(of: RowAction.rename("x")).oneLine() == #".rename("x")"#)
        #expect(ValueNode(of: RowAction.toggle).oneLine() == ".toggle")
        #expect(ValueNode(of: ["a": 1]).oneLine() == #"["a": 1]"#)
        #expect(ValueNode(of: [1, 2, 3]).oneLine() == "[1, 2, 3]")
        #expect(
            ValueNode(of: ListAction.rows(.element(id: 7, action: .toggle))).oneLine()
                == ".rows(.element(id: 7, action: .toggle))")
    }

    @Test("an action's name follows nested actions, for the filter")
    func actionNames() {
        #expect(ValueNode(of: ListAction.rows(.element(id: 7, action: .toggle))).actionName == "rows.element.toggle")
        #expect(ValueNode(of: ListAction.reload).actionName == "reload")
        #expect(ValueNode(of: RowAction.rename("x")).actionName == "rename")
        #expect(ValueNode(of: Row(id: 1, title: "")).actionName == "Row")
    }

    @Test("the diff lists each changed path with its old and new value, additions and removals")
    func diff() {
        let before = ValueNode(of: [Row(id: 1, title: "milk"), Row(id: 2, title: "eggs")])
        let after = ValueNode(of: [Row(id: 1, title: "oat milk")])
        #expect(
            before.diff(to: after) == [
                DiffLine(path: "[0].title", old: #""milk""#, new: #""oat milk""#),
                DiffLine(path: "[1]", old: #"Row(id: 2, title: "eggs", tags: [])"#, new: nil),
            ])
        #expect(before.diff(to: before).isEmpty)
        #expect(
            ValueNode(of: RowAction.toggle).diff(to: ValueNode(of: RowAction.rename("a")))
                == [DiffLine(path: "(state)", old: ".toggle", new: #".rename("a")"#)])
    }

    @Test("a shared value shows under its property's name, as its value, marked shared")
    func sharedValues() throws {
        let node = ValueNode(of: WithShared())
        let children = try #require(node.children)
        #expect(children.map(\.label) == ["title", "preferences", "visits"])
        let preferences = children[1]
        #expect(preferences.type == "Preferences (shared)")
        #expect(preferences.children?.map(\.label) == ["theme"])
        #expect(children[2].value == "3")
        #expect(children[2].type == "Int (shared)")
    }

    @Test("a collection's diff follows its elements: an insert at the front is one line, not a change of each")
    func collectionDiffFollowsElements() {
        let rows = [Row(id: 1, title: "milk"), Row(id: 2, title: "eggs"), Row(id: 3, title: "tea")]
        let inserted = [Row(id: 9, title: "bread")] + rows
        #expect(
            ValueNode(of: rows).diff(to: ValueNode(of: inserted)) == [
                DiffLine(path: "[0]", old: nil, new: #"Row(id: 9, title: "bread", tags: [])"#)
            ])
        // Moved to the front and renamed: an element is followed by its id.
        let moved = [Row(id: 3, title: "green tea"), Row(id: 1, title: "milk"), Row(id: 2, title: "eggs")]
        #expect(
            ValueNode(of: rows).diff(to: ValueNode(of: moved)) == [
                DiffLine(path: "[0]", old: nil, new: #"Row(id: 3, title: "green tea", tags: [])"#),
                DiffLine(path: "[2]", old: #"Row(id: 3, title: "tea", tags: [])"#, new: nil),
            ])
        // Another element in the same place is a removal and an addition, not a change.
        let replaced = [Row(id: 1, title: "milk"), Row(id: 7, title: "eggs"), Row(id: 3, title: "tea")]
        #expect(
            ValueNode(of: rows).diff(to: ValueNode(of: replaced)) == [
                DiffLine(path: "[1]", old: #"Row(id: 2, title: "eggs", tags: [])"#, new: nil),
                DiffLine(path: "[1]", old: nil, new: #"Row(id: 7, title: "eggs", tags: [])"#),
            ])
        // Values without ids: an insert is one line, a changed value is a change.
        #expect(
            ValueNode(of: [1, 2, 3]).diff(to: ValueNode(of: [0, 1, 2, 3])) == [
                DiffLine(path: "[0]", old: nil, new: "0")
            ])
        #expect(
            ValueNode(of: [1, 2, 3]).diff(to: ValueNode(of: [1, 5, 3])) == [DiffLine(path: "[1]", old: "2", new: "5")])
    }

    @Test("big values are cut to a budget and say how much they left out")
    func budget() {
        let node = ValueNode(of: Array(0..<10_000))
        #expect(node.count == 10_000)
        #expect(node.children?.count == 500)
        #expect(node.omitted == 9_500)
        #expect(ValueNode(of: Array(0..<10_000)).oneLine(limit: 20).count == 20)
    }

    @Test("a cycle of objects ends instead of recursing forever")
    func cycles() {
        let node = Node()
        node.next = node
        let tree = ValueNode(of: node)
        #expect(tree.children?.first?.value == "(cycle)")
        node.next = nil  // the test's own cycle, which make test-leaks would report
    }

    @Test("secrets are redacted wherever they are, and named by their property")
    func secrets() {
        let node = ValueNode(of: Login())
        #expect(node.children?.map(\.label) == ["user", "password"])
        #expect(node.children?.last?.value == "‹redacted›")
        #expect(node.oneLine() == #"Login(user: "ada", password: ‹redacted›)"#)
        #expect(ValueNode.containsSecret(Login()))
        #expect(!ValueNode.containsSecret(["ada", "grace"]))
    }

    final class Link {
        var next: Link?
        var secret: PrismSecret<String>?
    }

    @Test("a secret is found at any depth and past any budget, through cycles, without recursion")
    func secretsAnywhere() {
        let cycle = Link()
        cycle.next = cycle
        #expect(!ValueNode.containsSecret(cycle))
        cycle.secret = PrismSecret(wrappedValue: "in-a-cycle")
        #expect(ValueNode.containsSecret(cycle))

        // 100,000 objects deep: a recursive walk would overflow the stack.
        let deepest = Link()
        var head = deepest
        for _ in 0..<100_000 {
            let link = Link()
            link.next = head
            head = link
        }
        #expect(!ValueNode.containsSecret(head))
        deepest.secret = PrismSecret(wrappedValue: "deep")
        #expect(ValueNode.containsSecret(head))
        // Taken apart one by one: releasing the head would release 100,000 objects recursively.
        while let next = head.next {
            head.next = nil
            head = next
        }
        cycle.next = nil
    }
}

private enum NoteAlert: Sendable {
    case confirmDelete(Int)
}

private struct Screen: Sendable {
    var note: String
}

private struct Presenting: Sendable {
    var alert: PrismAlertState<NoteAlert>?
    var path = PrismStackState<Screen>()
}

@Suite("How the page shows what a store presents")
struct PresentedValueTests {
    @Test("an alert shows its title, message and buttons with their actions; a stack its screens by id")
    func alertAndStack() throws {
        var state = Presenting()
        state.alert = PrismAlertState(
            title: "Delete?", message: "It cannot be undone.",
            buttons: [.init("Delete", role: .destructive, action: .confirmDelete(3)), .cancel()])
        state.path.append(Screen(note: "milk"))
        state.path.append(Screen(note: "bank"))
        state.path.popLast()
        state.path.append(Screen(note: "plants"))
        let node = ValueNode(of: state)
        let alert = try #require(node.children?.first)
        #expect(alert.oneLine().contains(#"title: "Delete?", message: "It cannot be undone.""#))
        let buttons = try #require(alert.children?.last?.children)
        #expect(buttons.map { $0.oneLine() }.joined(separator: " ").contains("confirmDelete(3)"))
        #expect(buttons.first?.oneLine().contains(#"label: "Delete", role: .destructive"#) == true)
        let path = try #require(node.children?.last)
        #expect(path.children?.map(\.label) == ["#1", "#3"])
        #expect(path.children?.map { $0.oneLine() } == [#"Screen(note: "milk")"#, #"Screen(note: "plants")"#])
    }
}
