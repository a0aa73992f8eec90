import Foundation

/// Writes an operation's answer into records, and reads an operation back from them: the rules
/// of the normalized cache, as pure functions of the records, the document and the variables.
///
/// | Answer                                   | Stored as                                          |
/// |------------------------------------------|----------------------------------------------------|
/// | a scalar, an enum, null, a field without a selection set (a custom scalar's JSON) | the value itself    |
/// | an object with its type's key fields     | a reference to `Type:key`, the object in that record |
/// | an object without them                   | a reference to `parent.fieldKey`, the path's record |
/// | a list                                   | a list of the above, an object's path ending in its index |
/// | a field with arguments                   | under `name(arguments as JSON, keys sorted)`       |
/// | an aliased field                         | under its name, not its alias                      |
/// | a field under `@skip`/`@include` that is left out | nothing written, nothing read             |
/// | a fragment whose type condition does not apply | nothing written, nothing read               |
struct Normalizer {
    let configuration: PrismGraphQLNormalizedCacheConfiguration
    let fragments: [String: GraphQLDocument.Fragment]
    let variables: [String: PrismGraphQLValue]

    // MARK: Writing

    /// Writes `object`'s `selections` into `records` under `key`; returns the keys of the records
    /// whose fields changed.
    func write(
        _ object: [String: PrismGraphQLValue], selections: [GraphQLDocument.Selection], key: PrismGraphQLCacheKey,
        into records: inout [PrismGraphQLCacheKey: PrismGraphQLRecord], changed: inout Set<PrismGraphQLCacheKey>
    ) throws(NormalizationError) {
        let typename = object["__typename"]?.stringValue
        for selection in selections {
            switch selection {
            case .field(let field):
                guard included(field.conditions) else { continue }
                guard let value = object[field.responseKey] else {
                    throw NormalizationError.missing("\(key).\(field.responseKey)")
                }
                let fieldKey = self.fieldKey(field)
                let stored = try normalize(
                    value, selections: field.selections, path: "\(key.rawValue).\(fieldKey)", into: &records,
                    changed: &changed)
                if records[key, default: PrismGraphQLRecord()].fields[fieldKey] != stored {
                    records[key, default: PrismGraphQLRecord()].fields[fieldKey] = stored
                    changed.insert(key)
                }
            case .fragmentSpread(let name, let conditions):
                guard included(conditions) else { continue }
                guard let fragment = fragments[name] else { throw NormalizationError.unknownFragment(name) }
                if applies(
                    fragment.typeCondition, typename: typename, selections: fragment.selections,
                    has: { object[$0] != nil })
                {
                    try write(object, selections: fragment.selections, key: key, into: &records, changed: &changed)
                }
            case .inlineFragment(let condition, let conditions, let inner):
                guard included(conditions) else { continue }
                if condition.map({ applies($0, typename: typename, selections: inner, has: { object[$0] != nil }) })
                    ?? true
                {
                    try write(object, selections: inner, key: key, into: &records, changed: &changed)
                }
            }
        }
    }

    private func normalize(
        _ value: PrismGraphQLValue, selections: [GraphQLDocument.Selection]?, path: String,
        into records: inout [PrismGraphQLCacheKey: PrismGraphQLRecord], changed: inout Set<PrismGraphQLCacheKey>
    ) throws(NormalizationError) -> PrismGraphQLRecordValue {
        guard let selections else { return .value(value) }
        switch value {
        case .array(let items):
            var stored: [PrismGraphQLRecordValue] = []
            stored.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                stored.append(
                    try normalize(
                        item, selections: selections, path: "\(path).\(index)", into: &records, changed: &changed))
            }
            return .list(stored)
        case .object(let members):
            let key = cacheKey(of: members) ?? PrismGraphQLCacheKey(rawValue: path)
            try write(members, selections: selections, key: key, into: &records, changed: &changed)
            return .reference(key)
        default:
            // Null, or a scalar where the document selects fields (the server's error to make).
            return .value(value)
        }
    }

    /// `Type:key` when the object carries its type's key fields.
    func cacheKey(of object: [String: PrismGraphQLValue]) -> PrismGraphQLCacheKey? {
        guard let typename = object["__typename"]?.stringValue else { return nil }
        let fields = configuration.keyFields[typename] ?? configuration.defaultKeyFields
        guard !fields.isEmpty else { return nil }
        var values: [String: PrismGraphQLValue] = [:]
        for field in fields {
            guard let value = object[field], value != .null else { return nil }
            values[field] = value
        }
        if fields.count == 1, let only = values[fields[0]] {
            switch only {
            case .string(let text): return PrismGraphQLCacheKey(rawValue: "\(typename):\(text)")
            case .int(let number): return PrismGraphQLCacheKey(rawValue: "\(typename):\(number)")
            default: break
            }
        }
        return PrismGraphQLCacheKey(rawValue: "\(typename):\(Self.canonicalJSON(.object(values)))")
    }

    // MARK: Reading

    /// The answer `selections` read from the record under `key`, as the server would have sent it.
    func read(
        _ selections: [GraphQLDocument.Selection], from key: PrismGraphQLCacheKey,
        in records: RecordView, reading: inout ReadTrace
    ) throws(NormalizationError) -> [String: PrismGraphQLValue] {
        guard let record = records[key] else { throw NormalizationError.missing(key.rawValue) }
        reading.keys.insert(key)
        var result: [String: PrismGraphQLValue] = [:]
        try read(selections, record: record, key: key, in: records, into: &result, reading: &reading)
        return result
    }

    private func read(
        _ selections: [GraphQLDocument.Selection], record: PrismGraphQLRecord, key: PrismGraphQLCacheKey,
        in records: RecordView, into result: inout [String: PrismGraphQLValue],
        reading: inout ReadTrace
    ) throws(NormalizationError) {
        for selection in selections {
            switch selection {
            case .field(let field):
                guard included(field.conditions) else { continue }
                let fieldKey = self.fieldKey(field)
                guard let stored = record.fields[fieldKey] else {
                    throw NormalizationError.missing("\(key.rawValue).\(fieldKey)")
                }
                if reading.tracksFields { reading.fields.append((key, record.typename, fieldKey)) }
                let value = try denormalize(
                    stored, selections: field.selections, path: "\(key.rawValue).\(fieldKey)", in: records,
                    reading: &reading)
                result[field.responseKey] = Self.merged(result[field.responseKey], value)
            case .fragmentSpread(let name, let conditions):
                guard included(conditions) else { continue }
                guard let fragment = fragments[name] else { throw NormalizationError.unknownFragment(name) }
                if applies(
                    fragment.typeCondition, typename: record.typename, selections: fragment.selections,
                    has: { field in
                        record.fields.keys.contains { $0 == field || $0.hasPrefix(field + "(") }
                    })
                {
                    try read(
                        fragment.selections, record: record, key: key, in: records, into: &result, reading: &reading)
                }
            case .inlineFragment(let condition, let conditions, let inner):
                guard included(conditions) else { continue }
                let applies =
                    condition.map { condition in
                        self.applies(condition, typename: record.typename, selections: inner) { field in
                            record.fields.keys.contains { $0 == field || $0.hasPrefix(field + "(") }
                        }
                    } ?? true
                if applies {
                    try read(inner, record: record, key: key, in: records, into: &result, reading: &reading)
                }
            }
        }
    }

    private func denormalize(
        _ stored: PrismGraphQLRecordValue, selections: [GraphQLDocument.Selection]?, path: String,
        in records: RecordView, reading: inout ReadTrace
    ) throws(NormalizationError) -> PrismGraphQLValue {
        switch stored {
        case .value(let value):
            return value
        case .list(let items):
            var values: [PrismGraphQLValue] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                values.append(
                    try denormalize(
                        item, selections: selections, path: "\(path).\(index)", in: records, reading: &reading))
            }
            return .array(values)
        case .reference(let key):
            guard let selections else { throw NormalizationError.missing(path) }
            return .object(try read(selections, from: key, in: records, reading: &reading))
        }
    }

    /// Two selections of one response key: objects merged member by member, lists item by item.
    private static func merged(_ existing: PrismGraphQLValue?, _ new: PrismGraphQLValue) -> PrismGraphQLValue {
        switch (existing, new) {
        case (.object(let old)?, .object(let added)):
            return .object(old.merging(added) { merged($0, $1) })
        case (.array(let old)?, .array(let added)) where old.count == added.count:
            return .array(zip(old, added).map { merged($0, $1) })
        default:
            return new
        }
    }

    // MARK: Shared rules

    /// A field's key in its record: its name, then its arguments' values as JSON when it has any.
    func fieldKey(_ field: GraphQLDocument.Field) -> String {
        guard !field.arguments.isEmpty else { return field.name }
        var arguments: [String: PrismGraphQLValue] = [:]
        for argument in field.arguments { arguments[argument.name] = argument.value.resolved(variables) }
        return "\(field.name)(\(Self.canonicalJSON(.object(arguments))))"
    }

    /// Whether `@include`/`@skip` keep the selection.
    private func included(_ conditions: [GraphQLDocument.Condition]) -> Bool {
        conditions.allSatisfy { condition in
            let value = condition.value.resolved(variables) == .bool(true)
            return condition.include ? value : !value
        }
    }

    /// Whether a fragment on `condition` applies to an object of `typename`: the same type, a
    /// type the configuration lists for it, or (for a type it does not list) an object that has
    /// every field the fragment selects directly.
    private func applies(
        _ condition: String, typename: String?, selections: [GraphQLDocument.Selection], has: (String) -> Bool
    ) -> Bool {
        guard let typename, typename != condition else { return true }
        if let possible = configuration.possibleTypes[condition] { return possible.contains(typename) }
        for selection in selections {
            if case .field(let field) = selection, field.name != "__typename", !has(field.responseKey),
                !has(field.name)
            {
                return false
            }
        }
        return true
    }

    /// `value` as JSON with sorted keys: the same text for the same value, whatever the order.
    static func canonicalJSON(_ value: PrismGraphQLValue) -> String {
        var bytes: [UInt8] = []
        JSONValueWriter.write(value, into: &bytes, sortingKeys: true)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Why an answer could not be written, or an operation read.
enum NormalizationError: Error {
    /// Nothing is stored at this path (reading), or the answer lacks it (writing).
    case missing(String)
    /// The document spreads a fragment it does not define.
    case unknownFragment(String)
}

/// The records as a read sees them: the cache's own, with the optimistic layers over them in
/// order (a layer's fields replace the same fields below; its other fields show through).
struct RecordView {
    var base: [PrismGraphQLCacheKey: PrismGraphQLRecord]
    var layers: [[PrismGraphQLCacheKey: PrismGraphQLRecord]] = []

    subscript(key: PrismGraphQLCacheKey) -> PrismGraphQLRecord? {
        guard !layers.isEmpty else { return base[key] }
        var record = base[key]
        for layer in layers {
            guard let over = layer[key] else { continue }
            if record == nil {
                record = over
            } else {
                record?.fields.merge(over.fields) { _, over in over }
            }
        }
        return record
    }
}

/// What a read went through: the records (for watches) and, when freshness is asked about, each
/// field with its record's type.
struct ReadTrace {
    var keys: Set<PrismGraphQLCacheKey> = []
    var tracksFields = false
    var fields: [(key: PrismGraphQLCacheKey, typename: String?, field: String)] = []
}
