import Foundation
import PrismSupport

/// What the client works out from an operation's text, kept per text: an app sends the same few
/// documents over and over, and scanning one for its operation type or escaping it as a JSON
/// string took a tenth of a query's client-side time.
///
/// At most 256 texts of each kind are kept; past that the memo starts again (an app with more
/// documents than that pays the work again, as it did before).
///
/// The last few texts asked for are looked up first, by comparison: a document an app keeps in a
/// constant is the same string every time, which `==` tells by its storage, where the
/// dictionaries hash the whole text (three hashes of the document per query took about 4% of a
/// query's client-side time, measured with `--filter "graphql pipeline"`).
final class DocumentMemo: Sendable {
    static let shared = DocumentMemo()

    private struct OperationKey: Hashable {
        var document: String
        var name: String?
    }

    /// What is remembered, behind the memo's lock.
    private struct State {
        var types: [OperationKey: GraphQLOperationScanner.OperationType] = [:]
        var strings: [String: Data] = [:]
        var recentTypes = Recent<OperationKey, GraphQLOperationScanner.OperationType>()
        var recentStrings = Recent<String, Data>()
    }

    private let state = PrismLocked(State())

    /// ``GraphQLOperationScanner/operationType(in:named:)``, remembered.
    func operationType(in document: String, named name: String?) -> GraphQLOperationScanner.OperationType {
        let key = OperationKey(document: document, name: name)
        let found = state.withLock { state -> GraphQLOperationScanner.OperationType? in
            if let type = state.recentTypes[key] { return type }
            guard let type = state.types[key] else { return nil }
            state.recentTypes.remember(type, for: key)
            return type
        }
        if let found { return found }
        let type = GraphQLOperationScanner.operationType(in: document, named: name)
        state.withLock { state in
            if state.types.count >= 256 { state.types.removeAll(keepingCapacity: true) }
            state.types[key] = type
            state.recentTypes.remember(type, for: key)
        }
        return type
    }

    /// `text` as a JSON string (quotes included), as `encoder` writes it, remembered.
    func jsonString(_ text: String, encoder: JSONEncoder) throws -> Data {
        let found = state.withLock { state -> Data? in
            if let encoded = state.recentStrings[text] { return encoded }
            guard let encoded = state.strings[text] else { return nil }
            state.recentStrings.remember(encoded, for: text)
            return encoded
        }
        if let found { return found }
        let encoded = try encoder.encode(text)
        state.withLock { state in
            if state.strings.count >= 256 { state.strings.removeAll(keepingCapacity: true) }
            state.strings[text] = encoded
            state.recentStrings.remember(encoded, for: text)
        }
        return encoded
    }
}

/// The last four keys remembered and their values, found by `==` (no hashing); the oldest is
/// replaced first.
struct Recent<Key: Equatable, Value> {
    private var entries: [(key: Key, value: Value)] = []
    private var oldest = 0

    static var capacity: Int { 4 }

    /// The value remembered for `key`, if it is among the last four.
    subscript(key: Key) -> Value? {
        entries.first { $0.key == key }?.value
    }

    /// Remembers `value` for `key`, in place of the oldest entry when four are kept.
    mutating func remember(_ value: Value, for key: Key) {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else if entries.count < Self.capacity {
            entries.append((key, value))
        } else {
            entries[oldest] = (key, value)
            oldest = (oldest + 1) % Self.capacity
        }
    }
}
