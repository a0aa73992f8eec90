import Foundation
import PrismGraphQL

/// The tour's GraphQL step: one typed query with `PrismGraphQLClient` against the demo server's
/// `POST /graphql`. `GetUserQuery` is generated at build time from `GraphQL/Tour.graphql`,
/// checked against the server's schema (`GraphQL/schema.graphqls`) by `PrismGraphQLCodegenPlugin`.
enum GraphQLDemo {
    /// Runs the query against `server` and prints what came back.
    static func run(server: URL, token: String?) async {
        let graphql = PrismGraphQLClient(
            endpointURL: server.appendingPathComponent("graphql"),
            additionalHeaders: token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        )
        Console.line("  graphql.execute(GetUserQuery(login: \"octocat\")) -> POST \(server.absoluteString)/graphql")
        do {
            let response = try await graphql.execute(GetUserQuery(login: "octocat"))
            if let errors = response.errors, !errors.isEmpty {
                Console.line("    GraphQL errors: \(errors.map(\.message).joined(separator: "; "))")
            } else if let user = response.data?.user {
                Console.line("    user: \(user.name ?? "(no name)"), \(user.publicRepos) public repos")
            } else {
                Console.line("    no such user")
            }
        } catch {
            Console.line("    The query failed: \(error)")
        }
    }
}
