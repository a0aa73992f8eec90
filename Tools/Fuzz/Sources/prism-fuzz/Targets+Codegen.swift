import Foundation

@testable import PrismGraphQLCodegen

// The code generator writes a stranger's text into the app's module: the descriptions and
// deprecation reasons of a schema a third party serves, and the names of an introspection result.

extension FuzzTargets {
    static let graphQLCodegenText = FuzzTarget(
        name: "graphql-codegen-text",
        checks:
            "a schema's descriptions add only `///` lines to the generated Swift, whose code is the same without them; no CR, NEL, LS, PS, other control or bidirectional character is written anywhere; a deprecation reason's string literal reads back as the reason; an introspection name that is not a GraphQL name is refused"
    ) { data in
        var input = FuzzInput(data)
        let descriptions = (0..<5).map { _ in input.anyText(upTo: 100) }
        let reason = input.anyText(upTo: 60)
        let fieldName = input.anyText(upTo: 12)
        let typeName = input.anyText(upTo: 12)

        // Descriptions: with them and without, the same code; each of theirs only `///` lines.
        if let hostile = generatedSwift(descriptions: descriptions, reason: reason),
            let plain = generatedSwift(descriptions: nil, reason: reason)
        {
            fuzzExpect(codeLines(hostile) == codeLines(plain), "a description changed the generated code")
            let written = hostile.unicodeScalars.first { $0 != "\n" && $0 != "\t" && Naming.needsEscaping($0) }
            fuzzExpect(written == nil, "U+\(String(written?.value ?? 0, radix: 16)) was written as is")
        }

        // A string literal (a deprecation's message) reads back as the text, and is one line.
        let literal = Naming.stringLiteral(reason)
        fuzzExpect(unescapedLiteral(literal) == reason, "the literal \(literal) does not read back as the reason")

        // Names: accepted only when they are GraphQL names.
        let json = """
            {"data": {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [
                {"name": \(IntrospectionSDL.quoted(fieldName)), "args": [],
                 "type": {"kind": "OBJECT", "name": \(IntrospectionSDL.quoted(typeName))}}]},
              {"kind": "OBJECT", "name": \(IntrospectionSDL.quoted(typeName)), "fields": [
                {"name": "a", "args": [], "type": {"kind": "SCALAR", "name": "String"}}]}]}}}
            """
        if (try? PrismGraphQLCodegen.printSchema(CodegenInput(path: "schema.json", text: json))) != nil {
            fuzzExpect(isGraphQLName(fieldName) && isGraphQLName(typeName), "accepted \(typeName).\(fieldName)")
        }
    }

    /// The Swift generated for a small schema whose types, fields and enum values carry
    /// `descriptions` (none when nil), an enum value deprecated for `reason`, and one query.
    private static func generatedSwift(descriptions: [String]?, reason: String) -> String? {
        func described(_ index: Int) -> String {
            descriptions.map { graphQLString($0[index]) + " " } ?? ""
        }
        let schema = """
            \(described(0))type Query { \(described(1))item: Item }
            \(described(2))type Item { \(described(3))kind: Kind }
            enum Kind { \(described(4))ONE TWO @deprecated(reason: \(graphQLString(reason))) }
            """
        let output = try? PrismGraphQLCodegen.generate(
            schema: CodegenInput(path: "schema.graphqls", text: schema),
            operations: [CodegenInput(path: "Item.graphql", text: "query Item { item { kind } }")])
        return output.map { $0.schemaTypes + "\n" + ($0.files["Item.graphql"] ?? "") }
    }

    /// The lines of `swift` that are not documentation.
    private static func codeLines(_ swift: String) -> [Substring] {
        swift.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.drop { $0 == " " }.hasPrefix("///")
        }
    }

    /// `text` as a GraphQL string: printable ASCII as is, every other scalar as `\u` escapes
    /// (a pair of surrogates past the Basic Multilingual Plane).
    private static func graphQLString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\"", scalar != "\\" {
                result.unicodeScalars.append(scalar)
            } else {
                for unit in String(scalar).utf16 { result += "\\u" + hex4(unit) }
            }
        }
        return result + "\""
    }

    private static func hex4(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The text of a Swift string literal as `Naming.stringLiteral` writes them (`\"`, `\\`,
    /// `\n`, `\r`, `\t`, `\u{...}`), or nil when it holds anything else: a quote or a backslash
    /// unescaped, a line break, a character that should have been escaped.
    private static func unescapedLiteral(_ literal: String) -> String? {
        var scalars = Array(literal.unicodeScalars)
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return nil }
        scalars = Array(scalars.dropFirst().dropLast())
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\"" || Naming.needsEscaping(scalar) { return nil }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard index < scalars.count else { return nil }
            let next = scalars[index]
            index += 1
            switch next {
            case "\"", "\\": result.append(next)
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "u":
                guard index < scalars.count, scalars[index] == "{",
                    let close = scalars[index...].firstIndex(of: "}"),
                    let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 1)..<close])), radix: 16),
                    let decoded = Unicode.Scalar(value)
                else { return nil }
                result.append(decoded)
                index = close + 1
            default: return nil
            }
        }
        return String(result)
    }

    /// Whether `name` is a GraphQL name: `[_A-Za-z][_0-9A-Za-z]*`.
    private static func isGraphQLName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
