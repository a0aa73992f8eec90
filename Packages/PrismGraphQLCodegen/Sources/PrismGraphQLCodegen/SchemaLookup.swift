import Foundation
import GraphQL

/// What the generator asks of a schema, in one place.
extension GraphQLSchema {
    /// The definition of field `name` of `type` (an object or an interface); `__typename` on
    /// any composite type is a `String!`.
    func field(_ name: String, on type: GraphQLNamedType) -> GraphQLField? {
        if name == "__typename" { return GraphQLField(type: GraphQLNonNull(GraphQLString)) }
        return Self.fields(of: type)?[name]
    }

    /// The fields of an object or interface type; nil for any other type.
    static func fields(of type: GraphQLNamedType) -> GraphQLFieldMap? {
        if let object = type as? GraphQLObjectType {
            return FieldMaps.current?.fields(of: object) { try? object.fields() } ?? (try? object.fields())
        }
        if let interface = type as? GraphQLInterfaceType {
            return FieldMaps.current?.fields(of: interface) { try? interface.fields() } ?? (try? interface.fields())
        }
        return nil
    }

    /// The object types a value of `type` can be: itself for an object type.
    func objectTypes(of type: GraphQLNamedType) -> [GraphQLObjectType] {
        if let object = type as? GraphQLObjectType { return [object] }
        if let abstract = type as? GraphQLAbstractType { return getPossibleTypes(abstractType: abstract) }
        return []
    }
}

/// The field maps of one generation, each built once: GraphQLSwift's public `fields` of a type
/// built from SDL rebuilds the map from the syntax tree at every call (its own cache is
/// internal), which made generating for 100 operations against a 1 MB schema take 6 s.
final class FieldMaps: @unchecked Sendable {
    /// The maps of the generation running on this task (``PrismGraphQLCodegen/generate(schema:operations:configuration:)``).
    @TaskLocal static var current: FieldMaps?

    private let lock = NSLock()
    // Keyed by the type's identity: the schema, and so every type, lives as long as the generation.
    private var maps: [ObjectIdentifier: GraphQLFieldMap] = [:]

    func fields(of type: AnyObject, build: () -> GraphQLFieldMap?) -> GraphQLFieldMap? {
        let key = ObjectIdentifier(type)
        if let map = lock.withLock({ maps[key] }) { return map }
        guard let map = build() else { return nil }
        lock.withLock { maps[key] = map }
        return map
    }
}

/// `T`, `[T]` and `T!`: GraphQL's spelling of a type.
func spelling(of type: GraphQLType) -> String {
    if let list = type as? GraphQLList { return "[" + spelling(of: list.ofType) + "]" }
    if let nonNull = type as? GraphQLNonNull { return spelling(of: nonNull.ofType) + "!" }
    return (type as? GraphQLNamedType)?.name ?? "\(type)"
}

/// Whether `type` is a scalar or an enum (a leaf of a selection).
func isLeaf(_ type: GraphQLType) -> Bool {
    type is GraphQLScalarType || type is GraphQLEnumType
}
