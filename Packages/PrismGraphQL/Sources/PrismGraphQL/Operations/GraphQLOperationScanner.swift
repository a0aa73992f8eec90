/// Finds the type of the operation a GraphQL document runs, without parsing it whole: the
/// client needs to know whether it sends a mutation (never cached, never retried as if
/// idempotent), and the server does the real parsing.
enum GraphQLOperationScanner {
    enum OperationType: Equatable {
        case query
        case mutation
        case subscription
    }

    /// The type of the operation called `name` in `document` (or of the first operation when
    /// `name` is nil); `.query` when it cannot tell, as for a shorthand `{ ... }` document.
    static func operationType(in document: String, named name: String?) -> OperationType {
        let operations = self.operations(in: document)
        if let name, let match = operations.first(where: { $0.name == name }) {
            return match.type
        }
        return operations.first?.type ?? .query
    }

    /// The operations defined at the top level of `document`, in order.
    static func operations(in document: String) -> [(type: OperationType, name: String?)] {
        var operations: [(type: OperationType, name: String?)] = []
        var depth = 0
        var pendingType: OperationType?
        var pendingName: String?
        var expectingName = false
        var inFragment = false
        var bytes = document.utf8[...]

        while let byte = bytes.first {
            switch byte {
            case UInt8(ascii: "#"):
                bytes = bytes.drop { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
            case UInt8(ascii: "\""):
                bytes = skipString(bytes)
                expectingName = false
            case UInt8(ascii: "{"):
                if depth == 0 {
                    if let type = pendingType {
                        operations.append((type, pendingName))
                    } else if !inFragment {
                        operations.append((.query, nil))
                    }
                    pendingType = nil
                    pendingName = nil
                    inFragment = false
                }
                expectingName = false
                depth += 1
                bytes = bytes.dropFirst()
            case UInt8(ascii: "("), UInt8(ascii: "["):
                expectingName = false
                depth += 1
                bytes = bytes.dropFirst()
            case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                depth = max(depth - 1, 0)
                bytes = bytes.dropFirst()
            case _ where isNameStart(byte):
                let word = bytes.prefix { isNameContinue($0) }
                bytes = bytes.dropFirst(word.count)
                guard depth == 0 else { continue }
                let text = String(decoding: word, as: UTF8.self)
                if expectingName {
                    pendingName = text
                    expectingName = false
                } else if pendingType == nil && !inFragment {
                    switch text {
                    case "query": (pendingType, expectingName) = (.query, true)
                    case "mutation": (pendingType, expectingName) = (.mutation, true)
                    case "subscription": (pendingType, expectingName) = (.subscription, true)
                    case "fragment": inFragment = true
                    default: break
                    }
                }
            default:
                // Punctuation (`$`, `@`, `:`, `!`, `=`...) ends the place where a name may follow.
                if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n")
                    && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: ",")
                {
                    expectingName = false
                }
                bytes = bytes.dropFirst()
            }
        }
        return operations
    }

    /// `bytes` after the string (or block string) it starts with.
    private static func skipString(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let quote = UInt8(ascii: "\"")
        if bytes.starts(with: [quote, quote, quote]) {
            var rest = bytes.dropFirst(3)
            while !rest.isEmpty {
                if rest.starts(with: [UInt8(ascii: "\\"), quote, quote, quote]) {
                    rest = rest.dropFirst(4)
                } else if rest.starts(with: [quote, quote, quote]) {
                    return rest.dropFirst(3)
                } else {
                    rest = rest.dropFirst()
                }
            }
            return rest
        }
        var rest = bytes.dropFirst()
        while let byte = rest.first {
            rest = rest.dropFirst()
            if byte == UInt8(ascii: "\\") {
                rest = rest.dropFirst()
            } else if byte == quote || byte == UInt8(ascii: "\n") {
                return rest
            }
        }
        return rest
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    private static func isNameContinue(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
