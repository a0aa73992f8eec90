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
            for index in 0..<max(oldChildren.count, newChildren.count) {
                let childPath = path + "[\(index)]"
                switch (index < oldChildren.count, index < newChildren.count) {
                case (true, true):
                    diff(oldChildren[index], newChildren[index], path: childPath, into: &lines, limit: limit)
                case (true, false):
                    lines.append(DiffLine(path: childPath, old: oldChildren[index].oneLine(), new: nil))
                case (false, true):
                    lines.append(DiffLine(path: childPath, old: nil, new: newChildren[index].oneLine()))
                case (false, false):
                    break
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

    private static func join(_ path: String, _ label: String) -> String {
        if label.hasPrefix("[") || path.isEmpty { return path + label }
        return path + "." + label
    }
}
