// Queries and mutations with PrismGraphQL: variables, partial results and errors, caching and
// persisted queries. It compiles with the package; it needs a GraphQL server to run.
// snippet.hide
import Foundation
import Prism

// snippet.show

// snippet.query
struct UserData: Decodable, Sendable {
    struct User: Decodable, Sendable {
        var name: String?
        var publicRepos: Int
    }
    var user: User?
}

func fetchUser(login: String, graphql: PrismGraphQLClient) async throws -> UserData.User? {
    var query = PrismGraphQLQuery(
        query: """
            query GetUser($login: String!) {
                user(login: $login) { name publicRepos }
            }
            """,
        variables: ["login": login],
        operationName: "GetUser"
    )
    query.cacheInterval = 60  // served from the client's cache for a minute

    let response: PrismGraphQLResponse<UserData> = try await graphql.execute(query)
    if let errors = response.errors {
        // GraphQL errors are data: each says which field failed, and the rest may be there.
        for error in errors {
            print(error.message, error.path?.map(\.description).joined(separator: ".") ?? "", error.code ?? "")
        }
    }
    return response.data?.user
}
// snippet.end

// snippet.mutation
struct CreatedIssue: Decodable, Sendable {
    struct Issue: Decodable, Sendable {
        var number: Int
        var url: String
    }
    var createIssue: Issue
}

func reportCrash(graphql: PrismGraphQLClient) async throws -> Int {
    let mutation = PrismGraphQLQuery(
        query: """
            mutation Create($repo: String!, $input: IssueInput!) {
                createIssue(repo: $repo, input: $input) { number url }
            }
            """,
        variables: [
            "repo": "octocat/hello-world",
            "input": ["title": "Crash on launch", "body": nil, "labels": ["bug"], "priority": 1],
        ]
    )
    // Data, or a PrismGraphQLError with code graphQLErrors that holds the errors.
    return try await graphql.execute(mutation, as: CreatedIssue.self).requireData().createIssue.number
}
// snippet.end

// snippet.errors
func describe(_ error: any Error) -> String {
    guard let error = error as? PrismGraphQLError else { return "\(error)" }
    switch error.code {
    case .graphQLErrors:
        return error.errors.map(\.message).joined(separator: "; ")
    case .unacceptableStatus:
        return "HTTP \(error.statusCode ?? 0): \(error.bodyText ?? "")"
    case .requestFailed:
        return "No answer: \(error.underlying.map { "\($0)" } ?? "")"  // a PrismHTTPError underneath
    case .invalidResponse, .decodingFailed:
        return "Unexpected answer: \(error.message)"
    default:
        return error.description
    }
}
// snippet.end

// snippet.client
func makeGraphQLClient(http: PrismNetworkAdapter) -> PrismGraphQLClient {
    // Through the app's HTTP client: its interceptors, authenticator, transport and logging.
    PrismGraphQLClient(
        endpointURL: URL(string: "https://api.example.com/graphql")!,
        networkClient: http,
        automaticPersistedQueries: true
    )
}

func fetchWithOptions(_ query: PrismGraphQLQuery, graphql: PrismGraphQLClient) async throws -> UserData? {
    let response: PrismGraphQLResponse<UserData> = try await graphql.execute(
        query,
        options: PrismRequestOptions(cachePolicy: .staleWhileRevalidate, retryPolicy: PrismExponentialBackoff())
    )
    return response.data
}
// snippet.end
