import Foundation
import PrismSupport

/// What the client works out from an operation's text, kept per text: an app sends the same few
/// documents over and over, and scanning one for its operation type or escaping it as a JSON
/// string took a tenth of a query's client-side time.
///
/// At most 256 texts of each kind are kept; past that the memo starts again (an app with more
/// documents than that pays the work again, as it did before).
final class DocumentMemo: @unchecked Sendable {
    static let shared = DocumentMemo()

    private struct OperationKey: Hashable {
        var document: String
        var name: String?
    }

    private let lock = PrismLocked<Void>()
    private var types: [OperationKey: GraphQLOperationScanner.OperationType] = [:]  // guarded by lock
    private var strings: [String: Data] = [:]  // guarded by lock

    /// ``GraphQLOperationScanner/operationType(in:named:)``, remembered.
    func operationType(in document: String, named name: String?) -> GraphQLOperationScanner.OperationType {
        let key = OperationKey(document: document, name: name)
        if let type = lock.withLock({ types[key] }) { return type }
        let type = GraphQLOperationScanner.operationType(in: document, named: name)
        lock.withLock {
            if types.count >= 256 { types.removeAll(keepingCapacity: true) }
            types[key] = type
        }
        return type
    }

    /// `text` as a JSON string (quotes included), as `encoder` writes it, remembered.
    func jsonString(_ text: String, encoder: JSONEncoder) throws -> Data {
        if let encoded = lock.withLock({ strings[text] }) { return encoded }
        let encoded = try encoder.encode(text)
        lock.withLock {
            if strings.count >= 256 { strings.removeAll(keepingCapacity: true) }
            strings[text] = encoded
        }
        return encoded
    }
}
