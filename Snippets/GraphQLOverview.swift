// PrismGraphQL at a glance: a query, variables, queries as GET, the client over PrismHTTP, file
// uploads and subscriptions. It compiles with the package; it needs a GraphQL server to run.
// snippet.hide
import Foundation
import Prism

struct UploadData: Decodable, Sendable {
    var uploadReport: Bool
}

struct TaskAddedData: Decodable, Sendable {
    struct TaskItem: Decodable, Sendable {
        var title: String
    }
    var taskAdded: TaskItem
}

func fetchUser(token: String) async throws {
    // snippet.show
    // snippet.query
    let graphql = PrismGraphQLClient(
        endpointURL: URL(string: "https://api.example.com/graphql")!,
        additionalHeaders: ["Authorization": "Bearer \(token)"]
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

    struct UserData: Decodable, Sendable {
        struct User: Decodable, Sendable {
            var name: String?
            var publicRepos: Int
        }
        var user: User?
    }

    let response: PrismGraphQLResponse<UserData> = try await graphql.execute(query)
    if let errors = response.errors {
        print("GraphQL errors: \(errors.map(\.message))")
    } else if let data = response.data?.user {
        print("Repos: \(data.publicRepos)")
    }
    // snippet.end
    // snippet.hide
}

func variables() -> PrismGraphQLQuery {
    // snippet.show
    // snippet.variables
    let create = PrismGraphQLQuery(
        query: """
            mutation Create($repo: String!, $input: IssueInput!) {
                createIssue(repo: $repo, input: $input) { number url }
            }
            """,
        variables: [
            "repo": "octocat/hello-world",
            "input": ["title": "Crash on launch", "body": nil, "meta": ["priority": 1]],
        ]
    )
    // snippet.end
    // snippet.hide
    return create
}

func queriesAsGet(url: URL) -> PrismGraphQLClient {
    // snippet.show
    // snippet.get
    let graphql = PrismGraphQLClient(endpointURL: url, automaticPersistedQueries: true, queryMethod: .get)
    // snippet.end
    // snippet.hide
    return graphql
}

struct UserData: Decodable, Sendable {
    var user: String?
}

func throughPrismHTTP(url: URL, query: PrismGraphQLQuery) async throws {
    // snippet.show
    // snippet.http
    let http = PrismNetworkAdapter(interceptors: [PrismInterceptor.headers(["X-App": "demo"])])
    let graphql = PrismGraphQLClient(endpointURL: url, networkClient: http, automaticPersistedQueries: true)
    let response: PrismGraphQLResponse<UserData> = try await graphql.execute(
        query,
        options: PrismRequestOptions(cachePolicy: .cacheFirst, retryPolicy: PrismExponentialBackoff())
    )
    // snippet.end
    // snippet.hide
    _ = response
}

func upload(reportURL: URL, uploadReport: PrismGraphQLQuery, graphql: PrismGraphQLClient) async throws {
    // snippet.show
    // snippet.upload
    let file = try PrismGraphQLFile(fileURL: reportURL, variable: "file", mimeType: "application/pdf")
    let response = try await graphql.upload(uploadReport, files: [file], as: UploadData.self)
    // snippet.end
    // snippet.hide
    _ = response
}

func subscribe(taskAdded: PrismGraphQLSubscription, graphql: PrismGraphQLClient) async throws {
    // snippet.show
    // snippet.subscribe
    for try await event in graphql.subscribe(taskAdded, as: TaskAddedData.self) {
        print(event.data?.taskAdded.title ?? "")
    }
    // snippet.end
    // snippet.hide
}
