import Foundation
import PrismTestSupport
import Testing

@testable import PrismGraphQL

// Operations as the code generator writes them: `__typename` and the key fields in every
// selection of an object.

private struct ItemsQuery: PrismGraphQLQueryOperation {
    static let operationName = "Items"
    static let document = """
        query Items($first: Int = 2) {
          items(first: $first) { __typename id name owner { __typename login } }
          featured: item(id: "2") { __typename id name }
        }
        """
    struct Variables: Encodable, Sendable, Hashable { var first: Int? }
    struct Data: Decodable, Sendable, Hashable {
        let items: [Item]
        let featured: Featured?
        struct Item: Decodable, Sendable, Hashable {
            let id: String
            let name: String
            let owner: Owner
        }
        struct Owner: Decodable, Sendable, Hashable {
            let login: String
        }
        struct Featured: Decodable, Sendable, Hashable {
            let id: String
            let name: String
        }
    }
    var variables: Variables
}

private struct ItemQuery: PrismGraphQLQueryOperation {
    static let operationName = "Item"
    static let document = """
        query Item($id: ID!) { item(id: $id) { __typename id ...ItemDetail } }
        fragment ItemDetail on Item { name tags }
        """
    struct Variables: Encodable, Sendable, Hashable { var id: String }
    struct Data: Decodable, Sendable, Hashable {
        let item: Item?
        struct Item: Decodable, Sendable, Hashable {
            let id: String
            let name: String
            let tags: [String]
        }
    }
    var variables: Variables
}

private struct RenameMutation: PrismGraphQLMutationOperation {
    static let operationName = "Rename"
    static let document = """
        mutation Rename($id: ID!, $name: String!) { rename(id: $id, name: $name) { __typename id name } }
        """
    struct Variables: Encodable, Sendable, Hashable {
        var id: String
        var name: String
    }
    struct Data: Decodable, Sendable, Hashable {
        let rename: Renamed
        struct Renamed: Decodable, Sendable, Hashable {
            let id: String
            let name: String
        }
    }
    var variables: Variables
}

private struct SearchQuery: PrismGraphQLQueryOperation {
    static let operationName = "Search"
    static let document = """
        query Search($text: String!, $withOwner: Boolean!) {
          search(text: $text) {
            __typename
            ... on Item { id title: name owner @include(if: $withOwner) { __typename login } }
            ... on User { login }
          }
        }
        """
    struct Variables: Encodable, Sendable, Hashable {
        var text: String
        var withOwner: Bool
    }
    typealias Data = PrismGraphQLValue
    var variables: Variables
}

private func item(_ id: String, _ name: String, owner: String = "ada") -> PrismGraphQLValue {
    [
        "__typename": "Item", "id": .string(id), "name": .string(name),
        "owner": ["__typename": "User", "login": .string(owner)],
    ]
}

@Suite("The normalized cache")
struct NormalizedCacheTests {
    @Test("an answer read back is the answer; each object is one record under Type:id")
    func roundTrip() throws {
        let cache = PrismGraphQLNormalizedCache()
        let answer: [String: PrismGraphQLValue] = [
            "items": [item("1", "One"), item("2", "Two")],
            "featured": ["__typename": "Item", "id": "2", "name": "Two"],
        ]
        let changed = try cache.write(data: answer, for: ItemsQuery(variables: .init(first: 2)))
        #expect(changed.contains(PrismGraphQLCacheKey(rawValue: "Item:1")))
        #expect(try cache.readData(ItemsQuery(variables: .init(first: 2))) == answer)
        let data = try cache.read(ItemsQuery(variables: .init(first: 2)))
        #expect(data.items.map(\.name) == ["One", "Two"])
        #expect(data.featured?.name == "Two")
        // The item both fields reach is one record; the owner, without an id, is stored by path.
        #expect(cache.record(for: .init(rawValue: "Item:2"))?.fields["name"] == .value("Two"))
        #expect(
            cache.record(for: .queryRoot)?.fields["items({\"first\":2})"]
                == .list([.reference(.init(rawValue: "Item:1")), .reference(.init(rawValue: "Item:2"))]))
        #expect(cache.record(for: .init(rawValue: "Item:1.owner"))?.fields["login"] == .value("ada"))
    }

    @Test("a mutation's answer renames the item for every query that shows it")
    func mutationUpdatesEveryQuery() throws {
        let cache = PrismGraphQLNormalizedCache()
        try cache.write(
            data: [
                "items": [item("1", "One"), item("2", "Two")],
                "featured": ["__typename": "Item", "id": "2", "name": "Two"],
            ],
            for: ItemsQuery(variables: .init(first: 2)))
        try cache.write(
            data: ["item": ["__typename": "Item", "id": "2", "name": "Two", "tags": ["a"]]],
            for: ItemQuery(variables: .init(id: "2")))
        let changed = try cache.write(
            data: ["rename": ["__typename": "Item", "id": "2", "name": "Deux"]],
            for: RenameMutation(variables: .init(id: "2", name: "Deux")))
        #expect(changed == [PrismGraphQLCacheKey(rawValue: "Item:2")])
        #expect(cache.record(for: .mutationRoot) == nil)
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).items.map(\.name) == ["One", "Deux"])
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).featured?.name == "Deux")
        #expect(try cache.read(ItemQuery(variables: .init(id: "2"))).item?.name == "Deux")
        // The same answer again changes nothing.
        #expect(
            try cache.write(
                data: ["rename": ["__typename": "Item", "id": "2", "name": "Deux"]],
                for: RenameMutation(variables: .init(id: "2", name: "Deux"))
            ).isEmpty)
    }

    @Test("fields with other arguments are apart: a read with first: 3 misses, naming the field")
    func argumentsApart() throws {
        let cache = PrismGraphQLNormalizedCache()
        try cache.write(
            data: ["items": [item("1", "One")], "featured": .null], for: ItemsQuery(variables: .init(first: 2)))
        let error = #expect(throws: PrismGraphQLError.self) { try cache.read(ItemsQuery(variables: .init(first: 3))) }
        #expect(error?.code == .cacheMiss)
        #expect(error?.message.contains("QUERY_ROOT.items({\"first\":3})") == true)
        // The variable's default is the document's: no variable given reads first: 2.
        #expect(try cache.read(ItemsQuery(variables: .init(first: nil))).items.count == 1)
    }

    @Test("a field another query did not select is a miss, not a partial answer")
    func missingField() throws {
        let cache = PrismGraphQLNormalizedCache()
        try cache.write(
            data: ["items": [item("2", "Two")], "featured": ["__typename": "Item", "id": "2", "name": "Two"]],
            for: ItemsQuery(variables: .init(first: 2)))
        // The item is there (the other query's `featured`), but not its tags.
        let error = #expect(throws: PrismGraphQLError.self) { try cache.read(ItemQuery(variables: .init(id: "2"))) }
        #expect(error?.code == .cacheMiss)
        #expect(error?.message.contains("Item:2.tags") == true)
        // A field stored as null is an answer: null.
        try cache.write(data: ["items": [], "featured": .null], for: ItemsQuery(variables: .init(first: 2)))
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).featured == nil)
    }

    @Test("fragments on types, aliases and @include are followed as the server follows them")
    func fragmentsAndAliases() throws {
        let cache = PrismGraphQLNormalizedCache()
        let answer: [String: PrismGraphQLValue] = [
            "search": [
                ["__typename": "Item", "id": "7", "title": "Seven", "owner": ["__typename": "User", "login": "bo"]],
                ["__typename": "User", "login": "cy"],
            ]
        ]
        try cache.write(data: answer, for: SearchQuery(variables: .init(text: "s", withOwner: true)))
        #expect(try cache.readData(SearchQuery(variables: .init(text: "s", withOwner: true))) == answer)
        // Stored under the field's name, not its alias.
        #expect(cache.record(for: .init(rawValue: "Item:7"))?.fields["name"] == .value("Seven"))
        // Without the owner, the same records answer with less.
        let lean = try cache.readData(SearchQuery(variables: .init(text: "s", withOwner: false)))
        #expect(lean["search"]?.arrayValue?.first?.objectValue?["owner"] == nil)
        #expect(lean["search"]?.arrayValue?.first?.objectValue?["title"] == "Seven")
    }

    @Test("an answer that lacks a selected field is refused whole: nothing is written")
    func incompleteAnswer() throws {
        let cache = PrismGraphQLNormalizedCache()
        let error = #expect(throws: PrismGraphQLError.self) {
            try cache.write(
                data: ["items": [["__typename": "Item", "id": "1", "name": "One"]], "featured": .null],
                for: ItemsQuery(variables: .init(first: 2)))
        }
        #expect(error?.code == .invalidDocument)
        #expect(cache.keys.isEmpty)
    }

    @Test("key fields by type, and possible types for fragments on interfaces")
    func configuration() throws {
        struct NodeQuery: PrismGraphQLQueryOperation {
            static let operationName = "Node"
            static let document = """
                query Node { node { __typename ... on Named { name } ... on Repository { owner name stars } } }
                """
            typealias Data = PrismGraphQLValue
        }
        let cache = PrismGraphQLNormalizedCache(
            configuration: .init(
                keyFields: ["Repository": ["owner", "name"]], possibleTypes: ["Named": ["Repository"]]))
        let answer: [String: PrismGraphQLValue] = [
            "node": ["__typename": "Repository", "name": "prism", "owner": "acme", "stars": 5]
        ]
        try cache.write(data: answer, for: NodeQuery())
        #expect(cache.keys.contains(.init(rawValue: #"Repository:{"name":"prism","owner":"acme"}"#)))
        #expect(try cache.readData(NodeQuery()) == answer)
    }
}

@Suite("Writes of the app's: fragments, transactions, optimistic answers")
struct NormalizedCacheWriteTests {
    private static let itemName = "fragment ItemName on Item { __typename id name }"

    private func filled() throws -> PrismGraphQLNormalizedCache {
        let cache = PrismGraphQLNormalizedCache()
        try cache.write(
            data: ["items": [item("1", "One"), item("2", "Two")], "featured": .null],
            for: ItemsQuery(variables: .init(first: 2)))
        return cache
    }

    @Test("a fragment written at a key changes the record every query reads; a fragment read back")
    func fragments() throws {
        let cache = try filled()
        try cache.writeFragment(
            data: ["__typename": "Item", "id": "2", "name": "Deux"], fragment: Self.itemName,
            at: .init(rawValue: "Item:2"))
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).items.map(\.name) == ["One", "Deux"])
        #expect(try cache.readFragment(Self.itemName, at: .init(rawValue: "Item:1"))["name"] == "One")
        let missing = #expect(throws: PrismGraphQLError.self) {
            try cache.readFragment(Self.itemName, at: .init(rawValue: "Item:9"))
        }
        #expect(missing?.code == .cacheMiss)
    }

    @Test("a generated fragment read from and written to a record")
    func typedFragments() throws {
        struct ItemName: PrismGraphQLFragment {
            static let fragmentDefinition = "fragment ItemName on Item { __typename id name }"
            static let possibleTypes: Set<String> = ["Item"]
            let id: String
            let name: String
        }
        let cache = try filled()
        #expect(try cache.read(ItemName.self, at: .init(rawValue: "Item:1")).name == "One")
        try cache.write(
            data: ["__typename": "Item", "id": "1", "name": "Un"], for: ItemName.self, at: .init(rawValue: "Item:1"))
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).items.first?.name == "Un")
    }

    @Test("a transaction's writes reach a watch as one delivery; a failing write leaves the cache as it was")
    func transactions() async throws {
        let cache = try filled()
        var answers = cache.watch(ItemsQuery(variables: .init(first: 2))).makeAsyncIterator()
        #expect(await answers.next()?.items.map(\.name) == ["One", "Two"])
        try cache.performTransaction { transaction in
            try transaction.write(
                data: ["rename": ["__typename": "Item", "id": "1", "name": "Un"]],
                for: RenameMutation(variables: .init(id: "1", name: "Un")))
            try transaction.write(
                data: ["rename": ["__typename": "Item", "id": "2", "name": "Deux"]],
                for: RenameMutation(variables: .init(id: "2", name: "Deux")))
        }
        #expect(await answers.next()?.items.map(\.name) == ["Un", "Deux"])

        #expect(throws: PrismGraphQLError.self) {
            try cache.performTransaction { transaction in
                try transaction.write(
                    data: ["rename": ["__typename": "Item", "id": "1", "name": "Eins"]],
                    for: RenameMutation(variables: .init(id: "1", name: "Eins")))
                try transaction.write(
                    data: ["rename": ["__typename": "Item", "id": "2"]],
                    for: RenameMutation(variables: .init(id: "2", name: "")))
            }
        }
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).items.map(\.name) == ["Un", "Deux"])
    }

    @Test("optimistic answers lie over the records until removed; two at once each keep their own")
    func optimisticLayers() throws {
        let cache = try filled()
        let first = try cache.writeOptimistically(
            data: ["rename": ["__typename": "Item", "id": "1", "name": "Un?"]],
            for: RenameMutation(variables: .init(id: "1", name: "Un?")))
        let second = try cache.writeOptimistically(
            data: ["rename": ["__typename": "Item", "id": "1", "name": "Eins?"]],
            for: RenameMutation(variables: .init(id: "1", name: "Eins?")))
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).items.first?.name == "Eins?")
        // The server's answer goes under the optimistic ones.
        try cache.write(
            data: ["rename": ["__typename": "Item", "id": "1", "name": "Un"]],
            for: RenameMutation(variables: .init(id: "1", name: "Un")))
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).items.first?.name == "Eins?")
        cache.removeOptimisticUpdate(second)
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).items.first?.name == "Un?")
        cache.removeOptimisticUpdate(first)
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).items.first?.name == "Un")
    }
}

@Suite("Collecting the normalized cache's records")
struct NormalizedCacheCollectionTests {
    @Test("records no query reaches are collected; those a query or an optimistic answer shows are kept")
    func collects() throws {
        let cache = PrismGraphQLNormalizedCache()
        try cache.write(
            data: ["items": [item("1", "One"), item("2", "Two")], "featured": .null],
            for: ItemsQuery(variables: .init(first: 2)))
        // The list now holds item 3 instead of item 2: item 2 and its owner are reached by nothing.
        try cache.write(
            data: ["items": [item("1", "One"), item("3", "Three")], "featured": .null],
            for: ItemsQuery(variables: .init(first: 2)))
        let update = try cache.writeOptimistically(
            data: ["rename": ["__typename": "Item", "id": "9", "name": "Nine"]],
            for: RenameMutation(variables: .init(id: "9", name: "Nine")))
        #expect(cache.collectGarbage() == 2)
        #expect(cache.record(for: .init(rawValue: "Item:2")) == nil)
        #expect(cache.record(for: .init(rawValue: "Item:2.owner")) == nil)
        #expect(cache.record(for: .init(rawValue: "Item:9"))?.fields["name"] == .value("Nine"))
        #expect(try cache.read(ItemsQuery(variables: .init(first: 2))).items.map(\.name) == ["One", "Three"])
        cache.removeOptimisticUpdate(update)
        #expect(cache.collectGarbage() == 0)
    }

    @Test("past the record budget, the root fields written longest ago go first, with what they alone reached")
    func budget() throws {
        let cache = PrismGraphQLNormalizedCache(configuration: .init(maximumRecordCount: 6))
        for id in 1...4 {
            try cache.write(
                data: ["item": ["__typename": "Item", "id": .string("\(id)"), "name": "n", "tags": []]],
                for: ItemQuery(variables: .init(id: "\(id)")))
        }
        // The root and five items would be six: within the budget. The sixth item is one too many.
        try cache.write(
            data: ["item": ["__typename": "Item", "id": "5", "name": "n", "tags": []]],
            for: ItemQuery(variables: .init(id: "5")))
        #expect(cache.keys.count == 6)
        try cache.write(
            data: ["item": ["__typename": "Item", "id": "6", "name": "n", "tags": []]],
            for: ItemQuery(variables: .init(id: "6")))
        #expect(cache.keys.count <= 6)
        #expect((try? cache.read(ItemQuery(variables: .init(id: "6")))) != nil)
        let evicted = #expect(throws: PrismGraphQLError.self) { try cache.read(ItemQuery(variables: .init(id: "1"))) }
        #expect(evicted?.code == .cacheMiss)
    }
}

@Suite("Freshness in the normalized cache")
struct NormalizedCacheFreshnessTests {
    @Test("a field is stale past its type's max age, or its own; a type not named never is")
    func maxAge() async throws {
        let clock = TestClock()
        let cache = PrismGraphQLNormalizedCache(
            configuration: .init(maxAge: ["Item": .seconds(60), "Item.name": .seconds(10)]), clock: clock)
        try cache.write(
            data: ["item": ["__typename": "Item", "id": "1", "name": "One", "tags": []]],
            for: ItemQuery(variables: .init(id: "1")))
        try cache.write(
            data: ["items": [item("1", "One")], "featured": .null], for: ItemsQuery(variables: .init(first: 2)))
        #expect(cache.freshness(of: ItemQuery(variables: .init(id: "1"))) == (true, false))
        await clock.advance(by: .seconds(11))
        // The name is past its 10 seconds; the items' owner (a User) has no max age.
        #expect(cache.freshness(of: ItemQuery(variables: .init(id: "1"))) == (true, true))
        try cache.writeFragment(
            data: ["__typename": "Item", "id": "1", "name": "One"],
            fragment: "fragment N on Item { __typename id name }",
            at: .init(rawValue: "Item:1"))
        #expect(cache.freshness(of: ItemQuery(variables: .init(id: "1"))) == (true, false))
        await clock.advance(by: .seconds(50))
        // The tags were written 61 seconds ago: past the type's 60.
        #expect(cache.freshness(of: ItemQuery(variables: .init(id: "1"))) == (true, true))
        #expect(cache.freshness(of: ItemQuery(variables: .init(id: "9"))) == (false, false))
    }
}

@Suite("Watching the normalized cache")
struct NormalizedCacheWatchTests {
    @Test("a watched query is delivered again when a mutation changes a record it read, and only then")
    func watchDelivers() async throws {
        let cache = PrismGraphQLNormalizedCache()
        try cache.write(
            data: ["items": [item("1", "One"), item("2", "Two")], "featured": .null],
            for: ItemsQuery(variables: .init(first: 2)))
        try cache.write(
            data: ["item": ["__typename": "Item", "id": "3", "name": "Three", "tags": []]],
            for: ItemQuery(variables: .init(id: "3")))
        var answers = cache.watch(ItemsQuery(variables: .init(first: 2))).makeAsyncIterator()
        #expect(await answers.next()?.items.map(\.name) == ["One", "Two"])

        // Item 3 is not in the list: nothing is delivered for it. The rename of item 2 is.
        try cache.write(
            data: ["rename": ["__typename": "Item", "id": "3", "name": "Drei"]],
            for: RenameMutation(variables: .init(id: "3", name: "Drei")))
        try cache.write(
            data: ["rename": ["__typename": "Item", "id": "2", "name": "Deux"]],
            for: RenameMutation(variables: .init(id: "2", name: "Deux")))
        #expect(await answers.next()?.items.map(\.name) == ["One", "Deux"])

        // A write that leaves the answer as it was delivers nothing; the next change does.
        try cache.write(
            data: ["rename": ["__typename": "Item", "id": "2", "name": "Deux"]],
            for: RenameMutation(variables: .init(id: "2", name: "Deux")))
        try cache.write(
            data: ["rename": ["__typename": "Item", "id": "1", "name": "Un"]],
            for: RenameMutation(variables: .init(id: "1", name: "Un")))
        #expect(await answers.next()?.items.map(\.name) == ["Un", "Deux"])
    }

    @Test("a watch of an operation the cache cannot answer yet delivers once a write completes it")
    func watchWaitsForData() async throws {
        let cache = PrismGraphQLNormalizedCache()
        var answers = cache.watch(ItemQuery(variables: .init(id: "9"))).makeAsyncIterator()
        try cache.write(
            data: ["item": ["__typename": "Item", "id": "9", "name": "Nine", "tags": ["x"]]],
            for: ItemQuery(variables: .init(id: "9")))
        #expect(await answers.next()?.item?.tags == ["x"])
    }

    @Test("a watch that ends leaves the cache")
    func watchEnds() async throws {
        let cache = PrismGraphQLNormalizedCache()
        let reader = Task {
            for await _ in cache.watch(ItemQuery(variables: .init(id: "9"))) {}
        }
        reader.cancel()
        await reader.value
        #expect(cache.watcherCount == 0)
    }
}

@Suite("The normalized cache's document reader")
struct GraphQLDocumentParserTests {
    @Test("operations, fragments, aliases, arguments of every kind, directives and block strings")
    func parses() throws {
        let document = try GraphQLDocumentParser.parse(
            #"""
            # a comment
            query Q($a: [Int!]! = [1, 2], $b: In = {x: "y\u00e9\n", z: ENUM}) @live {
              alias: field(a: $a, b: $b, c: -1.5e3, d: null, e: true, f: """
                block
                  text
              """) @include(if: $flag) @other { sub }
              ...F
              ... @skip(if: true) { g }
            }
            fragment F on T { h }
            """#)
        let operation = try #require(document.operation(named: "Q"))
        #expect(operation.type == .query)
        #expect(operation.variableDefaults["a"]?.resolved([:]) == [1, 2])
        #expect(operation.variableDefaults["b"]?.resolved([:]) == ["x": "yé\n", "z": "ENUM"])
        guard case .field(let field) = operation.selections.first else {
            Issue.record("no field")
            return
        }
        #expect(field.responseKey == "alias")
        #expect(field.name == "field")
        #expect(field.arguments.map(\.name) == ["a", "b", "c", "d", "e", "f"])
        #expect(field.arguments[2].value.resolved([:]) == .double(-1500))
        #expect(field.arguments[5].value.resolved([:]) == .string("block\n  text"))
        #expect(field.conditions.count == 1)
        #expect(document.fragments["F"]?.typeCondition == "T")
    }

    @Test(
        "a broken document is a typed error with its line and column",
        arguments: [
            ("query { a(b: ) }", 1), ("query {\n a { } }", 2), ("query { a ", 1), ("fragment F T { a }", 1),
            ("{ a(b: \"unterminated) }", 1), ("{ a(b: \"\\q\") }", 1), ("", 1), ("query { a(b: 1.2.3e) }", 1),
        ])
    func refuses(document: String, line: Int) {
        let error = #expect(throws: GraphQLDocumentError.self) { try GraphQLDocumentParser.parse(document) }
        #expect(error?.line == line)
    }

    @Test("nesting deeper than the limit is refused, not a crash")
    func deepNesting() {
        let deep = "{ " + String(repeating: "a { ", count: 10_000) + "b" + String(repeating: " }", count: 10_001)
        let error = #expect(throws: GraphQLDocumentError.self) { try GraphQLDocumentParser.parse(deep) }
        #expect(error?.message.contains("deeper") == true)
        let list = "{ a(b: " + String(repeating: "[", count: 10_000) + ") }"
        #expect(throws: GraphQLDocumentError.self) { try GraphQLDocumentParser.parse(list) }
    }
}

@Suite("PrismGraphQLValue(json:)")
struct JSONValueTests {
    @Test("JSON text read as values: integers apart from other numbers, escapes, nesting")
    func reads() throws {
        let value = try PrismGraphQLValue(
            json: Data(
                #" {"a": [1, -2, 3.5, 1e3, 12345678901234567890], "b": "\u00e9\ud83d\ude00\n\"", "c": null, "d": true} "#
                    .utf8))
        #expect(value.objectValue?["a"] == [1, -2, 3.5, 1000.0, .double(Double("12345678901234567890")!)])
        #expect(value.objectValue?["b"] == "é😀\n\"")
        #expect(value.objectValue?["c"] == .null)
        #expect(value.objectValue?["d"] == true)
    }

    @Test(
        "text that is not JSON is a typed error, not a crash",
        arguments: [
            "", "{", "[1,]", "{\"a\" 1}", "\"\\x\"", "01x", "[1] 2", "nul", "\"\u{1}\"", "-", "{\"a\":}",
            String(repeating: "[", count: 100_000),
        ])
    func refuses(text: String) {
        let error = #expect(throws: PrismGraphQLError.self) { try PrismGraphQLValue(json: Data(text.utf8)) }
        #expect(error?.code == .invalidResponse)
    }
}

@Suite("Decoding straight from values, as JSONDecoder decodes the JSON")
struct ValueDecoderTests {
    private struct Everything: Decodable, Equatable {
        enum Kind: String, Decodable { case a, b }
        struct Inner: Decodable, Equatable {
            let name: String
            let more: [Int?]
        }
        let int: Int
        let small: Int8?
        let unsigned: UInt32?
        let double: Double
        let float: Float
        let flag: Bool
        let text: String
        let date: Date?
        let url: URL?
        let bytes: Data?
        let decimal: Decimal?
        let kind: Kind
        let missing: String?
        let null: String?
        let inner: [Inner]
        let nested: [[String: Double]]
    }

    private func bothWays(_ json: String) -> (
        ours: Result<Everything, any Error>, reference: Result<Everything, any Error>
    ) {
        let data = Data(json.utf8)
        let reference = Result { () throws -> Everything in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(Everything.self, from: data)
        }
        let ours = Result { () throws -> Everything in try PrismGraphQLValue(json: data).decoded(as: Everything.self) }
        return (ours, reference)
    }

    @Test(
        "the same values, or an error both ways",
        arguments: [
            #"{"int": 1, "small": 5, "unsigned": 7, "double": 2, "float": 1.5, "flag": true, "text": "t", "date": "2026-11-30T10:00:00Z", "url": "https://example.com/a", "bytes": "AAEC", "decimal": 1.25, "kind": "a", "null": null, "inner": [{"name": "n", "more": [1, null, 3]}], "nested": [{"x": 1, "y": 2.5}]}"#,
            #"{"int": 1.0, "double": 2.5, "float": 0, "flag": false, "text": "", "kind": "b", "inner": [], "nested": []}"#,
            #"{"int": 1.5, "double": 2, "float": 0, "flag": false, "text": "", "kind": "b", "inner": [], "nested": []}"#,
            #"{"int": 1, "small": 300, "double": 2, "float": 0, "flag": false, "text": "", "kind": "b", "inner": [], "nested": []}"#,
            #"{"int": 1, "unsigned": -1, "double": 2, "float": 0, "flag": false, "text": "", "kind": "b", "inner": [], "nested": []}"#,
            #"{"int": 1, "double": 2, "float": 0, "flag": 1, "text": "", "kind": "b", "inner": [], "nested": []}"#,
            #"{"int": 1, "double": 2, "float": 0, "flag": true, "text": 5, "kind": "b", "inner": [], "nested": []}"#,
            #"{"int": 1, "double": 2, "float": 0, "flag": true, "text": "", "kind": "c", "inner": [], "nested": []}"#,
            #"{"int": 1, "double": 2, "float": 0, "flag": true, "text": "", "kind": "a", "date": "yesterday", "inner": [], "nested": []}"#,
            #"{"int": null, "double": 2, "float": 0, "flag": true, "text": "", "kind": "a", "inner": [], "nested": []}"#,
            #"{"double": 2, "float": 0, "flag": true, "text": "", "kind": "a", "inner": [], "nested": []}"#,
            #"{"int": 1, "double": 2, "float": 0, "flag": true, "text": "", "kind": "a", "inner": [{"name": "n"}], "nested": []}"#,
            #"[1, 2]"#,
        ])
    func agrees(json: String) {
        let (ours, reference) = bothWays(json)
        switch (ours, reference) {
        case (.success(let mine), .success(let theirs)): #expect(mine == theirs)
        case (.failure, .failure): break
        default: Issue.record("ours: \(ours), JSONDecoder's: \(reference)")
        }
    }
}
