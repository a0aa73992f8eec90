import Prism

/// The server's task list: `{"revision", "tasks"}`. The revision grows with every change; the
/// server's `ETag` is made from it.
///
/// A `PrismEntity`, so the client decodes it without a custom decoder.
struct RemoteTaskList: PrismEntity, Equatable {
    /// The revision of the list on the server.
    var revision: Int
    /// The tasks.
    var tasks: [RemoteTask]
}
