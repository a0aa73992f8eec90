import Prism

/// A request to the task routes whose answer is the server's list: `GET /tasks` and
/// `PUT /tasks`. The response type is a `PrismEntity`, so decoding comes for free.
struct TaskListRequest: PrismNetworkRequest {
    typealias Response = RemoteTaskList

    /// The route, on the server.
    let endpoint: TaskEndpoint
}
