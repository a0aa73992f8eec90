import Foundation
import PrismGraphQL
import PrismHTTP
import PrismTestServer
import Testing

/// The types the build tool plugin generated from this folder's operations and `schema.graphqls`
/// (1 MB of SDL, 1,200 types: `Tools/scripts/generate-large-schema.py`), sent to the test
/// server's `/graphql/mock`, which executes each operation against the same schema with made-up
/// values (lists of two, abstract fields resolved to one of their types, nulls here and there).
/// One test at a time: each sends dozens of operations that the server validates against the
/// large schema, which would crowd out other suites' timing-sensitive tests.
@Suite("Generated operations against a 1 MB schema, answered by a server that executes them", .serialized)
struct LargeSchemaTests {
    static let folder = URL(filePath: #filePath).deletingLastPathComponent()
    static let schema = (try? String(contentsOf: folder.appending(path: "schema.graphqls"), encoding: .utf8)) ?? ""
    /// Several variables for each operation: the server's answers depend on them.
    static let ids = ["1", "2", "3", "4", "5"]

    /// The object types that implement `interface`, read from the schema's text.
    static func implementers(of interface: String) -> Set<String> {
        var names: Set<String> = []
        for line in schema.split(separator: "\n") where line.hasPrefix("type ") && line.contains(" implements ") {
            let words = line.split(separator: " ")
            if words.dropFirst(3).contains(where: { $0 == interface }) { names.insert(String(words[1])) }
        }
        return names
    }

    static func withMockServer(
        _ body: @Sendable (PrismGraphQLClient, PrismTestServer) async throws -> Void
    ) async throws {
        try await PrismTestServer.withRunning { (server: PrismTestServer) async throws in
            let adapter = PrismNetworkAdapter(cache: nil)
            let put = try await adapter.send(
                PrismHTTPRequest(
                    url: server.url("/graphql/mock/schema"), method: .put, body: Data(Self.schema.utf8)))
            try #require(put.statusCode == 204, "the server did not take the schema: \(put.statusCode)")
            let client = PrismGraphQLClient(
                endpointURL: server.url("/graphql/mock"), networkClient: adapter, cache: nil)
            try await body(client, server)
        }
    }

    /// Executes `operation` and returns its data, checking that the server got the generated
    /// document and answered without errors.
    static func data<Operation: PrismGraphQLExecutableOperation>(
        _ operation: Operation, client: PrismGraphQLClient, server: PrismTestServer
    ) async throws -> Operation.Data {
        let response = try await client.execute(operation)
        #expect(response.errors == nil, "\(Operation.operationName): \(response.errors ?? [])")
        #expect(server.graphQLOperations.last?.query == Operation.document)
        return try response.requireData()
    }

    @Test("a product page: every kind of scalar, enums, lists, a deprecated field, a union and an interface")
    func detail() async throws {
        try await Self.withMockServer { client, server in
            var kinds: Set<String> = []
            for id in Self.ids {
                let item = try #require(
                    try await Self.data(CatalogItemDetailQuery(id: id), client: client, server: server).catalogItem)
                #expect(item.__typename == "CatalogItem")
                #expect(item.name == "data.catalogItem.name")
                #expect(item.related.count == 2)
                #expect(
                    item.related.map(\.name) == [
                        "data.catalogItem.related[0].name", "data.catalogItem.related[1].name",
                    ])
                if let kind = item.kind {
                    // Every value the server sends is in the schema: none is unknown.
                    if case .unknown(let value) = kind { Issue.record("\(value) decoded as unknown") }
                    kinds.insert(kind.rawValue)
                }
                if let result = item.result {
                    switch result.on {
                    case .catalogItem(let member): #expect(result.__typename == "CatalogItem" && !member.name.isEmpty)
                    case .catalogDraft(let member):
                        #expect(result.__typename == "CatalogDraft" && !member.height.isEmpty)
                    case .unknown: Issue.record("CatalogGroupResult has only CatalogItem and CatalogDraft")
                    }
                }
                if let owner = item.owner {
                    #expect(Self.implementers(of: "CatalogItemNode").contains(owner.__typename))
                    #expect(owner.labelled.catalogItemNodeLabel == "data.catalogItem.owner.catalogItemNodeLabel")
                }
            }
            #expect(!kinds.isEmpty)
        }
    }

    @Test("a chain nine objects deep decodes to its end")
    func chain() async throws {
        try await Self.withMockServer { client, server in
            var deepest = 0
            for id in Self.ids {
                let item = try #require(
                    try await Self.data(CatalogChainQuery(id: id), client: client, server: server).catalogItem)
                var depth = 0
                var path = "data.catalogItem"
                if let n1 = item.next {
                    depth = 1
                    path += ".next"
                    #expect(n1.name == path + ".name")
                    if let n8 = n1.next?.next?.next?.next?.next?.next?.next {
                        depth = 8
                        #expect(n8.name == "data.catalogItem" + String(repeating: ".next", count: 8) + ".name")
                        #expect(n8.__typename == "CatalogGroup")
                    }
                }
                deepest = max(deepest, depth)
            }
            #expect(deepest == 8, "no answer reached the end of the chain")
        }
    }

    @Test("lists filtered by nested input objects; absent fields left out, null sent as null")
    func inputs() async throws {
        try await Self.withMockServer { client, server in
            var filter = GraphQLSchema.CatalogItemInput(name: "lamps")
            filter.note = nil
            filter.kind = .value(.value2)
            filter.children = [GraphQLSchema.CatalogItemInput(name: "desk lamps", limit: 5)]
            filter.nested = .value(GraphQLSchema.CatalogRecordInput(name: "inner", tags: ["a", "b"]))
            let items = try await Self.data(
                CatalogItemsQuery(filter: .value(filter), first: 2), client: client, server: server
            ).catalogItemList
            #expect(items.count == 2)
            #expect(items.allSatisfy { $0.catalogItemCard.__typename == "CatalogItem" })
            #expect(
                server.graphQLOperations.last?.variables
                    == #"{"filter":{"children":[{"limit":5,"name":"desk lamps"}],"kind":"VALUE_2","name":"lamps","nested":{"name":"inner","tags":["a","b"]},"note":null},"first":2}"#
            )
            let saved = try await Self.data(
                SaveCatalogItemMutation(input: GraphQLSchema.CatalogItemInput(name: "chair")), client: client,
                server: server
            ).saveCatalogItem
            #expect(saved.catalogItemCard.name == "data.saveCatalogItem.name")
            #expect(server.graphQLOperations.last?.variables == #"{"input":{"name":"chair"}}"#)
            let two = try await Self.data(
                SaveTwoMutation(
                    first: GraphQLSchema.CatalogItemInput(name: "a"), second: GraphQLSchema.OrderRecordInput(name: "b")),
                client: client, server: server)
            #expect(two.saveCatalogItem.name == "data.saveCatalogItem.name")
            #expect(two.saveOrderRecord.name == "data.saveOrderRecord.name")
        }
    }

    @Test("aliases, and fields under @include and @skip present only when the variables say so")
    func aliasesAndConditions() async throws {
        try await Self.withMockServer { client, server in
            for withTags in [true, false] {
                let data = try await Self.data(
                    TwoItemsQuery(a: "1", b: "2", withTags: withTags), client: client, server: server)
                let second = try #require(data.second)
                #expect(second.name == "data.second.name")
                #expect((second.tags != nil) == withTags)
                #expect((second.count != nil) == !withTags)
                #expect(data.first?.catalogItemCard.name == "data.first.name")
            }
            let profile = try await Self.data(
                CustomerProfileDetailQuery(id: "1"), client: client, server: server
            ).customerProfile
            #expect(profile?.recent.first?.name == "data.customerProfile.recent[0].name")
            #expect(profile?.older.last?.name == "data.customerProfile.older[1].name")
            let both = try await Self.data(
                CustomerProfileAndItemQuery(profile: "1", item: "2"), client: client, server: server)
            #expect(both.customerProfile?.name == "data.customerProfile.name")
            #expect(both.catalogItem?.catalogItemCard.title == "data.catalogItem.title")
        }
    }

    @Test("searches over unions: each result's case is its __typename's")
    func unions() async throws {
        try await Self.withMockServer { client, server in
            var seen: Set<String> = []
            for text in Self.ids {
                for result in try await Self.data(
                    SearchCatalogGroupsQuery(text: text), client: client, server: server
                ).searchCatalogGroupResult {
                    switch result.on {
                    case .catalogItem: #expect(result.__typename == "CatalogItem")
                    case .catalogDraft: #expect(result.__typename == "CatalogDraft")
                    case .unknown: Issue.record("an unexpected \(result.__typename)")
                    }
                    seen.insert(result.__typename)
                }
                for result in try await Self.data(
                    SearchCatalogBatchesQuery(text: text), client: client, server: server
                ).searchCatalogBatchResult {
                    switch result.on {
                    case .catalogReport: #expect(result.__typename == "CatalogReport")
                    case .orderMetric: #expect(result.__typename == "OrderMetric")
                    case .paymentClaim(let claim):
                        #expect(result.__typename == "PaymentClaim")
                        #expect(claim.tags.count == 2)
                    case .unknown: #expect(["CustomerTrace", "ShippingSegment"].contains(result.__typename))
                    }
                    seen.insert(result.__typename)
                }
                for result in try await Self.data(
                    SearchCatalogProfilesQuery(text: text), client: client, server: server
                ).searchCatalogProfileResult {
                    if case .catalogBatch(let batch) = result.on {
                        #expect(result.__typename == "CatalogBatch")
                        #expect(batch.name.hasSuffix(".name"))
                    } else {
                        #expect(["OrderGroup", "CustomerEvent"].contains(result.__typename))
                    }
                }
                let snapshots = try await Self.data(
                    SearchCatalogSnapshotsQuery(text: text), client: client, server: server
                ).results
                #expect(snapshots.count == 2)
                let groups = try await Self.data(
                    SearchOrderGroupsQuery(text: text), client: client, server: server
                ).searchOrderGroupResult
                #expect(groups.allSatisfy { !$0.__typename.isEmpty })
            }
            #expect(seen.count >= 4, "the answers did not mix the unions' members: \(seen)")
        }
    }

    @Test("the Node interface: conditions on objects and on another interface")
    func interfaces() async throws {
        try await Self.withMockServer { client, server in
            let labelled = Self.implementers(of: "CatalogItemNode")
            for id in Self.ids {
                let node = try #require(try await Self.data(NodeByIdQuery(id: id), client: client, server: server).node)
                switch node.on {
                case .catalogItem: #expect(node.__typename == "CatalogItem")
                case .orderRecord: #expect(node.__typename == "OrderRecord")
                case .unknown: #expect(!["CatalogItem", "OrderRecord"].contains(node.__typename))
                }
                #expect((node.asCatalogItemNode != nil) == labelled.contains(node.__typename))
                let basics = try #require(
                    try await Self.data(NodeBasicsQuery(id: id), client: client, server: server).node)
                #expect(basics.basics.id == basics.id)
                let owner = try await Self.data(CatalogItemOwnerQuery(id: id), client: client, server: server)
                if let owner = owner.catalogItem?.owner {
                    #expect(labelled.contains(owner.__typename))
                }
            }
        }
    }

    @Test("orders, customers and enums: the rest of the operations decode")
    func others() async throws {
        try await Self.withMockServer { client, server in
            for id in Self.ids {
                let order = try await Self.data(OrderRecordDetailQuery(id: id), client: client, server: server)
                #expect(order.orderRecord?.related.count == 2)
                let summaries = try await Self.data(
                    OrderSummariesQuery(filter: .value(GraphQLSchema.CustomerSnapshotInput(name: id))), client: client,
                    server: server)
                #expect(summaries.orderSummaryList.count == 2)
                _ = try await Self.data(
                    SaveOrderRecordMutation(input: GraphQLSchema.OrderRecordInput(name: id)), client: client,
                    server: server)
                let kinds = try await Self.data(EveryKindQuery(id: id), client: client, server: server)
                if let weight = kinds.catalogItem?.weight {
                    if case .unknown(let value) = weight { Issue.record("\(value) decoded as unknown") }
                }
            }
        }
    }

    @Test("subscriptions' data decodes from an answer the server executed")
    func subscriptions() async throws {
        try await Self.withMockServer { client, server in
            let changed = try await client.execute(
                PrismGraphQLQuery(CatalogItemChangedSubscription(id: "1")), as: CatalogItemChangedSubscription.Data.self
            ).requireData()
            #expect(changed.catalogItemChanged.name == "data.catalogItemChanged.name")
            let changes = try await client.execute(
                PrismGraphQLQuery(CustomerChangesSubscription(id: "1")), as: CustomerChangesSubscription.Data.self
            ).requireData()
            if let owner = changes.catalogItemChanged.owner {
                #expect(owner.labelled.catalogItemNodeLabel.hasSuffix("catalogItemNodeLabel"))
            }
        }
    }

    @Test("the folder holds at least 20 operations and a schema of more than 1 MB")
    func counts() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path(percentEncoded: false))
            .filter { $0.hasSuffix(".graphql") }
        var operations = 0
        for file in files {
            let text = try String(contentsOf: Self.folder.appending(path: file), encoding: .utf8)
            operations +=
                text.split(separator: "\n").filter {
                    $0.hasPrefix("query ") || $0.hasPrefix("mutation ") || $0.hasPrefix("subscription ")
                }.count
        }
        #expect(operations >= 20)
        #expect(Self.schema.utf8.count > 1_000_000)
    }
}
