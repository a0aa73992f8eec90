import GraphQL
import NIOCore

/// Writes GraphQL results and values as JSON, the way a GraphQL-over-HTTP server does: members
/// in the order the result has them, integers as integers, `"data": null` when execution failed
/// at the root, and no `data` member at all when the request failed before execution.
enum GraphQLJSON {
    /// Where a result came from: `data` is written only for an executed operation.
    enum Phase {
        /// Refused before execution (parse, validation, variables, persisted query): no `data`.
        case request
        /// Executed: `data` is written, `null` when nothing could be returned.
        case execution
    }

    /// The body of a GraphQL response.
    static func body(of result: GraphQLResult, phase: Phase) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(256)
        var first = true
        buffer.writeInteger(UInt8(ascii: "{"))
        if !result.errors.isEmpty {
            writeKey("errors", into: &buffer, first: &first)
            buffer.writeInteger(UInt8(ascii: "["))
            for (index, error) in result.errors.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                write(error, into: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "]"))
        }
        if phase == .execution {
            writeKey("data", into: &buffer, first: &first)
            write(result.data ?? .null, into: &buffer)
        }
        buffer.writeInteger(UInt8(ascii: "}"))
        return buffer
    }

    /// A JSON array of GraphQL errors (the payload of a `graphql-transport-ws` `error` message).
    static func errors(_ errors: [GraphQLError]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt8(ascii: "["))
        for (index, error) in errors.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            write(error, into: &buffer)
        }
        buffer.writeInteger(UInt8(ascii: "]"))
        return buffer
    }

    /// A response body with one error and no `data`.
    static func body(errorMessage message: String, code: String? = nil) -> ByteBuffer {
        let extensions: [String: Map] = code.map { ["code": .string($0)] } ?? [:]
        let error = GraphQLError(message: message, locations: [], extensions: extensions)
        return body(of: GraphQLResult(errors: [error]), phase: .request)
    }

    /// `variables` as JSON text, object keys sorted.
    static func text(of variables: [String: Map]) -> String {
        var buffer = ByteBuffer()
        writeObject(variables.sorted { $0.key < $1.key }, into: &buffer, sorted: true)
        return String(buffer: buffer)
    }

    // MARK: Writing

    private static func writeKey(_ key: String, into buffer: inout ByteBuffer, first: inout Bool) {
        if !first { buffer.writeInteger(UInt8(ascii: ",")) }
        first = false
        JSONValue.writeString(key, into: &buffer)
        buffer.writeInteger(UInt8(ascii: ":"))
    }

    private static func write(_ error: GraphQLError, into buffer: inout ByteBuffer) {
        var first = true
        buffer.writeInteger(UInt8(ascii: "{"))
        writeKey("message", into: &buffer, first: &first)
        JSONValue.writeString(error.message, into: &buffer)
        if !error.locations.isEmpty {
            writeKey("locations", into: &buffer, first: &first)
            let locations = error.locations.map { location -> JSONValue in
                ["line": .int(location.line), "column": .int(location.column)]
            }
            JSONValue.array(locations).write(into: &buffer)
        }
        if !error.path.elements.isEmpty {
            writeKey("path", into: &buffer, first: &first)
            let path = error.path.elements.map { element -> JSONValue in
                switch element {
                case .index(let index): return .int(index)
                case .key(let key): return .string(key)
                }
            }
            JSONValue.array(path).write(into: &buffer)
        }
        if !error.extensions.isEmpty {
            writeKey("extensions", into: &buffer, first: &first)
            writeObject(error.extensions.sorted { $0.key < $1.key }, into: &buffer, sorted: true)
        }
        buffer.writeInteger(UInt8(ascii: "}"))
    }

    private static func write(_ value: Map, into buffer: inout ByteBuffer, sorted: Bool = false) {
        switch value {
        case .undefined, .null:
            buffer.writeStaticString("null")
        case .bool(let bool):
            buffer.writeStaticString(bool ? "true" : "false")
        case .number(let number):
            buffer.writeString(text(of: number))
        case .string(let string):
            JSONValue.writeString(string, into: &buffer)
        case .array(let values):
            buffer.writeInteger(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                write(element, into: &buffer, sorted: sorted)
            }
            buffer.writeInteger(UInt8(ascii: "]"))
        case .dictionary(let dictionary):
            let members = dictionary.map { (key: $0.key, value: $0.value) }
            writeObject(sorted ? members.sorted { $0.key < $1.key } : members, into: &buffer, sorted: sorted)
        }
    }

    private static func writeObject(_ members: [(key: String, value: Map)], into buffer: inout ByteBuffer, sorted: Bool)
    {
        var first = true
        buffer.writeInteger(UInt8(ascii: "{"))
        for member in members where !member.value.isUndefined {
            writeKey(member.key, into: &buffer, first: &first)
            write(member.value, into: &buffer, sorted: sorted)
        }
        buffer.writeInteger(UInt8(ascii: "}"))
    }

    /// A number as JSON: integers (and integral doubles) without a fraction, NaN and infinities
    /// (which JSON cannot say) as `null`.
    private static func text(of number: Number) -> String {
        switch number.storageType {
        case .bool:
            return number.boolValue ? "true" : "false"
        case .int:
            return String(number.int64Value)
        case .double, .unknown:
            let double = number.doubleValue
            guard double.isFinite else { return "null" }
            if double == double.rounded(), abs(double) < 9_007_199_254_740_992 {
                return String(Int64(double))
            }
            return String(double)
        }
    }
}
