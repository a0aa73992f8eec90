import Foundation
import PrismSupport

/// What the client works out from an operation's text, kept per text: an app sends the same few
/// documents over and over, and scanning one for its operation type or escaping it as a JSON
/// string took a tenth of a query's client-side time.
///
/// At most 256 texts of each kind are kept; past that the memo starts again (an app with more
/// documents than that pays the work again, as it did before).
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
    }

    private let state = PrismLocked(State())

    /// ``GraphQLOperationScanner/operationType(in:named:)``, remembered.
    func operationType(in document: String, named name: String?) -> GraphQLOperationScanner.OperationType {
        let key = OperationKey(document: document, name: name)
        if let type = state.withLock({ $0.types[key] }) { return type }
        let type = GraphQLOperationScanner.operationType(in: document, named: name)
        state.withLock { state in
            if state.types.count >= 256 { state.types.removeAll(keepingCapacity: true) }
            state.types[key] = type
        }
        return type
    }

    /// `text` as a JSON string (quotes included), as `encoder` writes it, remembered.
    func jsonString(_ text: String, encoder: JSONEncoder) throws -> Data {
        if let encoded = state.withLock({ $0.strings[text] }) { return encoded }
        let encoded = try encoder.encode(text)
        state.withLock { state in
            if state.strings.count >= 256 { state.strings.removeAll(keepingCapacity: true) }
            state.strings[text] = encoded
        }
        return encoded
    }
}
