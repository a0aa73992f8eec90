import Foundation

/// An introspection result (`{"data": {"__schema": ...}}`, `{"__schema": ...}`, as servers
/// answer the introspection query) written back as SDL, for GraphQLSwift to build the schema from.
///
/// | Introspection | SDL |
/// | --- | --- |
/// | `kind` OBJECT, INTERFACE, UNION, ENUM, INPUT_OBJECT, SCALAR | `type`, `interface`, `union`, `enum`, `input`, `scalar` |
/// | a built-in scalar (`String`, `Int`, `Float`, `Boolean`, `ID`) and `__`-types | left out (they are every schema's) |
/// | `ofType` chains | `[T!]!` |
/// | `defaultValue` | as given: introspection writes it as a GraphQL literal |
/// | `isDeprecated` + `deprecationReason` | `@deprecated(reason: "...")` |
/// | `description` | a block string above the definition |
/// | `queryType`, `mutationType`, `subscriptionType` | `schema { query: ... }` |
/// | directives | those not built in, with their locations |
enum IntrospectionSDL {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func sdl(fromJSON data: Data) throws -> String {
        let object = try JSONSerialization.jsonObject(with: data)
        guard let root = object as? [String: Any] else { throw Failure(description: "Expected a JSON object.") }
        let data = root["data"] as? [String: Any] ?? root
        guard let schema = data["__schema"] as? [String: Any] else {
            throw Failure(description: "No \"__schema\" member: not an introspection result.")
        }
        guard let types = schema["types"] as? [[String: Any]] else {
            throw Failure(description: "\"__schema\" has no \"types\" list.")
        }
        var blocks: [String] = []
        var operations: [String] = []
        for (member, keyword) in [
            ("queryType", "query"), ("mutationType", "mutation"), ("subscriptionType", "subscription"),
        ] {
            if let type = schema[member] as? [String: Any], type["name"] != nil {
                operations.append("  \(keyword): \(try checkedName(type["name"], what: "The \(keyword) type"))")
            }
        }
        if !operations.isEmpty { blocks.append("schema {\n" + operations.joined(separator: "\n") + "\n}") }
        let builtIn: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
        for type in types {
            let name = try checkedName(type["name"], what: "A type")
            if name.hasPrefix("__") || builtIn.contains(name) { continue }
            blocks.append(try definition(of: type, named: name))
        }
        let builtInDirectives: Set<String> = [
            "skip", "include", "deprecated", "specifiedBy", "oneOf", "defer", "stream",
        ]
        for directive in schema["directives"] as? [[String: Any]] ?? [] {
            let name = try checkedName(directive["name"], what: "A directive")
            guard !builtInDirectives.contains(name) else { continue }
            let locations = try (directive["locations"] as? [Any] ?? [])
                .map { try checkedName($0, what: "A location of @\(name)") }.joined(separator: " | ")
            let repeatable = directive["isRepeatable"] as? Bool == true ? " repeatable" : ""
            blocks.append(
                description(directive)
                    + "directive @\(name)\(try arguments(directive["args"]))\(repeatable) on \(locations)")
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    private static func definition(of type: [String: Any], named name: String) throws -> String {
        let head = description(type)
        switch type["kind"] as? String {
        case "SCALAR":
            let url = (type["specifiedByURL"] as? String).map { " @specifiedBy(url: \(quoted($0)))" } ?? ""
            return head + "scalar \(name)\(url)"
        case "OBJECT", "INTERFACE":
            let keyword = type["kind"] as? String == "OBJECT" ? "type" : "interface"
            let interfaces = try (type["interfaces"] as? [[String: Any]] ?? [])
                .map { try checkedName($0["name"], what: "An interface of \(name)") }
            let implements = interfaces.isEmpty ? "" : " implements " + interfaces.joined(separator: " & ")
            let fields = try (type["fields"] as? [[String: Any]] ?? []).map { field -> String in
                let fieldName = try checkedName(field["name"], what: "A field of \(name)")
                return indented(description(field)) + "  \(fieldName)\(try arguments(field["args"])): "
                    + "\(try reference(field["type"], in: "\(name).\(fieldName)"))\(deprecation(field))"
            }
            return head + "\(keyword) \(name)\(implements) {\n" + fields.joined(separator: "\n") + "\n}"
        case "UNION":
            let members = try (type["possibleTypes"] as? [[String: Any]] ?? [])
                .map { try checkedName($0["name"], what: "A member of \(name)") }
            return head + "union \(name) = " + members.joined(separator: " | ")
        case "ENUM":
            let values = try (type["enumValues"] as? [[String: Any]] ?? []).map { value -> String in
                let valueName = try checkedName(value["name"], what: "A value of \(name)")
                return indented(description(value)) + "  \(valueName)\(deprecation(value))"
            }
            return head + "enum \(name) {\n" + values.joined(separator: "\n") + "\n}"
        case "INPUT_OBJECT":
            let fields = try (type["inputFields"] as? [[String: Any]] ?? []).map { try inputValue($0, in: name) }
            let oneOf = type["isOneOf"] as? Bool == true ? " @oneOf" : ""
            return head + "input \(name)\(oneOf) {\n" + fields.map { indented($0) }.joined(separator: "\n") + "\n}"
        default:
            throw Failure(description: "\(name): unknown kind \(type["kind"] ?? "(none)").")
        }
    }

    private static func arguments(_ value: Any?) throws -> String {
        guard let arguments = value as? [[String: Any]], !arguments.isEmpty else { return "" }
        return "(" + (try arguments.map { try inputValue($0, in: "argument") }).joined(separator: ", ") + ")"
    }

    private static func inputValue(_ value: [String: Any], in context: String) throws -> String {
        let name = try checkedName(value["name"], what: "\(context): a value")
        var text =
            description(value, inline: true) + "\(name): \(try reference(value["type"], in: "\(context).\(name)"))"
        if let defaultValue = value["defaultValue"] as? String { text += " = \(defaultValue)" }
        return text + deprecation(value)
    }

    /// `T`, `[T]`, `T!` for an `ofType` chain.
    private static func reference(_ value: Any?, in context: String) throws -> String {
        guard let type = value as? [String: Any] else { throw Failure(description: "\(context): no type.") }
        switch type["kind"] as? String {
        case "NON_NULL": return try reference(type["ofType"], in: context) + "!"
        case "LIST": return "[" + (try reference(type["ofType"], in: context)) + "]"
        default:
            return try checkedName(type["name"], what: "\(context): the type")
        }
    }

    /// `value` when it is a GraphQL name (`[_A-Za-z][_0-9A-Za-z]*`, the spec's `Name`): what
    /// the SDL, and then the generated Swift, may hold. Anything else (a name with a space, a
    /// brace, a quote or a line break, which would rewrite the SDL around it) is refused.
    static func checkedName(_ value: Any?, what: String) throws -> String {
        guard let name = value as? String else { throw Failure(description: "\(what) has no name.") }
        let isName =
            !name.isEmpty
            && name.utf8.enumerated().allSatisfy { index, byte in
                byte == UInt8(ascii: "_") || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
                    || (index > 0 && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            }
        guard isName else {
            throw Failure(
                description:
                    "\(what) is named \(quoted(name)), which is not a GraphQL name (letters, digits and _, not starting with a digit)."
            )
        }
        return name
    }

    private static func deprecation(_ value: [String: Any]) -> String {
        guard value["isDeprecated"] as? Bool == true else { return "" }
        guard let reason = value["deprecationReason"] as? String else { return " @deprecated" }
        return " @deprecated(reason: \(quoted(reason)))"
    }

    private static func description(_ value: [String: Any], inline: Bool = false) -> String {
        guard let text = value["description"] as? String, !text.isEmpty else { return "" }
        if inline { return quoted(text) + " " }
        return "\"\"\"\n" + text.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"") + "\n\"\"\"\n"
    }

    private static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }
            .joined(separator: "\n")
    }

    /// A GraphQL string literal: other control characters as `\uXXXX`.
    static func quoted(_ text: String) -> String {
        Naming.quoted(text) { scalar in
            guard scalar.value < 0x20 else { return nil }
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
