import Foundation
import PrismGraphQL
import Testing

/// What Apollo's users reach for, on the code the build tool plugin generated from Shapes.graphql:
/// a fragment's fields read on the selection that spreads it, `asCircle` holding the shape's own
/// fields too, initializers that build what JSON would, and an input whose deprecated field
/// stays out of its initializer.
@Suite("Generated types: fragment fields, asX, initializers and deprecated input fields")
struct ShapesTests {
    static let json = """
        {"shapes": [
          {"__typename": "Circle", "id": "c", "area": 3.5, "kind": "Circle", "radius": 1.25},
          {"__typename": "Square", "id": "s", "area": 4, "kind": "Square", "side": 2},
          {"__typename": "Unknown", "id": "u", "area": 1, "kind": "Unknown", "note": null},
          {"__typename": "Triangle", "id": "t", "area": 0.5, "kind": "Triangle"}
        ]}
        """

    static func decoded() throws -> ShapesQuery.Data {
        try JSONDecoder().decode(ShapesQuery.Data.self, from: Data(Self.json.utf8))
    }

    @Test("the generated cache configuration: a normalized cache holds the answer and reads it back whole")
    func cacheConfiguration() throws {
        let configuration = GraphQLSchema.cacheConfiguration
        #expect(configuration.possibleTypes == ["Shape": ["Circle", "Square", "Triangle", "Unknown"]])
        #expect(configuration.defaultKeyFields == ["id"])
        let cache = PrismGraphQLNormalizedCache(configuration: configuration)
        guard case .object(let data) = try PrismGraphQLValue(json: Data(Self.json.utf8)) else {
            Issue.record("the answer is not an object")
            return
        }
        try cache.write(data: data, for: ShapesQuery())
        #expect(cache.record(for: PrismGraphQLCacheKey(rawValue: "Circle:c"))?.typename == "Circle")
        #expect(try cache.read(ShapesQuery()) == Self.decoded())
    }

    @Test("a fragment's fields are read on the selection that spreads it, and through the fragment")
    func fragmentFields() throws {
        let shapes = try Self.decoded().shapes
        #expect(shapes.map(\.kind) == ["Circle", "Square", "Unknown", "Triangle"])
        #expect(shapes.map(\.shapeRow.kind) == shapes.map(\.kind))
        // `area` is selected on the shape itself: its own property, the same value.
        #expect(shapes.map(\.area) == shapes.map(\.shapeRow.area))
    }

    @Test("asCircle and asSquare hold the shape's own fields and fragments beside their own; other types are nil")
    func typeConditions() throws {
        let shapes = try Self.decoded().shapes
        let circle = try #require(shapes[0].asCircle)
        #expect(circle.radius == 1.25)
        #expect(circle.area == 3.5)
        #expect(circle.kind == "Circle")
        #expect(circle.shapeRow.area == 3.5)
        #expect(shapes[0].asSquare == nil)
        #expect(shapes[1].asSquare?.side == 2)
        #expect(shapes[1].asSquare?.id == "s")
        #expect(shapes[1].asCircle == nil)
    }

    @Test("a type named Unknown is a case of its own: the catch-all is unknown, as in every enum")
    func unknownType() throws {
        let shapes = try Self.decoded().shapes
        guard case .unknown_(let shape) = shapes[2].on else {
            Issue.record("Unknown decoded as \(shapes[2].on)")
            return
        }
        #expect(shape.note == nil)
        #expect(shapes[2].asUnknown == shape)
        guard case .unknown = shapes[3].on else {
            Issue.record("Triangle decoded as \(shapes[3].on)")
            return
        }
    }

    @Test("the initializers build, without JSON, the data the JSON decodes to")
    func initializers() throws {
        func row(_ kind: String, _ area: Double) -> ShapeRow {
            ShapeRow(__typename: kind, id: kind.prefix(1).lowercased(), kind: kind, area: area)
        }
        let built = ShapesQuery.Data(shapes: [
            .init(
                __typename: "Circle", id: "c", area: 3.5, shapeRow: row("Circle", 3.5),
                on: .circle(
                    .init(
                        __typename: "Circle", id: "c", area: 3.5, radius: 1.25, shapeRow: row("Circle", 3.5)))),
            .init(
                __typename: "Square", id: "s", area: 4, shapeRow: row("Square", 4),
                on: .square(.init(__typename: "Square", id: "s", area: 4, side: 2, shapeRow: row("Square", 4)))),
            .init(
                __typename: "Unknown", id: "u", area: 1, shapeRow: row("Unknown", 1),
                on: .unknown_(.init(__typename: "Unknown", id: "u", area: 1, shapeRow: row("Unknown", 1)))),
            .init(__typename: "Triangle", id: "t", area: 0.5, shapeRow: row("Triangle", 0.5), on: .unknown),
        ])
        #expect(built == (try Self.decoded()))
    }

    @Test("an input's initializer takes its fields in the schema's order, the deprecated one left out")
    func deprecatedInputField() throws {
        // Labels in the schema's order (minArea, kinds, name; sides is deprecated): Swift
        // accepts no other order.
        let filter = GraphQLSchema.ShapeFilter(minArea: .value(2), kinds: .value(["Circle"]), name: "round")
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(filter)) as? [String: Any]
        #expect(encoded?.keys.sorted() == ["kinds", "minArea", "name"])
        // The deprecated field is stored under its own name, and absent unless set.
        let stored = Mirror(reflecting: filter).children.compactMap(\.label)
        #expect(stored == ["minArea", "_sides", "kinds", "name"])
    }
}

/// prism-graphql.json turns on `testMocks`: every generated data type has a `mock(…)`.
@Suite("Generated test mocks: data for a test or a preview that names only what it is about")
struct MockTests {
    @Test("every member not given has a plain value; the ones given are as given")
    func defaults() {
        let shape = ShapesQuery.Data.Shapes.mock(area: 2)
        #expect(shape.area == 2)
        // An interface's typename is its first object type.
        #expect(shape.__typename == "Circle")
        #expect(shape.id == "")
        #expect(shape.on == .unknown)
        #expect(shape.shapeRow == .mock())
        #expect(shape.kind == "Circle")
        #expect(ShapesQuery.Data.mock().shapes == [])
        let circle = ShapesQuery.Data.Shapes.AsCircle.mock(radius: 3)
        #expect(circle.radius == 3 && circle.__typename == "Circle" && circle.area == 0)
        #expect(ShapesQuery.Data.Shapes.AsUnknown.mock().note == nil)
    }

    @Test("a mock is the data its initializer builds, and decodes from the JSON it stands for")
    func mockIsData() throws {
        let mock = ShapesQuery.Data.mock(shapes: [
            .mock(
                id: "c", area: 1, shapeRow: .mock(id: "c", area: 1),
                on: .circle(.mock(id: "c", area: 1, radius: 1, shapeRow: .mock(id: "c", area: 1))))
        ])
        let json = """
            {"shapes": [{"__typename": "Circle", "id": "c", "area": 1, "kind": "Circle", "radius": 1}]}
            """
        #expect(mock == (try JSONDecoder().decode(ShapesQuery.Data.self, from: Data(json.utf8))))
    }

    @Test("an enum member is the enum's first value")
    func enumValue() {
        #expect(NamesQuery.Data.Names.mock().type == .allCases_)
    }
}
