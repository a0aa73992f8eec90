import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import Testing

/// No selected field is ever dropped: for every query of this folder, each field of the server's
/// answer (which holds exactly what the document selects, for the types the values turned out to
/// be) is in the decoded Swift value, at its place.
///
/// The decoded value is read with `Mirror`: at one level of the JSON, a stored property named
/// like a key is that field (a deprecated field's storage is `_key`), and a member named like no
/// key (a fragment, `on`'s case, an `asX`) holds more fields of the same level. A field the
/// generator left out of every struct, or a type condition decoded as `unknown`, is missing.
///
/// In `LargeSchemaTests`, whose tests run one at a time.
extension LargeSchemaTests {
    @Test("no field of any query's answer is dropped: each is in the decoded data, for several variables")
    func nothingDropped() async throws {
        // Each query for several variables: the server's answers depend on them.
        let queries: [any PrismGraphQLQueryOperation] =
            LargeSchemaTests.ids.flatMap { id -> [any PrismGraphQLQueryOperation] in
                [
                    CatalogItemDetailQuery(id: id), CatalogChainQuery(id: id), CustomerProfileDetailQuery(id: id),
                    EveryKindQuery(id: id), NodeByIdQuery(id: id), NodeBasicsQuery(id: id),
                    CatalogItemOwnerQuery(id: id), OrderRecordDetailQuery(id: id), SearchOrderGroupsQuery(text: id),
                    SearchCatalogGroupsQuery(text: id), SearchCatalogBatchesQuery(text: id),
                    SearchCatalogProfilesQuery(text: id), SearchCatalogSnapshotsQuery(text: id),
                ]
            } + [
                CatalogItemsQuery(), OrderSummariesQuery(), TwoItemsQuery(a: "1", b: "2", withTags: true),
                TwoItemsQuery(a: "1", b: "2", withTags: false), CustomerProfileAndItemQuery(profile: "1", item: "2"),
            ]
        try await LargeSchemaTests.withMockServer { client, server in
            for query in queries {
                try await Self.check(query, client: client, server: server)
            }
        }
    }

    /// The operation and its variables, as the client sends them.
    struct Body<Variables: Encodable>: Encodable {
        let query: String
        let operationName: String
        let variables: Variables
    }

    /// Executes `operation` twice, as generated code (decoded) and as JSON (the server answers
    /// the same variables the same way), and records every field of the JSON the decoded value
    /// does not have.
    static func check<Operation: PrismGraphQLQueryOperation>(
        _ operation: Operation, client: PrismGraphQLClient, server: PrismTestServer
    ) async throws {
        let data = try await LargeSchemaTests.data(operation, client: client, server: server)
        let body = try JSONEncoder().encode(
            Body(query: Operation.document, operationName: Operation.operationName, variables: operation.variables))
        let response = try await PrismNetworkAdapter(cache: nil).send(
            PrismHTTPRequest(
                url: server.url("/graphql/mock"), method: .post, headers: ["Content-Type": "application/json"],
                body: body))
        let answer = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        var missing: [String] = []
        compare(answer["data"] as Any, data, path: "data", missing: &missing)
        #expect(missing.isEmpty, "\(Operation.operationName): dropped \(missing)")
    }

    /// Records in `missing` each field of `json` that `value` does not have.
    static func compare(_ json: Any, _ value: Any, path: String, missing: inout [String]) {
        guard let value = unwrapped(value) else {
            if !(json is NSNull) { missing.append(path + " (nil where the server sent a value)") }
            return
        }
        if let list = json as? [Any] {
            let elements = Mirror(reflecting: value).children.map(\.value)
            guard elements.count == list.count else {
                missing.append(path + " (\(elements.count) elements of \(list.count))")
                return
            }
            for (index, element) in zip(list, elements).enumerated() {
                compare(element.0, element.1, path: "\(path)[\(index)]", missing: &missing)
            }
        } else if let object = json as? [String: Any] {
            let fields = members(of: value, keys: Set(object.keys))
            for (key, field) in object.sorted(by: { $0.key < $1.key }) {
                guard let member = fields[key] else {
                    missing.append("\(path).\(key)")
                    continue
                }
                compare(field, member, path: "\(path).\(key)", missing: &missing)
            }
        }
    }

    /// The fields of `value` at one level of the JSON, whose keys are `keys`.
    static func members(of value: Any, keys: Set<String>) -> [String: Any] {
        var found: [String: Any] = [:]
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            // A deprecated field is stored as `_key`; `__typename` is its own key.
            let key = keys.contains(label) ? label : String(label.dropFirst())
            if keys.contains(key), label == key || label == "_" + key {
                if found[key] == nil { found[key] = child.value }
            } else if let inner = unwrapped(child.value) {
                // A fragment, `on`'s case or an `asX`: more fields of this level.
                let mirror = Mirror(reflecting: inner)
                let payload: Any? = mirror.displayStyle == .enum ? mirror.children.first?.value : inner
                guard let container = payload else { continue }
                for (key, field) in members(of: container, keys: keys) where found[key] == nil {
                    found[key] = field
                }
            }
        }
        return found
    }

    /// `value`, out of its `Optional`; nil for `Optional.none`.
    static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map { unwrapped($0.value) } ?? nil
    }
}
