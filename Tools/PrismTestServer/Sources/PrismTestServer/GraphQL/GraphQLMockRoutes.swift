import Foundation
import GraphQL
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import OrderedCollections

/// A GraphQL endpoint for any schema, answering with made-up data: the code generator's tests
/// give it a large schema and check that the types generated for their operations decode what
/// a server executing those operations sends.
///
/// - `PUT /graphql/mock/schema` with SDL as the body sets the schema (400 with the reason when
///   it does not build).
/// - `POST /graphql/mock` with `{"query", "operationName", "variables"}` validates the operation
///   against the schema with every rule of the specification (errors and no `data` when it is
///   invalid) and executes it: fields are collected as the specification's CollectFields says
///   (type conditions, fragments, aliases, fields merged by response key), every list has two
///   items, every abstract field an object of one of its possible types (chosen by the path and
///   the variables, so lists mix them and other variables give other types), `__typename` the object's type, scalars and enums made from the path, and
///   a nullable field below the root fields null at every seventh place; `@skip` and `@include` are followed. The operation is recorded as `/graphql`'s are
///   (``PrismTestServer/graphQLOperations``).
struct GraphQLMockRoutes: RouteGroup {
    let state: ServerState
    /// The schema the last `PUT` set, for this server.
    let schema = NIOLockedValueBox<GraphQLSchema?>(nil)

    func register(on router: Router<TestServerRequestContext>) {
        router.put("/graphql/mock/schema") { request, context -> Response in
            var request = request
            let bytes = try await request.collectBody(upTo: 16 * 1024 * 1024)
            do {
                let built = try MockSchemas.schema(String(decoding: bytes.readableBytesView, as: UTF8.self))
                self.schema.withLockedValue { $0 = built }
                return Response(status: .noContent)
            } catch {
                return .json(
                    buffer: GraphQLJSON.body(errorMessage: "The schema does not build: \(error)"), status: .badRequest)
            }
        }

        router.post("/graphql/mock") { request, context -> Response in
            var request = request
            let bytes = try await request.collectBody(upTo: context.maxUploadSize)
            guard let schema = self.schema.withLockedValue({ $0 }) else {
                return .json(
                    buffer: GraphQLJSON.body(errorMessage: "No schema: PUT /graphql/mock/schema first."),
                    status: .conflict)
            }
            let incoming: MockRequest
            do {
                incoming = try JSONDecoder().decode(MockRequest.self, from: Data(bytes.readableBytesView))
            } catch {
                return .json(
                    buffer: GraphQLJSON.body(errorMessage: "The body is not a GraphQL request: \(error)"),
                    status: .badRequest)
            }
            self.state.recordGraphQLOperation(
                PrismTestServer.GraphQLOperation(
                    query: incoming.query, operationName: incoming.operationName,
                    variables: incoming.variables.map { GraphQLJSON.text(of: $0) }, persistedQueryHash: nil,
                    path: "/graphql/mock", method: "POST", accept: request.headers[.accept]))
            let result = MockExecutor.execute(
                incoming.query, operationName: incoming.operationName, variables: incoming.variables ?? [:],
                schema: schema)
            return .json(
                buffer: GraphQLJSON.body(of: result, phase: result.data == nil ? .request : .execution),
                status: .ok)
        }
    }

    private struct MockRequest: Decodable {
        var query: String
        var operationName: String?
        var variables: [String: Map]?
    }
}

/// The schemas built for `/graphql/mock`, by their text, for the process: a test suite that
/// starts a server per test builds its large schema once.
enum MockSchemas {
    private static let built = NIOLockedValueBox<[String: GraphQLSchema]>([:])

    static func schema(_ text: String) throws -> GraphQLSchema {
        if let schema = built.withLockedValue({ $0[text] }) { return schema }
        let schema = try buildSchema(source: text)
        built.withLockedValue { $0[text] = schema }
        return schema
    }
}

/// Executes an operation against a schema with made-up values (see ``GraphQLMockRoutes``).
enum MockExecutor {
    static func execute(
        _ query: String, operationName: String?, variables: [String: Map], schema: GraphQLSchema
    ) -> GraphQLResult {
        let document: Document
        do {
            document = try parse(source: Source(body: query))
        } catch let error as GraphQLError {
            return GraphQLResult(errors: [error])
        } catch {
            return GraphQLResult(errors: [GraphQLError(message: "\(error)")])
        }
        let errors = validate(schema: schema, ast: document)
        guard errors.isEmpty else { return GraphQLResult(errors: errors) }
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        guard
            let operation = operations.first(where: { operationName == nil || $0.name?.value == operationName })
        else {
            return GraphQLResult(errors: [GraphQLError(message: "No operation named \(operationName ?? "")")])
        }
        let root: GraphQLObjectType?
        switch operation.operation {
        case .query: root = schema.queryType
        case .mutation: root = schema.mutationType
        case .subscription: root = schema.subscriptionType
        }
        guard let root else { return GraphQLResult(errors: [GraphQLError(message: "The schema has no such root")]) }
        var fragments: [String: FragmentDefinition] = [:]
        for case let fragment as FragmentDefinition in document.definitions {
            fragments[fragment.name.value] = fragment
        }
        let executor = Executor(
            schema: schema, fragments: fragments, variables: variables, salt: GraphQLJSON.text(of: variables))
        return GraphQLResult(data: executor.object(root, selections: [operation.selectionSet], path: "data"))
    }

    private struct Executor {
        let schema: GraphQLSchema
        let fragments: [String: FragmentDefinition]
        let variables: [String: Map]
        /// Mixed into every value's seed: other variables, other answers.
        let salt: String

        /// Whether `@skip` and `@include` keep a selection (their `if` a literal or a variable).
        func isIncluded(_ directives: [Directive]) -> Bool {
            for directive in directives where ["skip", "include"].contains(directive.name.value) {
                guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { continue }
                var condition = false
                if let literal = argument.value as? BooleanValue {
                    condition = literal.value
                } else if let variable = argument.value as? Variable,
                    case .bool(let value) = variables[variable.name.value]
                {
                    condition = value
                }
                if directive.name.value == "skip" ? condition : !condition { return false }
            }
            return true
        }

        /// The specification's CollectFields: the fields of `selections` that apply to `type`,
        /// by response key, in order.
        func collect(_ selections: [SelectionSet], on type: GraphQLObjectType) -> [(String, [Field])] {
            var order: [String] = []
            var fields: [String: [Field]] = [:]
            var visited: Set<String> = []
            func visit(_ set: SelectionSet) {
                for selection in set.selections {
                    if let field = selection as? Field {
                        guard isIncluded(field.directives) else { continue }
                        let key = field.alias?.value ?? field.name.value
                        if fields[key] == nil { order.append(key) }
                        fields[key, default: []].append(field)
                    } else if let inline = selection as? InlineFragment {
                        guard isIncluded(inline.directives) else { continue }
                        if applies(inline.typeCondition?.name.value, to: type) { visit(inline.selectionSet) }
                    } else if let spread = selection as? FragmentSpread {
                        guard isIncluded(spread.directives) else { continue }
                        let name = spread.name.value
                        guard !visited.contains(name), let fragment = fragments[name] else { continue }
                        visited.insert(name)
                        if applies(fragment.typeCondition.name.value, to: type) { visit(fragment.selectionSet) }
                    }
                }
            }
            selections.forEach(visit)
            return order.map { ($0, fields[$0] ?? []) }
        }

        func applies(_ condition: String?, to type: GraphQLObjectType) -> Bool {
            guard let condition, condition != type.name else { return true }
            guard let named = schema.getType(name: condition) as? GraphQLAbstractType else { return false }
            return schema.getPossibleTypes(abstractType: named).contains { $0.name == type.name }
        }

        func object(_ type: GraphQLObjectType, selections: [SelectionSet], path: String) -> Map {
            var result = OrderedDictionary<String, Map>()
            let definitions = (try? type.fields()) ?? [:]
            for (key, fields) in collect(selections, on: type) {
                let name = fields[0].name.value
                if name == "__typename" {
                    result[key] = .string(type.name)
                    continue
                }
                guard let definition = definitions[name] else { continue }
                let subselections = fields.compactMap(\.selectionSet)
                result[key] = value(definition.type, selections: subselections, path: path + "." + key)
            }
            return .dictionary(result)
        }

        func value(_ type: GraphQLType, selections: [SelectionSet], path: String) -> Map {
            if let nonNull = type as? GraphQLNonNull {
                return value(nonNull.ofType, selections: selections, path: path, nullable: false)
            }
            return value(type, selections: selections, path: path, nullable: true)
        }

        func value(_ type: GraphQLType, selections: [SelectionSet], path: String, nullable: Bool) -> Map {
            let seed = Self.seed(salt + path)
            // Null at every seventh nullable place below the root fields (a root field is always
            // there, so that each operation's answer has something to decode).
            if nullable && seed % 7 == 3 && path.utf8.count(where: { $0 == UInt8(ascii: ".") }) > 1 { return .null }
            if let list = type as? GraphQLList {
                return .array((0..<2).map { value(list.ofType, selections: selections, path: "\(path)[\($0)]") })
            }
            if let objectType = type as? GraphQLObjectType {
                return object(objectType, selections: selections, path: path)
            }
            if let abstract = type as? GraphQLAbstractType {
                let possible = schema.getPossibleTypes(abstractType: abstract).sorted { $0.name < $1.name }
                guard !possible.isEmpty else { return .null }
                return object(possible[seed % possible.count], selections: selections, path: path)
            }
            if let enumeration = type as? GraphQLEnumType {
                let values = enumeration.values
                return .string(values[seed % values.count].name)
            }
            guard let scalar = type as? GraphQLScalarType else { return .null }
            switch scalar.name {
            case "Int": return .number(Number(seed % 1000))
            case "Float": return .number(Number(Double(seed % 1000) + 0.5))
            case "Boolean": return .bool(seed % 2 == 0)
            case "ID": return .string("id-\(seed)")
            case "String": return .string(path)
            default: return .string("\(scalar.name):\(seed % 1000)")
            }
        }

        /// A small number from a path (FNV-1a): the same path, the same value.
        static func seed(_ path: String) -> Int {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in path.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return Int(hash % 1_000_003)
        }
    }
}
