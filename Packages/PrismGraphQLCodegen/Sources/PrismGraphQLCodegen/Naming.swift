import Foundation

/// How GraphQL names become Swift names, in one place.
///
/// | GraphQL | Swift | Why |
/// | --- | --- | --- |
/// | a field's response key (`login`, `repos: repositories`) | the property, as spelled; a keyword in backticks | the JSON key is the property's name: synthesized `Decodable` needs no `CodingKeys` |
/// | a field with a selection set | a nested struct named after its response key, first letter uppercased | one type per selection, where it is used |
/// | an operation `GetUser` of kind query | `GetUserQuery` (`GetUserQuery` stays as is) | Apollo's convention, which users know |
/// | enum value `NEW_HOPE` | case `newHope` | Swift's case style; the raw value keeps the spelling |
/// | a field or variable named `self` or a keyword (`any`, `default`) | the label as spelled, the parameter `self_` (`any_`) inside an initializer | a parameter `self` would hide the instance; a keyword label needs no backticks |
/// | `String`, `Int`, `Float`, `Boolean`, `ID` | `Swift.String`, `Swift.Int`, `Swift.Double`, `Swift.Bool`, `Swift.String` | qualified: a nested struct may be named `String` |
/// | a nested name that would hide what generated code uses (`Swift`, `Data`, `Variables`, ...) | the name followed by `_` | |
/// | a schema type or a fragment named so (`Type`, `Self`, `Swift`, `Hashable`, ...) | the name followed by `_` | `Schema.Type` is a metatype; a type `Swift` or `Hashable` in the namespace hides the one generated code means; a fragment `Data` would hide Foundation's in the whole module |
/// | an enum value whose case would be a member generated code writes (`ALL_CASES`, `RAW_VALUE`, `UNKNOWN`) | the case followed by `_` | the catch-all is `unknown(String)` in every enum, `unknown` in every `On`: code that handles one handles all |
enum Naming {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "_", "Type", "Protocol", "some", "any",
    ]

    /// Names a generated type must not take: generated code refers to these, or Swift gives them
    /// a meaning of their own.
    static let reservedTypeNames: Set<String> = [
        "Swift", "Foundation", "PrismGraphQL", "Data", "Variables", "On", "CodingKeys", "Self", "Type", "Protocol",
        "Any", "Decoder", "Encoder", "Set", "Optional", "Array", "Encodable", "Decodable", "Codable", "Sendable",
        "Hashable", "Equatable", "CodingKey", "CaseIterable", "RawRepresentable", "PrismGraphQLEnum",
        "PrismGraphQLNullable", "PrismGraphQLUpload", "PrismGraphQLFragment", "PrismGraphQLOperation",
    ]

    /// Members of a generated enum that a case must not be named: the enum declares or inherits
    /// them.
    static let reservedCaseNames: Set<String> = [
        "allCases", "rawValue", "init", "deprecatedValue", "deprecatedValues", "lookUpDeprecatedValue",
        unknownCase,
    ]

    /// The case of every generated enum that holds a value the app does not know (a value the
    /// schema added later, a type a selection asks nothing more of): one name in every enum,
    /// whatever the schema's values are. A schema value spelled `UNKNOWN` becomes `unknown_`.
    static let unknownCase = "unknown"

    /// The Swift name of schema type `name` (in the namespace) or of fragment `name` (in the
    /// module): as spelled, unless it is reserved.
    static func schemaTypeName(_ name: String) -> String {
        reservedTypeNames.contains(name) ? name + "_" : name
    }

    /// `name` usable as a property or a case: in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The argument label of a parameter for field `name`: the name as spelled (a keyword needs
    /// no backticks there), but `inout`, `var` and `let`.
    static func label(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }

    /// The name a parameter for field `name` has inside its function: the name, or the name
    /// followed by `_` when it is a keyword (`self` would hide the instance being initialized;
    /// `any`, `default` are not names an expression can use as they are).
    static func parameterName(_ name: String) -> String {
        name == "self" || keywords.contains(name) ? name + "_" : name
    }

    /// A parameter for field `name`: its label, and its inner name when that differs.
    static func parameter(_ name: String) -> String {
        let inner = parameterName(name)
        return inner == name ? name : "\(label(name)) \(inner)"
    }

    /// The nested type of a selection under response key `key`.
    static func typeName(forKey key: String) -> String {
        var name = key
        while name.hasPrefix("_") { name.removeFirst() }
        if name.isEmpty { name = "Field" }
        name = name.prefix(1).uppercased() + name.dropFirst()
        return reservedTypeNames.contains(name) ? name + "_" : name
    }

    /// The type of an operation named `name` of `kind`.
    static func operationTypeName(_ name: String, kind: String) -> String {
        let suffix = kind.prefix(1).uppercased() + kind.dropFirst()
        let base = name.prefix(1).uppercased() + name.dropFirst()
        return base.hasSuffix(suffix) ? base : base + suffix
    }

    /// The case of enum value `value`: `NEW_HOPE` → `newHope`, `newHope` stays.
    static func caseName(_ value: String) -> String {
        let hasLowercase = value.contains { $0.isLowercase }
        if hasLowercase && !value.dropFirst().contains("_") {
            return value.prefix(1).lowercased() + value.dropFirst()
        }
        var leading = ""
        var rest = Substring(value)
        while rest.hasPrefix("_") {
            leading += "_"
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: "_", omittingEmptySubsequences: true).map { $0.lowercased() }
        guard let first = parts.first else { return value }
        return leading + first + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `text` as a Swift string literal (one line, escaped): every control character, line
    /// separator and bidirectional formatting character as `\u{...}`, so that what the schema or
    /// an operation holds reads in the generated file as it is.
    static func stringLiteral(_ text: String) -> String {
        quoted(text) { needsEscaping($0) ? escaped($0) : nil }
    }

    /// `text` between double quotes with `"`, `\`, LF, CR and tab escaped by a backslash, as
    /// Swift and GraphQL (and JSON) string literals write them; `escape` gives any other
    /// scalar's escape, nil for none. One loop for `stringLiteral` and the schema printer's
    /// GraphQL strings (`IntrospectionSDL.quoted`).
    static func quoted(_ text: String, escape: (Unicode.Scalar) -> String?) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if let escaped = escape(scalar) {
                    result += escaped
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `text` as `///` lines at `indent`; nothing for nil or blank text.
    ///
    /// A description is a stranger's text (a schema served by a third party) written into the
    /// app's module, so nothing in it may end the comment: every line terminator Swift or an
    /// editor knows (LF, CR, CRLF, NEL, U+2028, U+2029) starts a new `///` line, and every other
    /// control character and bidirectional formatting character (which could make the file read
    /// differently from how it compiles) is written as `\u{...}`.
    static func docComment(_ text: String?, indent: String) -> [String] {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        var lines: [String] = []
        var line = ""
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\n" where afterCR:
                continue
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append(line)
                line = ""
            case "\t":
                line.unicodeScalars.append(scalar)
            case _ where needsEscaping(scalar):
                line += escaped(scalar)
            default:
                line.unicodeScalars.append(scalar)
            }
        }
        lines.append(line)
        return lines.map { $0.isEmpty ? "\(indent)///" : "\(indent)/// \($0)" }
    }

    /// Whether `scalar` is written as `\u{...}` in a string literal or a comment: C0 and C1
    /// control characters, DEL, line and paragraph separators, and the bidirectional formatting
    /// characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
    static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            true
        default:
            false
        }
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16))}"
    }

    /// `@available(*, deprecated, message: ...)` for a deprecation reason.
    static func deprecation(_ reason: String?, indent: String) -> [String] {
        guard let reason else { return [] }
        if reason.isEmpty { return ["\(indent)@available(*, deprecated)"] }
        return ["\(indent)@available(*, deprecated, message: \(stringLiteral(reason)))"]
    }
}
