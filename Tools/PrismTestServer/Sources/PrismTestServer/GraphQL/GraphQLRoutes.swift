import Crypto
import GraphQL
import HTTPTypes
import Hummingbird
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A real GraphQL endpoint (GraphQLSwift's executor, a Graphiti schema): `POST /graphql` and
/// `POST /graphql/flaky/:name`, served as the GraphQL-over-HTTP specification says for
/// `application/json`.
///
/// ```graphql
/// type Query {
///   user(login: String!): User            # every login but "ghost" (null)
///   failingField: String                  # null, with an error at ["failingField"]
///   requiredFailingField: String!         # an error that makes `data` null
///   echoVariables: String!                # the request's variables as JSON text, keys sorted
///   authorization: String                 # the request's Authorization header
///   operationNumber: Int!                 # n for the server's n-th executed operation
/// }
/// type Mutation { createIssue(repo: String!, input: IssueInput!): Issue! }   # numbers from 1347
/// type User { login: String!, name: String, publicRepos: Int! }             # "The <login>", 8
/// type Issue { number: Int!, repo: String!, title: String!, body: String, labels: [String!]!,
///              priority: Int, assignees: [String!]!, url: String! }
/// input IssueInput { title: String!, body: String, labels: [String!], meta: IssueMetaInput }
/// input IssueMetaInput { priority: Int, assignees: [String!] }
/// ```
///
/// - A request is a JSON object `{"query", "operationName", "variables", "extensions"}` sent with
///   `Content-Type: application/json` (else 415); a body that is not one is a 400. Both carry a
///   GraphQL body with one error and no `data`.
/// - Parse and validation errors: 200 with `errors` and no `data`. Field errors: 200 with `data`
///   (null where the error bubbled up, `"data": null` when it reached the root) and `errors`.
/// - Automatic persisted queries (Apollo's protocol): `extensions.persistedQuery` `{"version": 1,
///   "sha256Hash"}` without a query looks the hash up, and an unknown one answers 200
///   `{"errors": [{"message": "PersistedQueryNotFound", "extensions": {"code":
///   "PERSISTED_QUERY_NOT_FOUND"}}]}`; with the query, the hash must be its SHA-256 (lowercase
///   hex; else 400 `provided sha does not match query`) and the query is registered. With
///   `?persistedQueries=0` a request carrying the extension is answered `PersistedQueryNotSupported`
///   (`PERSISTED_QUERY_NOT_SUPPORTED`).
/// - `/graphql/flaky/:name?failures=<n>&status=<code>&retryAfter=<s>` fails its first n attempts
///   with `status` (default 503) and a GraphQL error body, counted in
///   ``PrismTestServer/flakyAttempts(_:)`` with `/flaky/:name`'s, then serves GraphQL.
struct GraphQLRoutes: RouteGroup {
    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.post("/graphql") { request, context -> Response in
            try await self.serve(request, context: context, path: "/graphql")
        }

        router.post("/graphql/flaky/:name") { request, context -> Response in
            let name = context.parameter("name")
            let query = request.query
            let failures = max(query["failures"].flatMap { Int($0) } ?? 0, 0)
            let attempt = self.state.nextFlakyAttempt(name)
            guard attempt <= failures else {
                return try await self.serve(request, context: context, path: "/graphql/flaky/\(name)")
            }
            self.state.countGraphQLRequest()
            let code = query["status"].flatMap { Int($0) }.flatMap { (200...599).contains($0) ? $0 : nil } ?? 503
            var headers = HTTPFields()
            if let retryAfter = StatusRoutes.retryAfter(query) {
                headers[.retryAfter] = retryAfter
            }
            return .json(
                buffer: GraphQLJSON.body(errorMessage: "failure \(attempt) of \(failures)"),
                status: HTTPResponse.Status(code: code),
                headers: headers
            )
        }
    }

    // MARK: Serving

    private func serve(_ request: Request, context: TestServerRequestContext, path: String) async throws -> Response {
        var request = request
        self.state.countGraphQLRequest()
        let bytes = try await request.collectBody(upTo: context.maxUploadSize)
        guard Self.isJSON(request.headers[.contentType]) else {
            return .json(
                buffer: GraphQLJSON.body(
                    errorMessage: "A GraphQL request must be sent as Content-Type: application/json."),
                status: .unsupportedMediaType
            )
        }
        let incoming: IncomingRequest
        do {
            incoming = try JSONDecoder().decode(IncomingRequest.self, from: Data(bytes.readableBytesView))
        } catch {
            return .json(
                buffer: GraphQLJSON.body(errorMessage: "The body is not a GraphQL request (a JSON object): \(error)"),
                status: .badRequest
            )
        }
        let persisted = incoming.extensions?.persistedQuery
        self.state.recordGraphQLOperation(
            PrismTestServer.GraphQLOperation(
                query: incoming.query,
                operationName: incoming.operationName,
                variables: incoming.variables.map { GraphQLJSON.text(of: $0) },
                persistedQueryHash: persisted?.sha256Hash,
                path: path
            )
        )

        let text: String
        switch self.queryText(of: incoming, persistedQueriesEnabled: request.query["persistedQueries"] != "0") {
        case .success(let query):
            text = query
        case .failure(let refusal):
            return .json(buffer: refusal.body, status: refusal.status)
        }

        let (result, phase) = await self.execute(
            text,
            operationName: incoming.operationName,
            variables: incoming.variables ?? [:],
            authorization: request.headers[.authorization]
        )
        return .json(buffer: GraphQLJSON.body(of: result, phase: phase))
    }

    /// A request answered without execution.
    private struct Refusal: Error {
        var status: HTTPResponse.Status
        var body: ByteBuffer

        init(_ message: String, code: String? = nil, status: HTTPResponse.Status) {
            self.status = status
            self.body = GraphQLJSON.body(errorMessage: message, code: code)
        }
    }

    /// The query to execute: the one sent, or the one registered under the persisted query's hash.
    private func queryText(of incoming: IncomingRequest, persistedQueriesEnabled: Bool) -> Result<String, Refusal> {
        guard let persisted = incoming.extensions?.persistedQuery else {
            guard let query = incoming.query, !query.isEmpty else {
                return .failure(
                    Refusal(
                        "GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.",
                        status: .badRequest
                    ))
            }
            return .success(query)
        }
        guard persistedQueriesEnabled else {
            return .failure(Refusal("PersistedQueryNotSupported", code: "PERSISTED_QUERY_NOT_SUPPORTED", status: .ok))
        }
        guard persisted.version == 1 else {
            return .failure(Refusal("Unsupported persisted query version", code: "BAD_REQUEST", status: .badRequest))
        }
        guard let hash = persisted.sha256Hash?.lowercased(), !hash.isEmpty else {
            return .failure(Refusal("A persisted query needs a sha256Hash", code: "BAD_REQUEST", status: .badRequest))
        }
        if let query = incoming.query, !query.isEmpty {
            guard Self.sha256(query) == hash else {
                return .failure(Refusal("provided sha does not match query", code: "BAD_REQUEST", status: .badRequest))
            }
            self.state.registerPersistedQuery(query, hash: hash)
            return .success(query)
        }
        guard let query = self.state.persistedQuery(hash: hash) else {
            return .failure(Refusal("PersistedQueryNotFound", code: "PERSISTED_QUERY_NOT_FOUND", status: .ok))
        }
        return .success(query)
    }

    /// Parses, validates and executes `text` against the test schema.
    private func execute(
        _ text: String,
        operationName: String?,
        variables: [String: Map],
        authorization: String?
    ) async -> (GraphQLResult, GraphQLJSON.Phase) {
        let schema = GraphQLTestSchema.schema.schema
        let document: Document
        do {
            document = try GraphQL.parse(source: Source(body: text, name: "GraphQL request"))
        } catch {
            return (GraphQLResult(errors: [Self.graphQLError(error)]), .request)
        }
        let validationErrors = GraphQL.validate(schema: schema, ast: document)
        guard validationErrors.isEmpty else {
            return (GraphQLResult(errors: validationErrors), .request)
        }
        let context = GraphQLRequestContext(
            state: self.state,
            variables: variables,
            authorization: authorization,
            operationNumber: self.state.nextGraphQLExecution()
        )
        do {
            let result = try await GraphQL.execute(
                schema: schema,
                documentAST: document,
                rootValue: GraphQLTestSchema.resolver,
                context: context,
                variableValues: variables,
                operationName: operationName
            )
            // No data: either a field error reached the root (it has a path: the operation ran,
            // `data` is null), or the operation never ran (bad variables, an unknown operation).
            let ran = result.data != nil || result.errors.contains { !$0.path.elements.isEmpty }
            return (result, ran ? .execution : .request)
        } catch {
            return (GraphQLResult(errors: [Self.graphQLError(error)]), .request)
        }
    }

    // MARK: Helpers

    private static func graphQLError(_ error: any Error) -> GraphQLError {
        error as? GraphQLError ?? GraphQLError(message: "\(error)", locations: [])
    }

    /// Whether a `Content-Type` names JSON (`application/json`, parameters allowed).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return mediaType.trimmingWhitespace().lowercased() == "application/json"
    }

    /// The SHA-256 of `text`'s UTF-8 bytes, as lowercase hex.
    static func sha256(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(text.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// A GraphQL request body.
    private struct IncomingRequest: Decodable {
        struct Extensions: Decodable {
            var persistedQuery: PersistedQuery?
        }

        struct PersistedQuery: Decodable {
            var version: Int?
            var sha256Hash: String?
        }

        var query: String?
        var operationName: String?
        var variables: [String: Map]?
        var extensions: Extensions?
    }
}
