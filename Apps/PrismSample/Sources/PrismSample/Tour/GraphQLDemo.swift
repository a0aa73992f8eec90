import Foundation

#if canImport(PrismGraphQL)
import PrismGraphQL

/// The tour's GraphQL step: one typed query with `PrismGraphQLClient` against the demo server's
/// `POST /graphql`.
enum GraphQLDemo {
    /// What `user(login:)` answers.
    struct UserData: Decodable, Sendable {
        /// The user's public profile.
        struct User: Decodable, Sendable {
            var name: String?
            var publicRepos: Int
        }

        var user: User?
    }

    /// Runs the query against `server` and prints what came back.
    static func run(server: URL, token: String?) async {
        let graphql = PrismGraphQLClient(
            endpointURL: server.appendingPathComponent("graphql"),
            additionalHeaders: token.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        )
        let query = PrismGraphQLQuery(
            query: """
                query GetUser($login: String!) {
                    user(login: $login) {
                        name
                        publicRepos
                    }
                }
                """,
            variables: ["login": "octocat"],
            operationName: "GetUser"
        )
        Console.line("  graphql.execute(GetUser(login: \"octocat\")) -> POST \(server.absoluteString)/graphql")
        do {
            let response: PrismGraphQLResponse<UserData> = try await graphql.execute(query)
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
#else
/// The tour's GraphQL step, in a build without PrismGraphQL: it says so and the tour goes on.
enum GraphQLDemo {
    /// Prints that GraphQL is not part of this build.
    static func run(server: URL, token: String?) async {
        Console.line("  PrismGraphQL is not part of this build yet, so this step is skipped.")
        Console.line("  Once it is wired into the Prism umbrella, this step sends a typed query")
        Console.line("  (user(login: \"octocat\") { name publicRepos }) to \(server.absoluteString)/graphql.")
    }
}
#endif
