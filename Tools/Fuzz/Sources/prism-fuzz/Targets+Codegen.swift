import Foundation

@testable import PrismGraphQLCodegen

// The code generator writes a stranger's text into the app's module: the descriptions and
// deprecation reasons of a schema a third party serves, and the names of an introspection result.
// Every description reaches the Swift through `Naming.docComment`, every deprecation reason through
// `Naming.deprecation` (a string literal), and an introspection result becomes SDL through
// `IntrospectionSDL`: those three are fuzzed here. (The whole generator is not: GraphQLSwift leaks
// the tokens and types of every schema it parses, as reference cycles, which LeakSanitizer
// reports. HostileSchemaTests has the compiler parse what the whole generator writes.)

extension FuzzTargets {
    static let graphQLCodegenText = FuzzTarget(
        name: "graphql-codegen-text",
        checks:
            "a description becomes `///` lines only, one per line of its text, with no CR, NEL, LS, PS, other control or bidirectional character; a deprecation is one line whose string literal reads back as the reason; an introspection name that is not a GraphQL name is refused"
    ) { data in
        var input = FuzzInput(data)
        let text = input.anyText(upTo: 200)
        let reason = input.anyText(upTo: 60)
        let fieldName = input.anyText(upTo: 12)
        let typeName = input.anyText(upTo: 12)

        // A description: comment lines at the indent, nothing that ends one or reads differently.
        let lines = Naming.docComment(text, indent: "    ")
        for line in lines {
            // Compared scalar by scalar, as the compiler reads: a description that starts with a
            // combining mark makes one character of it and the space before.
            let scalars = line.unicodeScalars
            fuzzExpect(
                line == "    ///" || scalars.starts(with: "    /// ".unicodeScalars),
                "a description wrote \(line.debugDescription)")
            let written = line.unicodeScalars.first { $0 != "\t" && Naming.needsEscaping($0) }
            fuzzExpect(written == nil, "U+\(String(written?.value ?? 0, radix: 16)) was written as is")
        }
        if !lines.isEmpty {
            fuzzExpect(lines.count == lineCount(text), "\(lines.count) lines for \(lineCount(text)) of text")
        }

        // A deprecation: one line, whose message reads back as the reason.
        let attribute = Naming.deprecation(reason, indent: "")
        fuzzExpect(attribute.count == 1 && !attribute[0].contains("\n"), "the deprecation is not one line")
        let literal = Naming.stringLiteral(reason)
        fuzzExpect(unescapedLiteral(literal) == reason, "the literal \(literal) does not read back as the reason")
        if !reason.isEmpty {
            fuzzExpect(attribute[0] == "@available(*, deprecated, message: \(literal))", "\(attribute[0])")
        }

        // Names: accepted only when they are GraphQL names.
        let json = """
            {"data": {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [
                {"name": \(IntrospectionSDL.quoted(fieldName)), "args": [],
                 "type": {"kind": "OBJECT", "name": \(IntrospectionSDL.quoted(typeName))}}]},
              {"kind": "OBJECT", "name": \(IntrospectionSDL.quoted(typeName)), "fields": [
                {"name": "a", "args": [], "type": {"kind": "SCALAR", "name": "String"}}]}]}}}
            """
        if (try? IntrospectionSDL.sdl(fromJSON: Data(json.utf8))) != nil {
            fuzzExpect(isGraphQLName(fieldName) && isGraphQLName(typeName), "accepted \(typeName).\(fieldName)")
        }
    }

    /// How many lines `text` has: one more than its line terminators (LF, CR, CRLF, NEL, LS, PS;
    /// CRLF counts once).
    private static func lineCount(_ text: String) -> Int {
        var count = 1
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\n" where afterCR: continue
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": count += 1
            default: continue
            }
        }
        return count
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
