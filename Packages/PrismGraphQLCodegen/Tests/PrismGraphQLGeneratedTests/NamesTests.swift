import Foundation
import PrismGraphQL
import Testing

/// `Names.graphql` against the part of `schema.graphqls` that only these tests use: every name
/// GraphQL allows builds, and reads and writes as the schema spells it.
@Suite("Names Swift gives a meaning of its own generate code that builds and keeps the schema's spelling")
struct NamesTests {
    @Test("types named Type, Self, Any, Data, Swift, Hashable and Protocol get a trailing _, and work")
    func typeNames() throws {
        let input = GraphQLSchema.Self_(self: 1, Type: "t", init: "i", value: "v")
        let query = NamesQuery(
            type: .allCases_, input: .value(input), any: .value(GraphQLSchema.Any_(any: 2)),
            data: .value(GraphQLSchema.Data_(data: "d")), swift: .value("s"), hashable: .value(.b))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let variables = String(decoding: try encoder.encode(query.variables), as: UTF8.self)
        #expect(
            variables
                == #"{"any":{"any":2},"data":{"data":"d"},"hashable":"B","input":{"Type":"t","init":"i","self":1,"value":"v"},"swift":"s","type":"ALL_CASES"}"#
        )
        let swift: GraphQLSchema.Swift_ = "a custom scalar is a String"
        #expect(swift.count == 27)
    }

    @Test("enum values named like the enum's own members (ALL_CASES, RAW_VALUE, INIT, UNKNOWN) keep their raw values")
    func enumValues() throws {
        let values: [GraphQLSchema.Type_] = [
            .allCases_, .rawValue_, .init_, .unknown_, .`self`, .type, .`default`, .protocol, .deprecatedValues_,
        ]
        #expect(
            values.map(\.rawValue) == [
                "ALL_CASES", "RAW_VALUE", "INIT", "UNKNOWN", "SELF", "TYPE", "DEFAULT", "PROTOCOL", "DEPRECATED_VALUES",
            ])
        #expect(GraphQLSchema.Type_.allCases == values)
        for value in values { #expect(GraphQLSchema.Type_(rawValue: value.rawValue) == value) }
        // The catch-all is `unknown` in every enum, also in one whose schema has UNKNOWN.
        #expect(GraphQLSchema.Type_(rawValue: "LATER") == .unknown("LATER"))
    }

    @Test("fields named self, init and Type, and a fragment named Data, decode")
    func fieldNames() throws {
        let json = """
            {"names": {"__typename": "NameResult", "type": "INIT", "types": ["ALL_CASES", "UNKNOWN"],
             "protocol": "A", "hashable": "B", "swift": "s", "self": "me", "init": "new", "Type": "meta"}}
            """
        let data = try JSONDecoder().decode(NamesQuery.Data.self, from: Data(json.utf8))
        let names = try #require(data.names)
        #expect(names.data.type == .init_)
        #expect(names.types == [.allCases_, .unknown_])
        #expect(names.protocol == .a)
        #expect(names.hashable == .b)
        #expect(names.`self` == "me")
        #expect(names.`init` == "new")
        #expect(names.`Type` == "meta")
        #expect(Data_.possibleTypes == ["NameResult"])
    }
}
