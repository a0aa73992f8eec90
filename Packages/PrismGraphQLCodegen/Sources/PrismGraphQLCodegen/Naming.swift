import Foundation

/// How GraphQL names become Swift names, in one place.
///
/// | GraphQL | Swift | Why |
/// | --- | --- | --- |
/// | a field's response key (`login`, `repos: repositories`) | the property, as spelled; a keyword in backticks | the JSON key is the property's name: synthesized `Decodable` needs no `CodingKeys` |
/// | a field with a selection set | a nested struct named after its response key, first letter uppercased | one type per selection, where it is used |
/// | an operation `GetUser` of kind query | `GetUserQuery` (`GetUserQuery` stays as is) | Apollo's convention, which users know |
/// | enum value `NEW_HOPE` | case `newHope` | Swift's case style; the raw value keeps the spelling |
/// | `String`, `Int`, `Float`, `Boolean`, `ID` | `Swift.String`, `Swift.Int`, `Swift.Double`, `Swift.Bool`, `Swift.String` | qualified: a nested struct may be named `String` |
/// | a nested name that would hide what generated code uses (`Swift`, `Data`, `Variables`, ...) | the name followed by `_` | |
enum Naming {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "_", "Type", "Protocol", "some", "any",
    ]

    /// Names a nested type must not take: generated code refers to these.
    static let reservedTypeNames: Set<String> = [
        "Swift", "Foundation", "PrismGraphQL", "Data", "Variables", "On", "CodingKeys", "Self", "Type", "Protocol",
        "Decoder", "Encoder", "Set", "Optional", "Array",
    ]

    /// `name` usable as a property or a case: in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
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

    /// `text` as a Swift string literal (one line, escaped).
    static func stringLiteral(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `text` as `///` lines at `indent`; nothing for nil or blank text.
    static func docComment(_ text: String?, indent: String) -> [String] {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.isEmpty ? "\(indent)///" : "\(indent)/// \(line)"
        }
    }

    /// `@available(*, deprecated, message: ...)` for a deprecation reason.
    static func deprecation(_ reason: String?, indent: String) -> [String] {
        guard let reason else { return [] }
        if reason.isEmpty { return ["\(indent)@available(*, deprecated)"] }
        return ["\(indent)@available(*, deprecated, message: \(stringLiteral(reason)))"]
    }
}
