// The normalized GraphQL cache against decoding the same answer into generated-style types:
// `make bench ARGS="--filter normalized"`.
import Foundation
import PrismGraphQL

/// A list of 1,000 items, each with an owner (100 owners in all), as the code generator writes
/// the query.
private struct CatalogQuery: PrismGraphQLQueryOperation {
    static let operationName = "Catalog"
    static let document = """
        query Catalog { catalog(first: 1000) { __typename id name price tags owner { __typename id login } } }
        """
    struct Data: Decodable, Sendable, Hashable {
        let catalog: [Item]
        struct Item: Decodable, Sendable, Hashable {
            let id: String
            let name: String
            let price: Double
            let tags: [String]
            let owner: Owner
        }
        struct Owner: Decodable, Sendable, Hashable {
            let id: String
            let login: String
        }
    }
}

/// The 1,000 items of `CatalogQuery`'s answer, each with an owner (100 owners in all).
private func catalogItems() -> [PrismGraphQLValue] {
    (0..<1_000).map { index in
        [
            "__typename": "Item", "id": .string("item-\(index)"), "name": .string("Item number \(index)"),
            "price": .double(Double(index) + 0.5), "tags": ["new", "sale"],
            "owner": [
                "__typename": "User", "id": .string("user-\(index % 100)"), "login": .string("user\(index % 100)"),
            ],
        ]
    }
}

/// One item, as a detail screen reads it.
private struct ItemQuery: PrismGraphQLQueryOperation {
    static let operationName = "Item"
    static let document = "query Item($id: ID!) { item(id: $id) { __typename id name price } }"
    struct Variables: Encodable, Sendable, Hashable { var id: String }
    struct Data: Decodable, Sendable, Hashable {
        let item: Item?
        struct Item: Decodable, Sendable, Hashable {
            let id: String
            let name: String
            let price: Double
        }
    }
    var variables: Variables
}

private struct RenameMutation: PrismGraphQLMutationOperation {
    static let operationName = "Rename"
    static let document =
        "mutation Rename($id: ID!, $name: String!) { rename(id: $id, name: $name) { __typename id name } }"
    struct Variables: Encodable, Sendable, Hashable {
        var id: String
        var name: String
    }
    struct Data: Decodable, Sendable { let rename: PrismGraphQLValue }
    var variables: Variables
}

/// `--filter "normalized"`: the bars of the normalized cache (issue 62): writing a 1,000-object
/// answer within 3x decoding the same JSON into the generated types, reading it back within 2x,
/// a watch's delivery after a one-record change under 50 us with 100 watches of which one is
/// affected; the memory of a record, reported.
@MainActor
func normalizedCacheBenchmarks() throws -> [Result] {
    guard selected("normalized") else { return [] }
    var results: [Result] = []
    let items = catalogItems()
    let answer = try JSONEncoder().encode(["data": PrismGraphQLValue.object(["catalog": .array(items)])])
    struct Envelope<T: Decodable>: Decodable { let data: T }

    // Writing: the answer's JSON into records (the JSON read as values, then normalized).
    let (write, decode) = measurePair(
        operations: 1, repetitions: 9,
        {
            let cache = PrismGraphQLNormalizedCache()
            let data = try! PrismGraphQLValue(json: answer).objectValue!["data"]!.objectValue!
            blackHole(try! cache.write(data: data, for: CatalogQuery()))
        },
        against: {
            blackHole(try! JSONDecoder().decode(Envelope<CatalogQuery.Data>.self, from: answer))
        })
    results.append(
        Result(
            name: "normalized cache: write a 1,000-object answer", timing: write,
            baselineName: "JSONDecoder into the generated types", baseline: decode, bar: .atMostRatio(3)))

    // Reading it back, decoded as the generated types.
    let cache = PrismGraphQLNormalizedCache()
    let data = try JSONDecoder().decode(Envelope<[String: PrismGraphQLValue]>.self, from: answer).data
    try cache.write(data: data, for: CatalogQuery())
    let count = try cache.read(CatalogQuery()).catalog.count
    precondition(count == 1_000)
    let (read, decodeAgain) = measurePair(
        operations: 1, repetitions: 9,
        { blackHole(try! cache.read(CatalogQuery())) },
        against: { blackHole(try! JSONDecoder().decode(Envelope<CatalogQuery.Data>.self, from: answer)) })
    results.append(
        Result(
            name: "normalized cache: read the 1,000-object answer back", timing: read,
            baselineName: "JSONDecoder into the generated types", baseline: decodeAgain, bar: .atMostRatio(2)))

    // A watch's delivery: 100 watches of one item each; a rename of one item.
    var watches: [AsyncStream<ItemQuery.Data>] = []
    for index in 0..<100 {
        try cache.write(
            data: ["item": ["__typename": "Item", "id": .string("item-\(index)"), "name": "x", "price": 1]],
            for: ItemQuery(variables: .init(id: "item-\(index)")))
        watches.append(cache.watch(ItemQuery(variables: .init(id: "item-\(index)"))))
    }
    var round = 0
    let delivery = measure(operations: 100, repetitions: 9) {
        for _ in 0..<100 {
            round += 1
            blackHole(
                try! cache.write(
                    data: ["rename": ["__typename": "Item", "id": "item-7", "name": .string("name \(round)")]],
                    for: RenameMutation(variables: .init(id: "item-7", name: "name \(round)"))))
        }
    }
    blackHole(watches)
    results.append(
        Result(
            name: "normalized cache: a one-record change delivered, 100 watches, 1 affected", timing: delivery,
            baselineName: nil, baseline: nil, bar: .atMostNanoseconds(50_000),
            note: "the write, the affected watch's read and its decoding"))

    // Memory: 100,000 records of four fields.
    if let before = heapInUse() {
        let big = PrismGraphQLNormalizedCache()
        for chunk in 0..<100 {
            let items: [PrismGraphQLValue] = (0..<1_000).map { index in
                let id = chunk * 1_000 + index
                return [
                    "__typename": "Item", "id": .string("i\(id)"), "name": .string("Item \(id)"), "price": .double(1.5),
                ]
            }
            struct Page: PrismGraphQLQueryOperation {
                static let operationName = "Page"
                static let document = "query Page($n: Int!) { page(n: $n) { __typename id name price } }"
                struct Variables: Encodable, Sendable { var n: Int }
                typealias Data = PrismGraphQLValue
                var variables: Variables
            }
            try big.write(data: ["page": .array(items)], for: Page(variables: .init(n: chunk)))
        }
        let after = heapInUse() ?? before
        blackHole(big)
        results.append(
            Result(
                name: "normalized cache: resident memory per record (100,000 records)",
                timing: Timing(nanosecondsPerOperation: 0), baselineName: nil, baseline: nil, bar: .none,
                note: "\((after - before) / 100_000) bytes a record of four fields"))
    }
    return results
}

/// `--filter "normalized"`, the parts that wait: the store on disk (opening a store that holds a
/// 1,000-object answer, as a relaunched app does; writing one and waiting for the file), and how
/// the normalizing client reads a response body (as values, for the cache) against `JSONDecoder`.
@MainActor
func normalizedStoreBenchmarks() async throws -> [Result] {
    guard selected("normalized") else { return [] }
    var results: [Result] = []
    let items = catalogItems()
    let body = try JSONEncoder().encode(["data": PrismGraphQLValue.object(["catalog": .array(items)])])
    struct Envelope<T: Decodable>: Decodable { let data: T }
    let data = try PrismGraphQLValue(json: body).objectValue?["data"]?.objectValue ?? [:]

    // The body as values: Prism's reader (the normalizing client's path) against JSONDecoder
    // into PrismGraphQLValue (its Decodable init tries each kind of value in turn).
    let (reader, decoder) = measurePair(
        operations: 1, repetitions: 9,
        { blackHole(try! PrismGraphQLValue(json: body)) },
        against: { blackHole(try! JSONDecoder().decode(PrismGraphQLValue.self, from: body)) })
    results.append(
        Result(
            name: "normalized client: a 1,000-object response read as values", timing: reader,
            baselineName: "JSONDecoder into PrismGraphQLValue", baseline: decoder, bar: .atMostRatio(1)))

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "prism-bench-normalized-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("cache.sqlite")
    let written = try await PrismGraphQLNormalizedCache.open(at: url)
    try written.write(data: data, for: CatalogQuery())
    try await written.close()

    let decode = measure(operations: 1, repetitions: 9) {
        blackHole(try! JSONDecoder().decode(Envelope<CatalogQuery.Data>.self, from: body))
    }
    let open = await measureAsync(operations: 1, repetitions: 9) {
        let cache = try! await PrismGraphQLNormalizedCache.open(at: url)
        blackHole(try! cache.read(CatalogQuery()))
        try! await cache.close()
    }
    results.append(
        Result(
            name: "normalized cache on disk: open a 1,000-object store and read the answer", timing: open,
            baselineName: "JSONDecoder into the generated types", baseline: decode, bar: .none,
            note: "a relaunched app's list before any request: 1,101 records read, checked and decoded"))

    let store = try await PrismGraphQLNormalizedCache.open(at: url)
    var round = 0
    let flush = await measureAsync(operations: 1, repetitions: 9) {
        round += 1
        let renamed = items.map { item -> PrismGraphQLValue in
            guard case .object(var fields) = item, case .string(let id)? = fields["id"] else { return item }
            fields["name"] = .string("\(id) round \(round)")
            return .object(fields)
        }
        try! store.write(data: ["catalog": .array(renamed)], for: CatalogQuery())
        try! await store.flush()
    }
    try await store.close()
    results.append(
        Result(
            name: "normalized cache on disk: write a 1,000-object answer and flush it", timing: flush,
            baselineName: "JSONDecoder into the generated types", baseline: decode, bar: .none,
            note: "1,000 changed records in one SQLite transaction (WAL, synchronous NORMAL)"))
    return results
}
