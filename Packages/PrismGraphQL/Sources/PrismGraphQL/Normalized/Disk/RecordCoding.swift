import Foundation

/// A record of the normalized cache as the bytes its store keeps: JSON, so that a store can be
/// read by any tool (`sqlite3 cache.sqlite "select record from records"`).
///
/// | What                 | As                                                    |
/// |----------------------|-------------------------------------------------------|
/// | a record             | `{"f": {field: value, ...}, "t": {...}, "w": {...}}`  |
/// | a value as sent      | `{"v": <the JSON the server sent>}`                   |
/// | a reference          | `{"r": "User:42"}`                                    |
/// | a list               | `{"l": [value, ...]}`                                 |
/// | when fields were written (`"t"`, only with a `maxAge`) | seconds since 1970, per field |
/// | the order root fields were written (`"w"`, the query root only) | a count, per field  |
///
/// Anything else is refused when read: a store that holds it is not one this code wrote.
enum RecordCoding {
    /// A record with what the cache keeps beside it.
    struct Stored: Equatable {
        var record: PrismGraphQLRecord
        /// When each field was written, in seconds since 1970 (empty without a `maxAge`).
        var times: [String: Double] = [:]
        /// The order the query root's fields were written in (empty for other records).
        var writes: [String: UInt64] = [:]
    }

    /// Why bytes are not a stored record.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func encode(_ stored: Stored) -> [UInt8] {
        var object: [String: PrismGraphQLValue] = ["f": .object(stored.record.fields.mapValues(value))]
        if !stored.times.isEmpty { object["t"] = .object(stored.times.mapValues { .double($0) }) }
        if !stored.writes.isEmpty {
            object["w"] = .object(stored.writes.mapValues { .int(Int(truncatingIfNeeded: $0)) })
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        JSONValueWriter.write(.object(object), into: &bytes)
        return bytes
    }

    static func decode(_ bytes: [UInt8]) throws(Malformed) -> Stored {
        var reader = JSONValueReader(bytes: bytes)
        let document: PrismGraphQLValue
        do {
            document = try reader.document()
        } catch {
            throw Malformed(description: error.message)
        }
        guard case .object(let object) = document, case .object(let fields)? = object["f"] else {
            throw Malformed(description: "no fields")
        }
        var stored = Stored(record: PrismGraphQLRecord())
        for (name, encoded) in fields { stored.record.fields[name] = try value(encoded) }
        if let times = object["t"] {
            guard case .object(let members) = times else { throw Malformed(description: "times not an object") }
            for (name, time) in members {
                switch time {
                case .double(let seconds) where seconds.isFinite: stored.times[name] = seconds
                case .int(let seconds): stored.times[name] = Double(seconds)
                default: throw Malformed(description: "a time that is not a number")
                }
            }
        }
        if let writes = object["w"] {
            guard case .object(let members) = writes else { throw Malformed(description: "writes not an object") }
            for (name, count) in members {
                guard case .int(let count) = count, count >= 0 else {
                    throw Malformed(description: "a write count that is not a whole number")
                }
                stored.writes[name] = UInt64(count)
            }
        }
        return stored
    }

    private static func value(_ value: PrismGraphQLRecordValue) -> PrismGraphQLValue {
        switch value {
        case .value(let sent): .object(["v": sent])
        case .reference(let key): .object(["r": .string(key.rawValue)])
        case .list(let items): .object(["l": .array(items.map(Self.value))])
        }
    }

    private static func value(_ encoded: PrismGraphQLValue) throws(Malformed) -> PrismGraphQLRecordValue {
        guard case .object(let object) = encoded, object.count == 1, let (tag, content) = object.first else {
            throw Malformed(description: "a field that is not one tagged value")
        }
        switch (tag, content) {
        case ("v", let sent):
            return .value(sent)
        case ("r", .string(let key)):
            return .reference(PrismGraphQLCacheKey(rawValue: key))
        case ("l", .array(let items)):
            var list: [PrismGraphQLRecordValue] = []
            list.reserveCapacity(items.count)
            for item in items { list.append(try value(item)) }
            return .list(list)
        default:
            throw Malformed(description: "a field tagged \(tag) with the wrong content")
        }
    }
}
