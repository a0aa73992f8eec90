// GraphQL subscriptions with PrismGraphQL: typed events over one WebSocket (graphql-transport-ws),
// the credential in connection_init, reconnection, and the errors a subscription ends with. It
// compiles with the package; it needs a GraphQL server that speaks graphql-transport-ws to run.
// snippet.hide
import Foundation
import Prism

// snippet.show

// snippet.subscribe
struct TaskAddedData: Decodable, Sendable {
    struct TaskItem: Decodable, Sendable {
        var id: Int
        var title: String
    }
    var taskAdded: TaskItem
}

func watchTasks(graphql: PrismGraphQLClient) async throws {
    let taskAdded = PrismGraphQLSubscription(
        query: "subscription TaskAdded { taskAdded { id title } }",
        operationName: "TaskAdded"
    )
    // Leaving the loop, or cancelling this task, sends `complete` for this subscription.
    for try await event in graphql.subscribe(taskAdded, as: TaskAddedData.self) {
        if let task = event.data?.taskAdded {
            print("added #\(task.id): \(task.title)")
        }
    }
    // Here the server completed the subscription.
}
// snippet.end

// snippet.configure
func makeClient(endpoint: URL, tokens: PrismBearerTokenAuthenticator) -> PrismGraphQLClient {
    let http = PrismNetworkAdapter(authenticator: tokens)  // its token goes into connection_init
    let subscriptions = PrismGraphQLSubscriptionConfiguration(
        connectionParameters: ["clientVersion": "2.1"],
        keepAliveInterval: .seconds(15),
        reconnectPolicy: PrismExponentialBackoff(baseDelay: .milliseconds(500), maxAttempts: 10),
        linger: .seconds(1)
    )
    return PrismGraphQLClient(endpointURL: endpoint, networkClient: http, subscriptions: subscriptions)
}
// snippet.end

// snippet.errors
func watchCounter(graphql: PrismGraphQLClient) async {
    struct CounterData: Decodable, Sendable { var counter: Int }
    let counter = PrismGraphQLSubscription(query: "subscription { counter(to: 10) }")
    do {
        for try await event in graphql.subscribe(counter, as: CounterData.self) {
            print(event.data?.counter ?? 0)
        }
    } catch let error as PrismGraphQLError {
        switch error.code {
        case .graphQLErrors:
            print("the server refused it:", error.errors.map(\.message))
        case .subscriptionRejected:
            print("credentials or policy refused, close code", error.closeCode ?? 0)
        case .subscriptionProtocolViolation, .connectionAckTimeout:
            print("the server does not speak graphql-transport-ws properly:", error.message)
        case .requestFailed:
            print("the socket was lost and the reconnect policy gave up")
        default:
            print(error)
        }
    } catch {
        print(error)
    }
}
// snippet.end
