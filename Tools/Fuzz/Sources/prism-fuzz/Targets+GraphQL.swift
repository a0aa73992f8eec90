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
        var depth = 0
        var deepest = 0
        for byte in data {
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") { depth -= 1 }
            deepest = max(deepest, depth)
        }
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
