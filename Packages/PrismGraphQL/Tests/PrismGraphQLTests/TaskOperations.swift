import PrismGraphQL

// The test server's task mutations, as the code generator would write them (`__typename` and
// `id` in every selection), shared by the tests of the normalized cache through the client.

struct TaskItem: Decodable, Sendable, Hashable {
    let id: Int
    let title: String
}

struct AddTaskMutation: PrismGraphQLMutationOperation {
    static let operationName = "AddTask"
    static let document = "mutation AddTask($title: String!) { addTask(title: $title) { __typename id title } }"
    struct Variables: Encodable, Sendable, Hashable { var title: String }
    struct Data: Decodable, Sendable, Hashable { let addTask: TaskItem }
    var variables: Variables
}

struct RenameTaskMutation: PrismGraphQLMutationOperation {
    static let operationName = "RenameTask"
    static let document = """
        mutation RenameTask($id: Int!, $title: String!) { renameTask(id: $id, title: $title) { __typename id title } }
        """
    struct Variables: Encodable, Sendable, Hashable {
        var id: Int
        var title: String
    }
    struct Data: Decodable, Sendable, Hashable { let renameTask: TaskItem }
    var variables: Variables
}
