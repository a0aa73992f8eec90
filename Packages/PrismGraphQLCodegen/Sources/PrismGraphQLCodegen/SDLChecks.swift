import GraphQL

/// The checks of the specification's schema (SDL) validation that building a schema relies on,
/// in one pass over the definitions, each problem at its line and column.
///
/// GraphQLSwift's own SDL validation walks the document once per rule through its generic
/// visitor: 45% of generating for GitHub's public schema (1.2 MB), which these loops replace.
/// The schema is then built with that validation off.
///
/// | Rule (graphql-js) | Message |
/// | --- | --- |
/// | LoneSchemaDefinition | `Must provide only one schema definition.` |
/// | UniqueOperationTypes | `There can be only one query type in schema.` |
/// | UniqueTypeNames | `There can be only one type named "T".` |
/// | UniqueFieldDefinitionNames | `Field "T.f" can only be defined once.` (extensions included) |
/// | UniqueEnumValueNames | `Enum value "E.V" can only be defined once.` |
/// | UniqueArgumentDefinitionNames | `Argument "T.f(a:)" can only be defined once.`, `Argument "@d(a:)" ...` |
/// | UniqueDirectiveNames | `There can be only one directive named "@d".` |
/// | KnownTypeNames | `Unknown type "T". Did you mean "U"?` |
///
/// A field, enum value or argument defined twice is a warning, not an error: servers publish
/// such schemas (GitHub's defines `EnterpriseOwnerInfo.repositoryDeployKeySetting` twice), and
/// operations validate against them all the same. The first definition is used: the checks
/// give the places of the others (``Result/repeated``), which `Loading` blanks out of the text
/// before building the schema. Every other problem stops generation.
///
/// Not checked: the directives a schema applies to its own definitions (unknown ones, their
/// arguments, where they appear) and whether an extension extends a type of its kind. None
/// changes what is generated, and a schema is the server's, which its own server checked.
enum SDLChecks {
    /// What the checks found: problems (errors and warnings), and the UTF-8 ranges of the
    /// repeated definitions to leave out.
    struct Result {
        var problems: [CodegenDiagnostic] = []
        var repeated: [Range<Int>] = []
    }

    static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]

    static func check(_ document: Document, source: Source, file: String) -> Result {
        var result = Result()
        func report(_ message: String, at location: Location?) {
            let (line, column) = location.map { lineAndColumn(in: source.body, utf8Offset: $0.start) } ?? (1, 1)
            result.problems.append(CodegenDiagnostic(file: file, line: line, column: column, message: message))
        }
        /// A repeated definition, `definition` the whole of it: a warning at its name, and left out.
        func repeated(_ message: String, at name: Name, definition: Location?) {
            let (line, column) = name.loc.map { lineAndColumn(in: source.body, utf8Offset: $0.start) } ?? (1, 1)
            result.problems.append(
                CodegenDiagnostic(
                    file: file, line: line, column: column, severity: .warning,
                    message: message + " The server's schema repeats it: the first definition is used."))
            if let definition { result.repeated.append(definition.start..<definition.end) }
        }

        var typeNames: Set<String> = []
        var directiveNames: Set<String> = []
        var schemaDefinitions = 0
        var operationTypes: Set<String> = []
        var fieldsByType: [String: Set<String>] = [:]
        var valuesByEnum: [String: Set<String>] = [:]
        var references: [NamedType] = []

        /// Whether `name` is the first field of `type` by that name; a repeat is reported.
        func isFirst(field name: Name, of type: String, definition: Location?) -> Bool {
            guard fieldsByType[type, default: []].insert(name.value).inserted else {
                repeated("Field \"\(type).\(name.value)\" can only be defined once.", at: name, definition: definition)
                return false
            }
            return true
        }
        func fields(_ fields: [FieldDefinition], of type: String) {
            for field in fields where isFirst(field: field.name, of: type, definition: field.loc) {
                arguments(field.arguments, of: "\(type).\(field.name.value)")
                references.append(namedType(field.type))
            }
        }
        func inputFields(_ fields: [InputValueDefinition], of type: String) {
            for field in fields where isFirst(field: field.name, of: type, definition: field.loc) {
                references.append(namedType(field.type))
            }
        }
        func arguments(_ arguments: [InputValueDefinition], of owner: String) {
            var seen: Set<String> = []
            for argument in arguments {
                if !seen.insert(argument.name.value).inserted {
                    repeated(
                        "Argument \"\(owner)(\(argument.name.value):)\" can only be defined once.",
                        at: argument.name, definition: argument.loc)
                    continue
                }
                references.append(namedType(argument.type))
            }
        }
        func enumValues(_ values: [EnumValueDefinition], of type: String) {
            for value in values where !valuesByEnum[type, default: []].insert(value.name.value).inserted {
                repeated(
                    "Enum value \"\(type).\(value.name.value)\" can only be defined once.", at: value.name,
                    definition: value.loc)
            }
        }
        /// Checks an extension's members with `body`; when every one of its `count` members is a
        /// repeat, the whole extension is left out instead (an empty `{ }` is not GraphQL).
        func leavingOut(_ extensionLocation: Location?, ifAllOf count: Int, _ body: () -> Void) {
            let before = result.repeated.count
            body()
            guard count > 0, result.repeated.count - before == count, let extensionLocation else { return }
            result.repeated.removeLast(count)
            result.repeated.append(extensionLocation.start..<extensionLocation.end)
        }
        func define(_ name: Name) {
            if !typeNames.insert(name.value).inserted {
                report("There can be only one type named \"\(name.value)\".", at: name.loc)
            }
        }

        for definition in document.definitions {
            switch definition {
            case let object as ObjectTypeDefinition:
                define(object.name)
                references += object.interfaces
                fields(object.fields, of: object.name.value)
            case let interface as InterfaceTypeDefinition:
                define(interface.name)
                references += interface.interfaces
                fields(interface.fields, of: interface.name.value)
            case let input as InputObjectTypeDefinition:
                define(input.name)
                inputFields(input.fields, of: input.name.value)
            case let enumeration as EnumTypeDefinition:
                define(enumeration.name)
                enumValues(enumeration.values, of: enumeration.name.value)
            case let union as UnionTypeDefinition:
                define(union.name)
                references += union.types
            case let scalar as ScalarTypeDefinition:
                define(scalar.name)
            case let directive as DirectiveDefinition:
                if !directiveNames.insert(directive.name.value).inserted {
                    report(
                        "There can be only one directive named \"@\(directive.name.value)\".", at: directive.name.loc)
                }
                arguments(directive.arguments, of: "@\(directive.name.value)")
            case let schema as SchemaDefinition:
                schemaDefinitions += 1
                if schemaDefinitions > 1 { report("Must provide only one schema definition.", at: schema.loc) }
                for operation in schema.operationTypes {
                    if !operationTypes.insert(operation.operation.rawValue).inserted {
                        report(
                            "There can be only one \(operation.operation.rawValue) type in schema.", at: operation.loc)
                    }
                    references.append(operation.type)
                }
            case let extensionDefinition as TypeExtensionDefinition:
                references += extensionDefinition.definition.interfaces
                leavingOut(extensionDefinition.loc, ifAllOf: extensionDefinition.definition.fields.count) {
                    fields(extensionDefinition.definition.fields, of: extensionDefinition.definition.name.value)
                }
            case let extensionDefinition as InterfaceExtensionDefinition:
                references += extensionDefinition.definition.interfaces
                leavingOut(extensionDefinition.loc, ifAllOf: extensionDefinition.definition.fields.count) {
                    fields(extensionDefinition.definition.fields, of: extensionDefinition.definition.name.value)
                }
            case let extensionDefinition as InputObjectExtensionDefinition:
                leavingOut(extensionDefinition.loc, ifAllOf: extensionDefinition.definition.fields.count) {
                    inputFields(extensionDefinition.definition.fields, of: extensionDefinition.definition.name.value)
                }
            case let extensionDefinition as EnumExtensionDefinition:
                leavingOut(extensionDefinition.loc, ifAllOf: extensionDefinition.definition.values.count) {
                    enumValues(extensionDefinition.definition.values, of: extensionDefinition.definition.name.value)
                }
            case let extensionDefinition as UnionExtensionDefinition:
                references += extensionDefinition.definition.types
            default:
                break
            }
        }

        let known = typeNames.union(builtInScalars)
        for reference in references where !known.contains(reference.name.value) {
            let suggestions = Suggestions.closest(to: reference.name.value, among: known)
            report(
                "Unknown type \"\(reference.name.value)\".\(Suggestions.didYouMean(suggestions))",
                at: reference.name.loc)
        }
        result.problems.sort { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
        return result
    }

    /// The named type at the bottom of `[T!]!`.
    static func namedType(_ type: Type) -> NamedType {
        if let named = type as? NamedType { return named }
        if let list = type as? ListType { return namedType(list.type) }
        if let nonNull = type as? NonNullType { return namedType(nonNull.type) }
        preconditionFailure("a type is named, a list or non-null")
    }
}

/// graphql-js's suggestions: names within a third of the name's length of it in edit distance
/// (a change of case alone counts as one), closest first, at most five.
enum Suggestions {
    static func closest(to input: String, among options: some Sequence<String>) -> [String] {
        let lowered = Array(input.lowercased())
        let threshold = lowered.count * 4 / 10 + 1
        var found: [(String, Int)] = []
        for option in options {
            let distance =
                option.lowercased() == input.lowercased() ? 1 : editDistance(lowered, Array(option.lowercased()))
            if distance <= threshold { found.append((option, distance)) }
        }
        return found.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(5).map(\.0)
    }

    /// ` Did you mean "a", "b", or "c"?`, or nothing.
    static func didYouMean(_ suggestions: [String]) -> String {
        let quoted = suggestions.map { "\"\($0)\"" }
        switch quoted.count {
        case 0: return ""
        case 1: return " Did you mean \(quoted[0])?"
        case 2: return " Did you mean \(quoted[0]) or \(quoted[1])?"
        default: return " Did you mean \(quoted.dropLast().joined(separator: ", ")), or \(quoted.last!)?"
        }
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
