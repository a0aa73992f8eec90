@_spi(PrismInternals) import PrismStore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value as the page shows it: a tree built by reflection (like swift-custom-dump's), with
/// secrets (``PrismSecretValue``, `@PrismSecret`) redacted and big values cut to a budget.
package struct ValueNode: Encodable, Sendable, Equatable {
    /// The name under which its parent holds it: a property, `[3]`, a dictionary key.
    package var label: String?
    /// The type's name.
    package var type: String
    /// The value of a leaf (`3`, `"milk"`, `nil`, `‹redacted›`), or an enum's `.case`.
    package var value: String?
    /// The children of a struct, class, tuple, collection or enum payload; nil for a leaf.
    package var children: [ValueNode]?
    /// How many elements a collection has (its children may be fewer).
    package var count: Int?
    /// How many children were left out to stay within the budget.
    package var omitted: Int?
    /// Whether the value is secret and shown redacted.
    package var redacted: Bool?
    /// The kind of value: `struct`, `class`, `enum`, `tuple`, `collection`, `dictionary`, `set`,
    /// `optional`; nil for a leaf.
    package var kind: String?

    private enum CodingKeys: String, CodingKey {
        case label = "l"
        case type = "t"
        case value = "v"
        case children = "c"
        case count = "n"
        case omitted = "o"
        case redacted = "r"
        case kind = "k"
    }

    package static let redactedText = "‹redacted›"

    /// Whether `value` holds a secret (``PrismSecretValue``, `@PrismSecret`) anywhere, however
    /// large or deep: the whole value, not the part a tree draws within its budget. What decides
    /// whether a value may leave redaction (as JSON to send again, as an export marked without
    /// secrets). Walks with a stack of its own (no recursion to overflow), and visits each
    /// object once (no cycle to loop on).
    package static func containsSecret(_ value: Any) -> Bool {
        var pending: [Any] = [value]
        var visited: Set<ObjectIdentifier> = []
        while let next = pending.popLast() {
            if next is any PrismSecretValue { return true }
            let mirror = Mirror(reflecting: next)
            if mirror.displayStyle == .class, Swift.type(of: next) is AnyClass {
                let object = next as AnyObject
                guard visited.insert(ObjectIdentifier(object)).inserted else { continue }
            }
            var superclass = mirror.superclassMirror
            while let parent = superclass {
                for child in parent.children { pending.append(child.value) }
                superclass = parent.superclassMirror
            }
            for child in mirror.children { pending.append(child.value) }
        }
        return false
    }
}

extension ValueNode {
    /// Limits on how much of a value is turned into a tree.
    package struct Budget {
        package var nodes: Int
        package var childrenPerNode: Int
        package var depth: Int

        /// For the state tree of the page.
        package static var state: Budget { Budget(nodes: 20_000, childrenPerNode: 500, depth: 32) }
        /// For one line in the action list.
        package static var summary: Budget { Budget(nodes: 200, childrenPerNode: 20, depth: 8) }
    }

    /// The tree of `value`.
    package init(of value: Any, label: String? = nil, budget: Budget = .state) {
        var budget = budget
        var path: Set<ObjectIdentifier> = []
        self = Self.make(value, label: label, depth: 0, budget: &budget, path: &path)
    }

    private static func make(
        _ value: Any,
        label: String?,
        depth: Int,
        budget: inout Budget,
        path: inout Set<ObjectIdentifier>
    ) -> ValueNode {
        if let shared = value as? any PrismSharedTools.Inspectable {
            // `@PrismShared var settings` is stored as `_settings`: the property's name and its
            // value, marked shared. (Not its key: a state decoded from a recording holds the
            // same value, which a diff must not tell apart.)
            let shown = label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
            var node = make(shared.sharedValue, label: shown, depth: depth, budget: &budget, path: &path)
            node.type += " (shared)"
            return node
        }
        budget.nodes -= 1
        let type = typeName(of: value)
        if value is any PrismSecretValue {
            // The storage of `@PrismSecret var token` is `_token`.
            let shown = label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
            return ValueNode(label: shown, type: type, value: redactedText, redacted: true)
        }
        if let leaf = leafText(value) {
            return ValueNode(label: label, type: type, value: leaf)
        }
        let mirror = Mirror(reflecting: value)
        var node = ValueNode(label: label, type: type)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else {
                return ValueNode(label: label, type: type, value: "nil")
            }
            var inner = make(wrapped, label: label, depth: depth, budget: &budget, path: &path)
            inner.type = type
            return inner
        case .enum:
            node.kind = "enum"
            guard let payload = mirror.children.first else {
                node.value = "." + caseName(of: value)
                return node
            }
            node.value = "." + (payload.label ?? caseName(of: value))
            let fields = Mirror(reflecting: payload.value)
            if fields.displayStyle == .tuple {
                node.children = children(of: fields, depth: depth, budget: &budget, path: &path).nodes
            } else {
                node.children = [make(payload.value, label: nil, depth: depth + 1, budget: &budget, path: &path)]
            }
            return node
        case .class:
            node.kind = "class"
        case .collection: node.kind = "collection"
        case .dictionary: node.kind = "dictionary"
        case .set: node.kind = "set"
        case .tuple: node.kind = "tuple"
        default: node.kind = "struct"
        }
        if mirror.displayStyle == .collection || mirror.displayStyle == .dictionary || mirror.displayStyle == .set {
            node.count = Int(mirror.children.count)
        }
        guard depth < budget.depth, budget.nodes > 0 else {
            node.omitted = Int(mirror.children.count)
            node.children = []
            return node
        }
        if mirror.displayStyle == .class {
            // An object met again on the way down: a cycle.
            let object = ObjectIdentifier(value as AnyObject)
            guard path.insert(object).inserted else {
                node.value = "(cycle)"
                return node
            }
        }
        defer {
            if mirror.displayStyle == .class { path.remove(ObjectIdentifier(value as AnyObject)) }
        }
        let (nodes, omitted) = children(of: mirror, depth: depth, budget: &budget, path: &path)
        node.children = nodes
        if omitted > 0 { node.omitted = omitted }
        return node
    }

    private static func children(
        of mirror: Mirror,
        depth: Int,
        budget: inout Budget,
        path: inout Set<ObjectIdentifier>
    ) -> (nodes: [ValueNode], omitted: Int) {
        var nodes: [ValueNode] = []
        var omitted = 0
        var index = 0
        for child in mirror.children {
            defer { index += 1 }
            guard nodes.count < budget.childrenPerNode, budget.nodes > 0 else {
                omitted += 1
                continue
            }
            switch mirror.displayStyle {
            case .collection, .set:
                nodes.append(make(child.value, label: "[\(index)]", depth: depth + 1, budget: &budget, path: &path))
            case .dictionary:
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                guard pair.count == 2 else { continue }
                let key = ValueNode(of: pair[0], budget: .summary).oneLine(limit: 80)
                nodes.append(make(pair[1], label: "[\(key)]", depth: depth + 1, budget: &budget, path: &path))
            default:
                let label = child.label.map { $0.hasPrefix(".") ? "[\(index)]" : $0 } ?? "[\(index)]"
                nodes.append(make(child.value, label: label, depth: depth + 1, budget: &budget, path: &path))
            }
        }
        return (nodes, omitted)
    }

    /// The text of a value shown as a leaf, or nil when the value has parts to show.
    private static func leafText(_ value: Any) -> String? {
        switch value {
        case let string as String: quoted(string)
        case let string as Substring: quoted(String(string))
        case let character as Character: quoted(String(character))
        case let bool as Bool: bool ? "true" : "false"
        case let number as any BinaryInteger: "\(number)"
        case let number as any BinaryFloatingPoint: "\(number)"
        case let date as Date: "\(date)"
        case let url as URL: url.absoluteString
        case let uuid as UUID: uuid.uuidString
        case let data as Data: "\(data.count) bytes"
        case is Void: "()"
        default: nil
        }
    }

    private static func quoted(_ string: String) -> String {
        let limit = 500
        var escaped = ""
        for character in string.prefix(limit) {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default: escaped.append(character)
            }
        }
        return "\"" + escaped + (string.count > limit ? "…" : "") + "\""
    }

    private static func typeName(of value: Any) -> String {
        displayName(of: Swift.type(of: value))
    }

    /// The type's name without module names: `Swift.Array<App.Item>` is `Array<Item>`.
    package static func displayName(of type: Any.Type) -> String {
        var name = String(reflecting: type)
        // Private and local types: `Module.(unknown context at $1234).Name`.
        while let start = name.range(of: "(unknown context at "),
            let end = name[start.upperBound...].range(of: ").")
        {
            name.removeSubrange(start.lowerBound..<end.upperBound)
        }
        var result = ""
        var token = ""
        func flush() {
            if let dot = token.firstIndex(of: "."), token.first?.isLetter == true {
                result += token[token.index(after: dot)...]
            } else {
                result += token
            }
            token = ""
        }
        for character in name {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                token.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    private static func caseName(of value: Any) -> String {
        let described = "\(value)"
        return String(described.prefix { $0 != "(" })
    }
}

extension ValueNode {
    /// The value on one line, swift-custom-dump style (`Item(title: "milk", done: false)`),
    /// cut at `limit` characters.
    package func oneLine(limit: Int = 160) -> String {
        var text = ""
        write(to: &text, limit: limit)
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    private func write(to text: inout String, limit: Int) {
        guard text.count <= limit else { return }
        if let value, children == nil || kind == "enum" && (children ?? []).isEmpty {
            text += value
            return
        }
        let parts = children ?? []
        switch kind {
        case "enum":
            text += (value ?? "") + "("
        case "collection", "set":
            text += "["
        case "dictionary":
            text += "["
        case "tuple":
            text += "("
        default:
            text += type + "("
        }
        for (offset, child) in parts.enumerated() {
            if offset > 0 { text += ", " }
            if kind == "dictionary", let label = child.label {
                text += String(label.dropFirst().dropLast()) + ": "
            } else if kind != "collection", kind != "set", let label = child.label, !label.hasPrefix("[") {
                text += label + ": "
            }
            child.write(to: &text, limit: limit)
            if text.count > limit { return }
        }
        if let omitted, omitted > 0 { text += parts.isEmpty ? "…" : ", …" }
        if kind == "dictionary" && parts.isEmpty && (omitted ?? 0) == 0 { text += ":" }
        text += (kind == "collection" || kind == "set" || kind == "dictionary") ? "]" : ")"
    }

    /// An action's name for the list and its filter: the case, then the case of a nested
    /// action (`rows.element.toggle`), or the type's name for an action that is not an enum.
    package var actionName: String {
        guard kind == "enum", let value else { return type }
        let name = String(value.dropFirst())
        if let nested = children?.first(where: { $0.kind == "enum" }) {
            return name + "." + nested.actionName
        }
        return name
    }
}
