// GraphQL benchmarks: the query under load against raw AsyncHTTPClient is in LoadBenchmarks.swift
// (issue 60); here, an automatic persisted query against a plain PrismHTTP POST of the full body,
// in the same run. Uses `pairedRate` from NetworkBenchmarks.swift.
import Foundation
import PrismGraphQL
import PrismNetwork
import PrismTestServer

/// `user(login:)` as the benchmarked query asks for it.
struct GraphQLBenchmarkUser: PrismEntity {
    var login: String
    var name: String?
    var publicRepos: Int
}

/// The data of the benchmarked query.
struct GraphQLBenchmarkData: PrismEntity {
    var user: GraphQLBenchmarkUser?
}

/// A GraphQL response decoded by hand: what a PrismHTTP user writes without PrismGraphQL.
struct GraphQLBenchmarkEnvelope: PrismEntity {
    var data: GraphQLBenchmarkData?
}

/// The test server's `/graphql`, posted to with a body given as bytes.
struct GraphQLBenchmarkEndpoint: PrismNetworkEndpoint {
    let port: Int?
    let payload: Data
    var scheme: PrismNetworkScheme { .http }
    var host: String { "127.0.0.1" }
    var path: String { "/graphql" }
    var method: PrismNetworkMethod { .post }
    var headers: [String: String] { ["Content-Type": "application/json", "Accept": "application/json"] }
    var body: (any Encodable)? { payload }
}

struct GraphQLBenchmarkRequest: PrismNetworkRequest {
    typealias Response = GraphQLBenchmarkEnvelope
    let endpoint: GraphQLBenchmarkEndpoint
}

/// The benchmarked operation: `GetUser(login: "octocat")`.
enum GraphQLBenchmarkOperation {
    static let document = "query GetUser($login: String!) { user(login: $login) { login name publicRepos } }"
    static let query = PrismGraphQLQuery(query: document, variables: ["login": "octocat"], operationName: "GetUser")

    /// The bytes PrismGraphQLClient sends for it.
    static func body() throws -> Data {
        try PrismJSON.makeEncoder().encode(
            GraphQLBenchmarkBody(operationName: "GetUser", query: document, variables: ["login": "octocat"]))
    }
}

/// The body PrismGraphQLClient sends for the benchmarked query (keys sorted, as it writes them).
struct GraphQLBenchmarkBody: Encodable {
    var operationName: String
    var query: String
    var variables: [String: String]
}

/// `PrismGraphQLClient.execute` against a plain PrismHTTP POST of the same body to the same
/// server, both decoding the same data, alternated in the same run: the bar is 10% overhead.
@MainActor
func graphQLBenchmarks() async throws -> [Result] {
    var results: [Result] = []
    guard selected("graphql") else { return results }
    let server = try await PrismTestServer.start()
    defer { Task { try? await server.shutdown() } }

    let query = GraphQLBenchmarkOperation.query
    let adapter = PrismNetworkAdapter(cache: nil)
    let graphql = PrismGraphQLClient(endpointURL: server.url("/graphql"), networkClient: adapter, cache: nil)
    let body = try GraphQLBenchmarkOperation.body()
    let plain = GraphQLBenchmarkRequest(endpoint: GraphQLBenchmarkEndpoint(port: server.port, payload: body))

    // Both must send the same bytes and get the same answer, or the comparison means nothing.
    let viaGraphQL = try await graphql.execute(query, as: GraphQLBenchmarkData.self)
    let sentByGraphQL = server.requests.last?.bodyByteCount
    let viaHTTP = try await adapter.request(on: plain)
    precondition(sentByGraphQL == body.count, "the GraphQL client sent \(sentByGraphQL ?? 0) bytes, not \(body.count)")
    precondition(viaGraphQL.data?.user?.publicRepos == 8 && viaHTTP.data?.user?.publicRepos == 8)

    let post: @Sendable () async throws -> Void = {
        _ = try await adapter.request(on: plain)
    }
    // Persisted-query hits send a smaller body (the hash, not the document): informational.
    let persisted = PrismGraphQLClient(
        endpointURL: server.url("/graphql"), networkClient: adapter, cache: nil, automaticPersistedQueries: true)
    _ = try await persisted.execute(query, as: GraphQLBenchmarkData.self)
    let (hits, posts) = try await pairedRate(
        rounds: 5,
        total: 2_000,
        concurrency: 1,
        candidate: { _ = try await persisted.execute(query, as: GraphQLBenchmarkData.self) },
        baseline: post
    )
    results.append(
        Result(
            name: "graphql.execute, automatic persisted query hit",
            timing: Timing(nanosecondsPerOperation: 1e9 / hits),
            baselineName: "PrismHTTP POST of the full body, same run",
            baseline: Timing(nanosecondsPerOperation: 1e9 / posts),
            bar: .none
        )
    )
    return results
}
