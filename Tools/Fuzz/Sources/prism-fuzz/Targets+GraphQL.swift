import Foundation
import GraphQL

@testable import PrismGraphQL

// PrismGraphQL reads two things strangers write: the operations of a document (to know a
// mutation from a query without parsing the document whole) and the messages of a
// graphql-transport-ws server.

extension FuzzTargets {
    static let graphQLOperations = FuzzTarget(
        name: "graphql-operations",
        checks:
            "for any document GraphQLSwift's parser accepts as executable, the operations found (type and name) are the parser's, in order"
    ) { data in
        let document = String(decoding: data, as: UTF8.self)
        let found = GraphQLOperationScanner.operations(in: document)
        // The reference parser recurses per nesting level: keep it within its stack.
        let deepest = nestingDepth(data)
        // GraphQLSwift's lexer traps on a `\u` escape cut short (`"\ut}` at the end, found by
        // make fuzz): the reference is not asked about such documents.
        guard deepest <= 64, !hasShortUnicodeEscape(Array(data)),
            let parsed = try? GraphQL.parse(source: document, noLocation: true)
        else { return }
        var expected: [(type: GraphQLOperationScanner.OperationType, name: String?)] = []
        for definition in parsed.definitions {
            if let operation = definition as? OperationDefinition {
                let type: GraphQLOperationScanner.OperationType =
                    switch operation.operation {
                    case .query: .query
                    case .mutation: .mutation
                    case .subscription: .subscription
                    }
                expected.append((type, operation.name?.value))
            } else if !(definition is FragmentDefinition) {
                return  // A schema definition: not a document a client sends.
            }
        }
        fuzzExpect(
            found.count == expected.count
                && zip(found, expected).allSatisfy { $0.type == $1.type && $0.name == $1.name },
            "\(document.debugDescription): found \(found), the parser has \(expected)")
        for operation in expected where operation.name != nil {
            fuzzExpect(
                GraphQLOperationScanner.operationType(in: document, named: operation.name) == operation.type,
                "\(document.debugDescription): the type of \(operation.name!)")
        }
    }

    static let graphQLJSONValue = FuzzTarget(
        name: "graphql-json-value",
        checks:
            "any bytes are a JSON value or refused with a reason; JSONSerialization agrees on which, and on the value; a value written reads back the same"
    ) { data in
        let ours = try? PrismGraphQLValue(json: data)
        // The reference recurses per nesting level: only shallow documents are compared.
        if nestingDepth(data) <= 64,
            let reference = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let expected = jsonValue(reference)
        {
            // JSONSerialization takes a few texts RFC 8259 does not (and reads numbers its own
            // way): only the values of texts both read are compared.
            if let ours { fuzzExpect(ours.sameNumbers(as: expected), "\(data as NSData): \(ours) is not \(expected)") }
        }
        if let ours {
            let again = try? PrismGraphQLValue(json: Data(ours.jsonBytes))
            fuzzExpect(
                again == ours, "\(data as NSData): \(ours) written and read back is \(String(describing: again))")
        }
    }

    static let graphQLRecord = FuzzTarget(
        name: "graphql-record",
        checks:
            "any bytes are a record of the normalized cache's store or refused with a reason (a damaged store is set aside, never served); a record read back and written again reads back the same"
    ) { data in
        guard let stored = try? RecordCoding.decode(Array(data)) else { return }
        let again = try? RecordCoding.decode(RecordCoding.encode(stored))
        fuzzExpect(
            again == stored, "\(data as NSData): \(stored) written and read back is \(String(describing: again))")
    }

    static let graphQLDocument = FuzzTarget(
        name: "graphql-document",
        checks:
            "the normalized cache's document reader never traps; any executable document GraphQLSwift's parser accepts it reads too, with the same operations"
    ) { data in
        let text = String(decoding: data, as: UTF8.self)
        let ours = try? GraphQLDocumentParser.parse(text)
        let deepest = nestingDepth(data)
        guard deepest <= 64, !hasShortUnicodeEscape(Array(data)),
            let parsed = try? GraphQL.parse(source: text, noLocation: true)
        else { return }
        var operations = 0
        for definition in parsed.definitions {
            if definition is OperationDefinition {
                operations += 1
            } else if !(definition is FragmentDefinition) {
                return
            }
        }
        guard operations > 0 else { return }
        fuzzExpect(
            ours?.operations.count == operations,
            "\(text.debugDescription): read \(String(describing: ours?.operations.count)) operations of \(operations)")
    }

    static let graphQLTransportWS = FuzzTarget(
        name: "graphql-transport-ws",
        checks:
            "any text from the server is one inbound message or refused with a reason; messages written by the protocol's rules read as what they say"
    ) { data in
        let text = String(decoding: data, as: UTF8.self)
        switch GraphQLTransportWS.parse(text) {
        case .next(_, let message): fuzzExpect(message == Data(text.utf8), "a next message lost its bytes")
        case .invalid(let reason): fuzzExpect(!reason.isEmpty, "refused without a reason")
        default: break
        }
        var input = FuzzInput(data)
        let types = ["connection_ack", "ping", "pong", "next", "error", "complete", "subscribe", ""]
        let type = types[input.below(types.count)]
        let id = input.bool() ? input.anyText(upTo: 16) : nil
        var object: [String: Any] = ["type": type]
        if let id { object["id"] = id }
        switch input.below(3) {
        case 0: object["payload"] = ["data": ["n": input.below(100)]]
        case 1: object["payload"] = [["message": input.anyText(upTo: 20)]]
        default: break
        }
        guard let encoded = try? JSONSerialization.data(withJSONObject: object) else { return }
        let message = String(decoding: encoded, as: UTF8.self)
        let read = GraphQLTransportWS.parse(message)
        switch (type, id) {
        case ("connection_ack", _): fuzzExpect(read == .acknowledged, "\(message) read as \(read)")
        case ("ping", _): fuzzExpect(read == .ping, "\(message) read as \(read)")
        case ("pong", _): fuzzExpect(read == .pong, "\(message) read as \(read)")
        case ("next", let id?): fuzzExpect(read == .next(id: id, message: encoded), "\(message) read as \(read)")
        case ("complete", let id?): fuzzExpect(read == .complete(id: id), "\(message) read as \(read)")
        case ("error", let id?):
            guard case .error(let readID, _) = read else { return fuzzExpect(false, "\(message) read as \(read)") }
            fuzzExpect(readID == id, "\(message) read with id \(readID)")
        default:
            guard case .invalid = read else { return fuzzExpect(false, "\(message) read as \(read)") }
        }
        _ = GraphQLTransportWS.meaning(ofClose: input.bool() ? nil : Int(input.int64() % 70_000))
    }

    /// Whether `bytes` hold a `\u` not followed by four hexadecimal digits.
    private static func hasShortUnicodeEscape(_ bytes: [UInt8]) -> Bool {
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\\") {
            guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { continue }
            guard index + 5 < bytes.count else { return true }
            if !bytes[(index + 2)...(index + 5)].allSatisfy({
                ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66 || (0x30...0x39).contains($0)
            }) {
                return true
            }
        }
        return false
    }
}

/// A JSONSerialization value as a ``PrismGraphQLValue``; nil for one it cannot be.
private func jsonValue(_ object: Any) -> PrismGraphQLValue? {
    switch object {
    case is NSNull: return .null
    case let number as NSNumber:
        // Booleans too: corelibs-foundation's NSNumber does not say which it holds.
        return .double(number.doubleValue)
    case let string as String: return .string(string)
    case let array as [Any]:
        var items: [PrismGraphQLValue] = []
        for item in array {
            guard let value = jsonValue(item) else { return nil }
            items.append(value)
        }
        return .array(items)
    case let dictionary as [String: Any]:
        var members: [String: PrismGraphQLValue] = [:]
        for (name, item) in dictionary {
            guard let value = jsonValue(item) else { return nil }
            members[name] = value
        }
        return .object(members)
    default: return nil
    }
}

extension PrismGraphQLValue {
    /// Equal, numbers compared as doubles (the reference reads every number as one).
    fileprivate func sameNumbers(as other: PrismGraphQLValue) -> Bool {
        switch (self, other) {
        case (.int(let number), .double(let reference)): return Double(number).isClose(to: reference)
        case (.bool(let flag), .double(let reference)): return (flag ? 1 : 0) == reference
        // corelibs-foundation reads a long integer some units off in the last places (found by
        // make fuzz: 78 digits); Swift's own reading is the correctly rounded one.
        case (.double(let number), .double(let reference)): return number.isClose(to: reference)
        case (.array(let items), .array(let references)):
            return items.count == references.count && zip(items, references).allSatisfy { $0.sameNumbers(as: $1) }
        case (.object(let members), .object(let references)):
            return members.count == references.count
                && members.allSatisfy { name, value in references[name].map { value.sameNumbers(as: $0) } ?? false }
        default: return self == other
        }
    }
}

extension Double {
    /// Equal, or within a millionth of a millionth of each other.
    fileprivate func isClose(to other: Double) -> Bool {
        self == other || abs(self - other) <= Swift.max(abs(self), abs(other)) * 1e-12
    }
}

/// How deep brackets, braces and parentheses nest in `data` (counted as bytes, strings and all):
/// the references recurse per level, and are asked only about shallow inputs.
private func nestingDepth(_ data: Data) -> Int {
    var depth = 0
    var deepest = 0
    for byte in data {
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") { depth += 1 }
        if byte == UInt8(ascii: "}") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") { depth -= 1 }
        deepest = max(deepest, depth)
    }
    return deepest
}
