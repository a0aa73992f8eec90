/// What an action changed: the paths whose values differ between the state before and after
/// it, each with its old and new value on one line (swift-custom-dump's `-`/`+` lines, one per
/// change).
package struct DiffLine: Encodable, Sendable, Equatable {
    /// Where in the state: `count`, `items[2].title`, `settings`.
    package var path: String
    /// The value before; nil when the value was added.
    package var old: String?
    /// The value after; nil when the value was removed.
    package var new: String?
}

extension ValueNode {
    /// The changes from `self` (the state before) to `other` (the state after), at most
    /// `limit` of them.
    package func diff(to other: ValueNode, limit: Int = 500) -> [DiffLine] {
        var lines: [DiffLine] = []
        ValueNode.diff(self, other, path: "", into: &lines, limit: limit)
        return lines
    }

    private static func diff(_ old: ValueNode, _ new: ValueNode, path: String, into lines: inout [DiffLine], limit: Int)
    {
        guard lines.count < limit, old != new else { return }
        let comparable =
            old.type == new.type && old.kind == new.kind && old.children != nil && new.children != nil
            && (old.kind != "enum" || old.value == new.value) && old.redacted == nil && new.redacted == nil
        guard comparable, let oldChildren = old.children, let newChildren = new.children else {
            lines.append(DiffLine(path: path.isEmpty ? "(state)" : path, old: old.oneLine(), new: new.oneLine()))
            return
        }
        if old.kind == "collection" || old.kind == "set" {
            // Elements by identity, not by index: an insert at the front is one added line, not
            // a change of every element after it.
            for step in align(oldChildren, newChildren) {
                switch step {
                case .same(let oldIndex, let newIndex):
                    // Compared as values: an element's label is its index, which an insert before
                    // it changes.
                    var before = oldChildren[oldIndex]
                    var after = newChildren[newIndex]
                    before.label = nil
                    after.label = nil
                    diff(before, after, path: path + "[\(newIndex)]", into: &lines, limit: limit)
                case .removed(let oldIndex):
                    lines.append(DiffLine(path: path + "[\(oldIndex)]", old: oldChildren[oldIndex].oneLine(), new: nil))
                case .added(let newIndex):
                    lines.append(DiffLine(path: path + "[\(newIndex)]", old: nil, new: newChildren[newIndex].oneLine()))
                }
                if lines.count >= limit { return }
            }
            if old.count != new.count, oldChildren.count == newChildren.count, (old.omitted ?? 0) > 0 {
                lines.append(DiffLine(path: path + ".count", old: "\(old.count ?? 0)", new: "\(new.count ?? 0)"))
            }
            return
        }
        // Structs, classes, tuples, enum payloads and dictionaries: children by label.
        var newByLabel: [String: ValueNode] = [:]
        for (offset, child) in newChildren.enumerated() { newByLabel[child.label ?? "[\(offset)]"] = child }
        var seen: Set<String> = []
        for (offset, child) in oldChildren.enumerated() {
            let label = child.label ?? "[\(offset)]"
            seen.insert(label)
            let childPath = join(path, label)
            if let counterpart = newByLabel[label] {
                diff(child, counterpart, path: childPath, into: &lines, limit: limit)
            } else {
                lines.append(DiffLine(path: childPath, old: child.oneLine(), new: nil))
            }
            if lines.count >= limit { return }
        }
        for (offset, child) in newChildren.enumerated() where !seen.contains(child.label ?? "[\(offset)]") {
            lines.append(DiffLine(path: join(path, child.label ?? "[\(offset)]"), old: nil, new: child.oneLine()))
            if lines.count >= limit { return }
        }
    }

    /// One step from the old elements to the new: an element in both (diffed, perhaps equal),
    /// one removed, one added.
    enum AlignmentStep: Equatable {
        case same(old: Int, new: Int)
        case removed(old: Int)
        case added(new: Int)
    }

    /// What an element is, for telling it apart from the others: its `id` when it has one (an
    /// `Identifiable` element, an `IdentifiedArray`'s, a `PrismRows` row), else its whole value.
    private static func identity(of node: ValueNode) -> String {
        if let id = node.children?.first(where: { $0.label == "id" }) {
            return "id " + id.oneLine(limit: 200)
        }
        return "value " + node.oneLine(limit: 2_000)
    }

    /// The steps from `old` to `new`: the longest run of elements both keep in the same order
    /// (by ``identity(of:)``) is kept; between two kept elements, removed and added elements
    /// without ids are paired up as changed (`[1]: 2 -> 5`), and those with ids, being other
    /// elements, stay removed and added. Past 250,000 comparisons (the inspector's budget keeps
    /// collections far smaller), elements are paired by index.
    static func align(_ old: [ValueNode], _ new: [ValueNode]) -> [AlignmentStep] {
        guard old.count * new.count <= 250_000 else {
            return (0..<max(old.count, new.count)).map { index in
                index >= old.count
                    ? .added(new: index) : index >= new.count ? .removed(old: index) : .same(old: index, new: index)
            }
        }
        let oldKeys = old.map(identity(of:))
        let newKeys = new.map(identity(of:))
        // lengths[i][j]: the longest common run of oldKeys[i...] and newKeys[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] =
                    oldKeys[i] == newKeys[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var steps: [AlignmentStep] = []
        var removed: [Int] = []
        var added: [Int] = []
        func flushGap() {
            let identified =
                removed.contains { oldKeys[$0].hasPrefix("id ") } || added.contains { newKeys[$0].hasPrefix("id ") }
            let paired = identified ? 0 : min(removed.count, added.count)
            for offset in 0..<paired { steps.append(.same(old: removed[offset], new: added[offset])) }
            steps += removed.dropFirst(paired).map { .removed(old: $0) }
            steps += added.dropFirst(paired).map { .added(new: $0) }
            removed = []
            added = []
        }
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, oldKeys[i] == newKeys[j] {
                flushGap()
                steps.append(.same(old: i, new: j))
                i += 1
                j += 1
            } else if j < new.count, i == old.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                added.append(j)
                j += 1
            } else {
                removed.append(i)
                i += 1
            }
        }
        flushGap()
        return steps
    }

    private static func join(_ path: String, _ label: String) -> String {
        if label.hasPrefix("[") || path.isEmpty { return path + label }
        return path + "." + label
    }
}
