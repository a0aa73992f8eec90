/// Reads an executable GraphQL document (the GraphQL specification's grammar, section 2) into a
/// ``GraphQLDocument``: a recursive descent over its UTF-8 bytes, with the nesting bounded so
/// that no document can exhaust the stack.
struct GraphQLDocumentParser {
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    /// Deeper than this is refused (a selection, a value or a list within another).
    static let maximumDepth = 256

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Parses `text`.
    ///
    /// - Throws: ``GraphQLDocumentError`` saying where the document breaks the grammar.
    static func parse(_ text: String, requiringOperation: Bool = true) throws(GraphQLDocumentError) -> GraphQLDocument {
        var parser = GraphQLDocumentParser(text)
        return try parser.document(requiringOperation: requiringOperation)
    }

    private mutating func document(requiringOperation: Bool) throws(GraphQLDocumentError) -> GraphQLDocument {
        var operations: [GraphQLDocument.Operation] = []
        var fragments: [String: GraphQLDocument.Fragment] = [:]
        skipIgnored()
        while position < bytes.count {
            if peek(UInt8(ascii: "{")) {
                operations.append(.init(type: .query, name: nil, variableDefaults: [:], selections: try selectionSet()))
            } else {
                let word = try name()
                switch word {
                case "query", "mutation", "subscription":
                    operations.append(try operation(GraphQLDocument.OperationType(rawValue: word)!))
                case "fragment":
                    let fragment = try fragmentDefinition()
                    fragments[fragment.name] = fragment
                default:
                    throw error("Expected an operation or a fragment, found \"\(word)\"")
                }
            }
            skipIgnored()
        }
        if requiringOperation && operations.isEmpty { throw error("The document has no operation") }
        if operations.isEmpty && fragments.isEmpty { throw error("The document is empty") }
        return GraphQLDocument(operations: operations, fragments: fragments)
    }

    private mutating func operation(_ type: GraphQLDocument.OperationType) throws(GraphQLDocumentError)
        -> GraphQLDocument.Operation
    {
        skipIgnored()
        var name: String?
        if let byte = current, isNameStart(byte) { name = try self.name() }
        var defaults: [String: GraphQLInputValue] = [:]
        skipIgnored()
        if take(UInt8(ascii: "(")) {
            while !take(UInt8(ascii: ")")) {
                try expect(UInt8(ascii: "$"))
                let variable = try self.name()
                try expect(UInt8(ascii: ":"))
                try skipType()
                if take(UInt8(ascii: "=")) { defaults[variable] = try value(constant: true) }
                _ = try directives()
                if atEnd { throw error("Unterminated variable definitions") }
            }
        }
        _ = try directives()
        return .init(type: type, name: name, variableDefaults: defaults, selections: try selectionSet())
    }

    private mutating func fragmentDefinition() throws(GraphQLDocumentError) -> GraphQLDocument.Fragment {
        let name = try self.name()
        let on = try self.name()
        guard on == "on" else { throw error("Expected \"on\" after the fragment's name") }
        let type = try self.name()
        _ = try directives()
        return .init(name: name, typeCondition: type, selections: try selectionSet())
    }

    private mutating func selectionSet() throws(GraphQLDocumentError) -> [GraphQLDocument.Selection] {
        try expect(UInt8(ascii: "{"))
        try enter()
        defer { depth -= 1 }
        var selections: [GraphQLDocument.Selection] = []
        while !take(UInt8(ascii: "}")) {
            if atEnd { throw error("Unterminated selection set") }
            selections.append(try selection())
        }
        if selections.isEmpty { throw error("A selection set cannot be empty") }
        return selections
    }

    private mutating func selection() throws(GraphQLDocumentError) -> GraphQLDocument.Selection {
        skipIgnored()
        if take("...") {
            skipIgnored()
            if let byte = current, isNameStart(byte) {
                let word = try name()
                if word != "on" {
                    return .fragmentSpread(name: word, conditions: try directives())
                }
                let type = try name()
                return .inlineFragment(
                    typeCondition: type, conditions: try directives(), selections: try selectionSet())
            }
            return .inlineFragment(typeCondition: nil, conditions: try directives(), selections: try selectionSet())
        }
        var name = try self.name()
        var alias: String?
        if take(UInt8(ascii: ":")) {
            alias = name
            name = try self.name()
        }
        var arguments: [(name: String, value: GraphQLInputValue)] = []
        if take(UInt8(ascii: "(")) {
            while !take(UInt8(ascii: ")")) {
                if atEnd { throw error("Unterminated arguments") }
                let argument = try self.name()
                try expect(UInt8(ascii: ":"))
                arguments.append((argument, try value(constant: false)))
            }
        }
        let conditions = try directives()
        skipIgnored()
        let selections = peek(UInt8(ascii: "{")) ? try selectionSet() : nil
        return .field(
            .init(alias: alias, name: name, arguments: arguments, conditions: conditions, selections: selections))
    }

    /// The directives at this place; `@include` and `@skip` kept, the others read and dropped.
    private mutating func directives() throws(GraphQLDocumentError) -> [GraphQLDocument.Condition] {
        var conditions: [GraphQLDocument.Condition] = []
        while take(UInt8(ascii: "@")) {
            let name = try self.name()
            var ifValue: GraphQLInputValue?
            if take(UInt8(ascii: "(")) {
                while !take(UInt8(ascii: ")")) {
                    if atEnd { throw error("Unterminated directive arguments") }
                    let argument = try self.name()
                    try expect(UInt8(ascii: ":"))
                    let value = try value(constant: false)
                    if argument == "if" { ifValue = value }
                }
            }
            // Without `if` the server refuses the document (validation, not syntax): kept as read.
            if name == "include" || name == "skip", let ifValue {
                conditions.append(.init(include: name == "include", value: ifValue))
            }
        }
        return conditions
    }

    /// A type reference (`[Int!]!`): read and dropped.
    private mutating func skipType() throws(GraphQLDocumentError) {
        if take(UInt8(ascii: "[")) {
            try enter()
            defer { depth -= 1 }
            try skipType()
            try expect(UInt8(ascii: "]"))
        } else {
            _ = try name()
        }
        _ = take(UInt8(ascii: "!"))
    }

    private mutating func value(constant: Bool) throws(GraphQLDocumentError) -> GraphQLInputValue {
        skipIgnored()
        guard let byte = current else { throw error("Expected a value") }
        switch byte {
        case UInt8(ascii: "$"):
            if constant { throw error("A variable cannot be used here") }
            position += 1
            return .variable(try name())
        case UInt8(ascii: "["):
            position += 1
            try enter()
            defer { depth -= 1 }
            var items: [GraphQLInputValue] = []
            while !take(UInt8(ascii: "]")) {
                if atEnd { throw error("Unterminated list") }
                items.append(try value(constant: constant))
            }
            return .list(items)
        case UInt8(ascii: "{"):
            position += 1
            try enter()
            defer { depth -= 1 }
            var members: [(String, GraphQLInputValue)] = []
            while !take(UInt8(ascii: "}")) {
                if atEnd { throw error("Unterminated object") }
                let name = try self.name()
                try expect(UInt8(ascii: ":"))
                members.append((name, try value(constant: constant)))
            }
            return .object(members)
        case UInt8(ascii: "\""):
            return .literal(.string(try string()))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .literal(try number())
        default:
            let word = try name()
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default: return .enumValue(word)
            }
        }
    }

    private mutating func number() throws(GraphQLDocumentError) -> PrismGraphQLValue {
        let start = position
        var isFloat = false
        if current == UInt8(ascii: "-") { position += 1 }
        while let byte = current {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): position += 1
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"):
                isFloat = true
                position += 1
            case UInt8(ascii: "-") where isFloat: position += 1
            default:
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                return try numberValue(text, isFloat: isFloat)
            }
        }
        return try numberValue(String(decoding: bytes[start..<position], as: UTF8.self), isFloat: isFloat)
    }

    private func numberValue(_ text: String, isFloat: Bool) throws(GraphQLDocumentError) -> PrismGraphQLValue {
        if !isFloat, let integer = Int(text) { return .int(integer) }
        if let double = Double(text), double.isFinite { return .double(double) }
        throw error("\"\(text)\" is not a number")
    }

    /// A string or a block string, its escapes decoded.
    private mutating func string() throws(GraphQLDocumentError) -> String {
        if take("\"\"\"") {
            var raw: [UInt8] = []
            while !take("\"\"\"") {
                guard let byte = current else { throw error("Unterminated block string") }
                if byte == UInt8(ascii: "\\"), matches("\\\"\"\"") {
                    raw += Array("\"\"\"".utf8)
                    position += 4
                    continue
                }
                raw.append(byte)
                position += 1
            }
            return Self.blockStringValue(String(decoding: raw, as: UTF8.self))
        }
        position += 1
        var scalars = String.UnicodeScalarView()
        var pending: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
            pending.removeAll()
        }
        while true {
            guard let byte = current, byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") else {
                throw error("Unterminated string")
            }
            position += 1
            if byte == UInt8(ascii: "\"") { break }
            guard byte == UInt8(ascii: "\\") else {
                pending.append(byte)
                continue
            }
            flush()
            guard let escaped = current else { throw error("Unterminated string") }
            position += 1
            switch escaped {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                scalars.append(try unicodeEscape())
            default:
                throw error("Invalid escape in a string")
            }
        }
        flush()
        return String(scalars)
    }

    /// The scalar of `\uXXXX` (a surrogate pair in two escapes) or `\u{...}`.
    private mutating func unicodeEscape() throws(GraphQLDocumentError) -> Unicode.Scalar {
        func hex(_ count: Int?) throws(GraphQLDocumentError) -> UInt32 {
            var value: UInt32 = 0
            var digits = 0
            while let byte = current, count.map({ digits < $0 }) ?? (byte != UInt8(ascii: "}")) {
                guard let digit = Self.hexDigit(byte), digits < 8 else { throw error("Invalid unicode escape") }
                value = value << 4 | digit
                digits += 1
                position += 1
            }
            if digits == 0 || count.map({ digits != $0 }) == true { throw error("Invalid unicode escape") }
            return value
        }
        let code: UInt32
        if take(UInt8(ascii: "{")) {
            code = try hex(nil)
            try expect(UInt8(ascii: "}"))
        } else {
            let first = try hex(4)
            if (0xD800...0xDBFF).contains(first), take("\\u") {
                let second = try hex(4)
                guard (0xDC00...0xDFFF).contains(second) else { throw error("Invalid surrogate pair") }
                code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            } else {
                code = first
            }
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("Invalid unicode escape") }
        return scalar
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A block string's value: common indentation and blank first and last lines removed
    /// (the specification's BlockStringValue).
    static func blockStringValue(_ raw: String) -> String {
        var lines = raw.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let indents = lines.dropFirst().compactMap { line -> Int? in
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            return indent < line.count ? indent : nil
        }
        if let common = indents.min() {
            for index in lines.indices.dropFirst() { lines[index] = String(lines[index].dropFirst(common)) }
        }
        func blank(_ line: String) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }
        while let first = lines.first, blank(first) { lines.removeFirst() }
        while let last = lines.last, blank(last) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    // MARK: Tokens

    private mutating func name() throws(GraphQLDocumentError) -> String {
        skipIgnored()
        guard let byte = current, isNameStart(byte) else { throw error("Expected a name") }
        let start = position
        while let byte = current, isNameStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            position += 1
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        skipIgnored()
        return text
    }

    private func isNameStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// Skips white space, line ends, commas, a byte-order mark and comments.
    private mutating func skipIgnored() {
        while let byte = current {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","):
                position += 1
            case 0xEF where matches("\u{FEFF}"):
                position += 3
            case UInt8(ascii: "#"):
                while let byte = current, byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") { position += 1 }
            default:
                return
            }
        }
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }
    private var atEnd: Bool { position >= bytes.count }

    private mutating func peek(_ byte: UInt8) -> Bool {
        skipIgnored()
        return current == byte
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        skipIgnored()
        guard current == byte else { return false }
        position += 1
        skipIgnored()
        return true
    }

    private func matches(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return bytes.count - position >= utf8.count && Array(bytes[position..<position + utf8.count]) == utf8
    }

    private mutating func take(_ text: String) -> Bool {
        guard matches(text) else { return false }
        position += text.utf8.count
        return true
    }

    private mutating func expect(_ byte: UInt8) throws(GraphQLDocumentError) {
        guard take(byte) else {
            throw error("Expected \"\(Character(Unicode.Scalar(byte)))\"")
        }
    }

    private mutating func enter() throws(GraphQLDocumentError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("The document nests deeper than \(Self.maximumDepth) levels") }
    }

    private func error(_ message: String) -> GraphQLDocumentError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(position, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return GraphQLDocumentError(message: message, line: line, column: column)
    }
}
