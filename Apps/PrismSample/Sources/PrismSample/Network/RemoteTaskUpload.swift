/// The body of `PUT /tasks`.
struct RemoteTaskUpload: Codable, Sendable {
    /// The whole list, which replaces the server's.
    var tasks: [RemoteTask]
}
