/// The id of an element of a ``PrismStackState``: given when the element is pushed, never given
/// again in that stack, so that an action meant for a screen that was popped can never reach the
/// one pushed after it.
public struct PrismStackElementID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The id as a number: the order elements were pushed in.
    public let rawValue: Int

    /// The id `rawValue`.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Whether `lhs` was given before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#3`.
    public var description: String { "#\(rawValue)" }

    /// The id from its number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// The id as its number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A navigation stack of features, as state: the screens pushed over a root, bottom first, each
/// under an id of its own (``PrismStackElementID``).
///
/// ```swift
/// struct AppState {
///     var path = PrismStackState<Screen.State>()
/// }
/// state.path.append(.detail(DetailState(id: 7)))
/// state.path.popLast()
/// state.path.replace(with: [.list, .detail(DetailState(id: 7))])  // a deep link
/// ```
///
/// Its elements are read in order like an array's (`state.path.last`, `for screen in
/// state.path`), and by id (`state.path[id: id]`). Saved and restored with the rest of the state
/// (`Codable` when its elements are), ids included.
public struct PrismStackState<Element: Sendable>: Sendable {
    /// The ids, bottom first.
    public private(set) var ids: [PrismStackElementID]
    private var elements: [PrismStackElementID: Element]
    /// The id the next push gets.
    private var nextID: Int

    /// A stack of `elements`, bottom first.
    public init(_ elements: [Element] = []) {
        ids = []
        self.elements = [:]
        nextID = 1
        for element in elements { append(element) }
    }

    /// The element under `id`, if it is in the stack; setting nil pops it and everything above.
    public subscript(id id: PrismStackElementID) -> Element? {
        get { elements[id] }
        set {
            if let newValue {
                guard elements[id] != nil else { return }
                elements[id] = newValue
            } else {
                pop(from: id)
            }
        }
    }

    /// The id the next push gets: higher than every id this stack gave.
    public var nextElementID: PrismStackElementID { PrismStackElementID(rawValue: nextID) }

    /// Pushes `element` on top; returns its id.
    @discardableResult
    public mutating func append(_ element: Element) -> PrismStackElementID {
        let id = PrismStackElementID(rawValue: nextID)
        nextID += 1
        ids.append(id)
        elements[id] = element
        return id
    }

    /// Pushes `element` under `id`, given by SwiftUI's `NavigationStack` (a link's push): a no-op
    /// if `id` is taken or was given before.
    mutating func push(_ element: Element, id: PrismStackElementID) {
        guard elements[id] == nil, id.rawValue >= nextID else { return }
        nextID = id.rawValue + 1
        ids.append(id)
        elements[id] = element
    }

    /// Pops the top element, if any, and returns it.
    @discardableResult
    public mutating func popLast() -> Element? {
        guard let id = ids.popLast() else { return nil }
        return elements.removeValue(forKey: id)
    }

    /// Pops the top `count` elements (all of them if there are fewer).
    public mutating func removeLast(_ count: Int) {
        for _ in 0..<Swift.min(count, ids.count) { popLast() }
    }

    /// Pops `id` and every element above it.
    public mutating func pop(from id: PrismStackElementID) {
        guard let index = ids.firstIndex(of: id) else { return }
        for removed in ids[index...] { elements[removed] = nil }
        ids.removeSubrange(index...)
    }

    /// Pops every element above `id`, which stays on top.
    public mutating func pop(to id: PrismStackElementID) {
        guard let index = ids.firstIndex(of: id) else { return }
        let above = ids.index(after: index)
        for removed in ids[above...] { elements[removed] = nil }
        ids.removeSubrange(above...)
    }

    /// Pops every element: back to the root.
    public mutating func popToRoot() {
        ids.removeAll()
        elements.removeAll()
    }

    /// Replaces the whole stack with `elements` (a deep link): every element gets a new id, so
    /// that what the old ones' effects still send reaches none of them.
    public mutating func replace(with elements: [Element]) {
        popToRoot()
        for element in elements { append(element) }
    }
}

extension PrismStackState: RandomAccessCollection {
    /// The position of the bottom element.
    public var startIndex: Int { ids.startIndex }
    /// The position after the top element.
    public var endIndex: Int { ids.endIndex }

    /// The element at `position`, from the bottom.
    public subscript(position: Int) -> Element {
        // swift-format-ignore: NeverForceUnwrap
        elements[ids[position]]!
    }
}

extension PrismStackState: PrismIdentifiedCollection {
    /// The ids, bottom first.
    public var prismIDs: [PrismStackElementID] { ids }

    /// The ids in `before` that are no longer in the stack.
    public func prismIDs(removedSince before: [PrismStackElementID]) -> [PrismStackElementID] {
        before.filter { elements[$0] == nil }
    }

    /// The element under `id`; setting nil pops it and everything above.
    public subscript(prismID id: PrismStackElementID) -> Element? {
        get { self[id: id] }
        set { self[id: id] = newValue }
    }
}

extension PrismStackState: ExpressibleByArrayLiteral {
    /// A stack of `elements`, bottom first.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension PrismStackState: Equatable where Element: Equatable {
    /// Whether both hold the same elements under the same ids, in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.ids == rhs.ids && lhs.elements == rhs.elements
    }
}

extension PrismStackState: Hashable where Element: Hashable {
    /// Hashes the ids and the elements.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ids)
        for id in ids { hasher.combine(elements[id]) }
    }
}

extension PrismStackState: Codable where Element: Codable {
    private enum CodingKeys: String, CodingKey {
        case elements, nextID
    }

    private struct Entry: Codable {
        var id: PrismStackElementID
        var element: Element
    }

    /// A stack as ``encode(to:)`` wrote it; a stack that holds an id twice is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode([Entry].self, forKey: .elements)
        self.init()
        for entry in entries {
            guard elements[entry.id] == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .elements, in: container, debugDescription: "The id \(entry.id) is in the stack twice.")
            }
            ids.append(entry.id)
            elements[entry.id] = entry.element
        }
        let highest = (ids.map(\.rawValue).max() ?? 0) + 1
        nextID = Swift.max(highest, try container.decodeIfPresent(Int.self, forKey: .nextID) ?? highest)
    }

    /// The elements with their ids, bottom first, and the id the next push gets.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // swift-format-ignore: NeverForceUnwrap
        try container.encode(ids.map { Entry(id: $0, element: elements[$0]!) }, forKey: .elements)
        try container.encode(nextID, forKey: .nextID)
    }
}

extension PrismStackState: CustomReflectable {
    /// The elements, bottom first, each labelled by its id (`#3`): how the inspector and
    /// `dump` show a stack.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ids.compactMap { id in elements[id].map { (label: id.description, value: $0 as Any) } },
            displayStyle: .struct)
    }
}
