// Foundation, not FoundationEssentials: the multipart request's JSON is edited with
// JSONSerialization.
import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import NIOCore
import PrismSupport

/// A real GraphQL endpoint (GraphQLSwift's executor, a Graphiti schema): `POST` and `GET
/// /graphql`, and `POST /graphql/flaky/:name`, served as the GraphQL-over-HTTP specification
/// (the GraphQL Foundation's draft) lets a server answer.
///
/// ```graphql
/// type Query {
///   user(login: String!): User            # every login but "ghost" (null)
///   failingField: String                  # null, with an error at ["failingField"]
///   requiredFailingField: String!         # an error that makes `data` null
///   echoVariables: String!                # the request's variables as JSON text, keys sorted
///   authorization: String                 # the request's Authorization header
///   operationNumber: Int!                 # n for the server's n-th executed operation
///   tasks: [TaskItem!]!                   # every task addTask added, by id
///   task(id: Int!): TaskItem              # null for an id without a task
///   taskConnection(first: Int, after: String, last: Int, before: String): TaskConnection!
///                                         # the tasks by id, Relay style; cursors "task:<id>"
///   taskPage(offset: Int!, limit: Int!): [TaskItem!]!       # the tasks by id, from offset
/// }
/// type Mutation {
///   createIssue(repo: String!, input: IssueInput!): Issue!   # numbers from 1347
///   addTask(title: String!): TaskItem!                      # ids from 1; feeds the taskAdded subscription
///   renameTask(id: Int!, title: String!): TaskItem!         # an error for an id without a task
/// }
/// type TaskItem { id: Int!, title: String! }
/// type TaskConnection { edges: [TaskEdge!]!, pageInfo: PageInfo! }
/// type TaskEdge { cursor: String!, node: TaskItem! }
/// type PageInfo { startCursor: String, endCursor: String, hasPreviousPage: Boolean!, hasNextPage: Boolean! }
/// type User { login: String!, name: String, publicRepos: Int! }             # "The <login>", 8
/// type Issue { number: Int!, repo: String!, title: String!, body: String, labels: [String!]!,
///              priority: Int, assignees: [String!]!, url: String! }
/// input IssueInput { title: String!, body: String, labels: [String!], meta: IssueMetaInput }
/// input IssueMetaInput { priority: Int, assignees: [String!] }
/// ```
///
/// - A POST is a JSON object `{"query", "operationName", "variables", "extensions"}` sent with
///   `Content-Type: application/json` (else 415); a body that is not one is a 400. Both carry a
///   GraphQL body with one error and no `data`.
/// - A multipart POST (the GraphQL multipart request specification) carries `operations`,
///   `map` and the files; each file is put into the variables as an `Upload`, and
///   `uploadFile(file: Upload!)` / `uploadFiles(files: [Upload!]!)` return what arrived.
/// - A GET carries `query`, `operationName`, `variables` and `extensions` (the last two as JSON
///   text) in the URL's query; it runs queries only: a mutation sent as GET is answered 405
///   with `Allow: POST` and not executed.
/// - The media type follows the request's `Accept`: `application/graphql-response+json` when the
///   client accepts it (unless `?mediaType=json`, a server that only speaks the older type),
///   else `application/json`.
/// - A request error (parse, validation, variables: no `data`) is a 400 with
///   `application/graphql-response+json` and a 200 with `application/json`. A response whose
///   `data` is null (a non-null field failed up to the root) is a 200, or, with either media
///   type, the status `?nullDataStatus=<code>` gives (say 400, as some servers do). Field errors
///   with data: 200 with `data` (null where the error bubbled up) and `errors`.
/// - Automatic persisted queries (Apollo's protocol): `extensions.persistedQuery` `{"version": 1,
///   "sha256Hash"}` without a query looks the hash up, and an unknown one answers 200
///   `{"errors": [{"message": "PersistedQueryNotFound", "extensions": {"code":
///   "PERSISTED_QUERY_NOT_FOUND"}}]}`; with the query, the hash must be its SHA-256 (lowercase
///   hex; else 400 `provided sha does not match query`) and the query is registered. With
///   `?persistedQueries=0` a request carrying the extension is answered `PersistedQueryNotSupported`
///   (`PERSISTED_QUERY_NOT_SUPPORTED`).
/// - `?vary=<names>` adds `Vary: <names>` to every answer.
/// - `/graphql/flaky/:name?failures=<n>&status=<code>&retryAfter=<s>` fails its first n attempts
///   with `status` (default 503) and a GraphQL error body, counted in
///   ``PrismTestServer/flakyAttempts(_:)`` with `/flaky/:name`'s, then serves GraphQL.
struct GraphQLRoutes: RouteGroup {
    let state: ServerState

    func register(on router: Router<TestServerRequestContext>) {
        router.post("/graphql") { request, context -> Response in
            try await self.serve(request, context: context, path: "/graphql")
        }

        router.get("/graphql") { request, context -> Response in
            try await self.serveGET(request, context: context, path: "/graphql")
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
        let answer = Answer(request)
        let contentType = HeaderParameters(request.headers[.contentType] ?? "")
        if contentType.value == "multipart/form-data" {
            switch Self.multipartRequest(Array(bytes.readableBytesView), boundary: contentType.parameters["boundary"]) {
            case .success(let incoming):
                return await self.run(incoming, request: request, answer: answer, path: path, method: "POST")
            case .failure(let refusal):
                return answer.refusal(refusal.body, status: refusal.status)
            }
        }
        guard Self.isJSON(request.headers[.contentType]) else {
            return answer.refusal(
                GraphQLJSON.body(errorMessage: "A GraphQL request must be sent as Content-Type: application/json."),
                status: .unsupportedMediaType)
        }
        let incoming: IncomingRequest
        do {
            incoming = try JSONDecoder().decode(IncomingRequest.self, from: Data(bytes.readableBytesView))
        } catch {
            return answer.refusal(
                GraphQLJSON.body(errorMessage: "The body is not a GraphQL request (a JSON object): \(error)"),
                status: .badRequest)
        }
        return await self.run(incoming, request: request, answer: answer, path: path, method: "POST")
    }

    /// `GET /graphql?query=&operationName=&variables=&extensions=`: queries only.
    private func serveGET(_ request: Request, context: TestServerRequestContext, path: String) async throws -> Response
    {
        self.state.countGraphQLRequest()
        let answer = Answer(request)
        let parameters = request.query
        var incoming = IncomingRequest()
        incoming.query = parameters["query"]
        incoming.operationName = parameters["operationName"]
        do {
            if let variables = parameters["variables"], !variables.isEmpty {
                incoming.variables = try JSONDecoder().decode([String: Map].self, from: Data(variables.utf8))
            }
            if let extensions = parameters["extensions"], !extensions.isEmpty {
                incoming.extensions = try JSONDecoder().decode(
                    IncomingRequest.Extensions.self, from: Data(extensions.utf8))
            }
        } catch {
            return answer.refusal(
                GraphQLJSON.body(errorMessage: "variables and extensions must be JSON objects: \(error)"),
                status: .badRequest)
        }
        if let query = incoming.query,
            (try? GraphQL.parse(source: Source(body: query)))
                .map({ Self.isMutation($0, operationName: incoming.operationName) }) == true
        {
            var response = answer.refusal(
                GraphQLJSON.body(errorMessage: "A mutation cannot be sent with GET; use POST."),
                status: .methodNotAllowed)
            response.headers[.allow] = "POST"
            return response
        }
        return await self.run(incoming, request: request, answer: answer, path: path, method: "GET")
    }

    /// Records, resolves and executes one parsed request.
    private func run(
        _ incoming: IncomingRequest, request: Request, answer: Answer, path: String, method: String
    ) async -> Response {
        let persisted = incoming.extensions?.persistedQuery
        self.state.recordGraphQLOperation(
            PrismTestServer.GraphQLOperation(
                query: incoming.query,
                operationName: incoming.operationName,
                variables: incoming.variables.map { GraphQLJSON.text(of: $0) },
                persistedQueryHash: persisted?.sha256Hash,
                path: path,
                method: method,
                accept: request.headers[.accept]
            )
        )

        let text: String
        switch self.queryText(of: incoming, persistedQueriesEnabled: request.query["persistedQueries"] != "0") {
        case .success(let query):
            text = query
        case .failure(let refusal):
            return answer.refusal(refusal.body, status: refusal.status)
        }

        let (result, phase) = await self.execute(
            text,
            operationName: incoming.operationName,
            variables: incoming.variables ?? [:],
            authorization: request.headers[.authorization]
        )
        return answer.result(GraphQLJSON.body(of: result, phase: phase), phase: phase, dataIsNull: result.data == nil)
    }

    /// How a response is written: its media type, from the request's `Accept` and
    /// `?mediaType=json`, and its status, which depends on the media type.
    private struct Answer {
        static let graphQLResponseType = "application/graphql-response+json"

        /// Whether the response is `application/graphql-response+json`.
        var isGraphQLResponse: Bool
        /// The status of a response whose `data` is null, with the newer media type.
        var nullDataStatus: HTTPResponse.Status
        /// The `Vary` the response carries (`?vary=<names>`), if any.
        var vary: String?

        init(_ request: Request) {
            let accept = (request.headers[.accept] ?? "").lowercased()
            isGraphQLResponse = accept.contains(Self.graphQLResponseType) && request.query["mediaType"] != "json"
            nullDataStatus =
                request.query["nullDataStatus"].flatMap { Int($0) }.flatMap { (200...599).contains($0) ? $0 : nil }
                .map { HTTPResponse.Status(code: $0) } ?? .ok
            vary = request.query["vary"].flatMap { $0.isEmpty ? nil : $0 }
        }

        private func response(_ body: ByteBuffer, status: HTTPResponse.Status) -> Response {
            var response = Response.json(buffer: body, status: status)
            if isGraphQLResponse {
                response.headers[.contentType] = Self.graphQLResponseType + "; charset=utf-8"
            }
            if let vary { response.headers[.vary] = vary }
            return response
        }

        /// A request refused before execution (`status` as the route decided).
        func refusal(_ body: ByteBuffer, status: HTTPResponse.Status) -> Response {
            // With application/json a well-formed GraphQL answer to a well-formed request is a
            // 200 (the route passes .ok for those); other refusals keep their status.
            response(body, status: status)
        }

        /// The answer of a parsed request.
        func result(_ body: ByteBuffer, phase: GraphQLJSON.Phase, dataIsNull: Bool) -> Response {
            switch phase {
            case .request: return response(body, status: isGraphQLResponse ? .badRequest : .ok)
            case .execution: return response(body, status: dataIsNull ? nullDataStatus : .ok)
            }
        }
    }

    /// A GraphQL multipart request (the graphql-multipart-request-spec): an `operations` field
    /// (the request, with `null` where files go), a `map` field (`{"0": ["variables.file"]}`),
    /// then the files, each put into the variables, at every path the map gives it, as an
    /// `Upload` (its file name, type, size and SHA-256).
    private static func multipartRequest(_ bytes: [UInt8], boundary: String?) -> Result<IncomingRequest, Refusal> {
        guard let boundary, (1...70).contains(boundary.utf8.count) else {
            return .failure(Refusal("multipart/form-data needs a boundary of 1 to 70 characters", status: .badRequest))
        }
        var parser = MultipartParser(boundary: boundary)
        var summary = MultipartSummary()
        do {
            try parser.feed(bytes, delegate: &summary)
            try parser.finish()
        } catch {
            return .failure(Refusal("malformed multipart body: \(error)", status: .badRequest))
        }
        let parts = summary.parts
        guard parts.count >= 2, parts[0].name == "operations", parts[1].name == "map",
            let operationsText = parts[0].value, let mapText = parts[1].value
        else {
            return .failure(
                Refusal(
                    "A GraphQL multipart request starts with the operations field, then the map", status: .badRequest))
        }
        guard var operations = try? JSONSerialization.jsonObject(with: Data(operationsText.utf8)) as? [String: Any],
            let map = try? JSONSerialization.jsonObject(with: Data(mapText.utf8)) as? [String: [String]]
        else {
            return .failure(
                Refusal("operations must be a JSON object and map an object of path lists", status: .badRequest))
        }
        let files = Dictionary(parts.dropFirst(2).compactMap { part in part.name.map { ($0, part) } }) { first, _ in
            first
        }
        for (name, paths) in map {
            guard let file = files[name], file.filename != nil else {
                return .failure(
                    Refusal("map names a file \(name) that the request does not carry", status: .badRequest))
            }
            let upload: [String: Any] = [
                "filename": file.filename as Any, "contentType": file.contentType as Any, "size": file.size,
                "sha256": file.sha256,
            ]
            for path in paths {
                guard let placed = Self.setting(upload, at: path.split(separator: ".").map(String.init), in: operations)
                else {
                    return .failure(Refusal("map path \(path) is not a null in operations", status: .badRequest))
                }
                operations = placed
            }
        }
        guard let json = try? JSONSerialization.data(withJSONObject: operations),
            let incoming = try? JSONDecoder().decode(IncomingRequest.self, from: json)
        else {
            return .failure(Refusal("operations is not a GraphQL request", status: .badRequest))
        }
        return .success(incoming)
    }

    /// `object` with `value` at `path` (object keys and array indices), where a `null` must be.
    private static func setting(_ value: Any, at path: [String], in object: [String: Any]) -> [String: Any]? {
        guard let key = path.first, let child = object[key] else { return nil }
        var object = object
        if path.count == 1 {
            guard child is NSNull else { return nil }
            object[key] = value
            return object
        }
        guard let replaced = Self.setting(value, at: Array(path.dropFirst()), inValue: child) else { return nil }
        object[key] = replaced
        return object
    }

    private static func setting(_ value: Any, at path: [String], inValue child: Any) -> Any? {
        if let object = child as? [String: Any] { return setting(value, at: path, in: object) }
        guard var array = child as? [Any], let index = Int(path[0]), array.indices.contains(index) else { return nil }
        if path.count == 1 {
            guard array[index] is NSNull else { return nil }
            array[index] = value
            return array
        }
        guard let replaced = setting(value, at: Array(path.dropFirst()), inValue: array[index]) else { return nil }
        array[index] = replaced
        return array
    }

    /// Whether the operation `operationName` picks in `document` (the only one when nil) is a mutation.
    private static func isMutation(_ document: Document, operationName: String?) -> Bool {
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        let chosen = operationName.flatMap { name in operations.first { $0.name?.value == name } } ?? operations.first
        return chosen?.operation == .mutation
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
