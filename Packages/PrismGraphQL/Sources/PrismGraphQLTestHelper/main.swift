import Foundation
import PrismGraphQL

// A command-line tool PrismGraphQL's tests run as a child process, to be killed in the middle of
// writing the normalized cache's store.
//
//     PrismGraphQLTestHelper write-loop <file>
//
// Opens the store at <file> and writes the answer of `query Items { items { id name } }`, round
// after round, forever: eight items, each named "round N" with the round's number, so that a
// reader can tell a whole write (every item of one round) from a torn one. After each round is
// on disk (`flush()`) it prints "saved N". Stops when the process that started it is gone.

struct ItemsQuery: PrismGraphQLQueryOperation {
    struct Data: Decodable, Sendable {
        struct Item: Decodable, Sendable {
            var id: String
            var name: String
        }
        var items: [Item]
    }
    static let operationName = "Items"
    static let document = "query Items { items { __typename id name } }"
}

@main
enum PrismGraphQLTestHelper {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, arguments.first == "write-loop", let file = arguments.last else {
            FileHandle.standardError.write(Data("usage: PrismGraphQLTestHelper write-loop <file>\n".utf8))
            exit(64)
        }
        do {
            let cache = try await PrismGraphQLNormalizedCache.open(at: URL(fileURLWithPath: file))
            // Rounds go on from the last one on disk.
            var round = 0
            if let name = try? cache.read(ItemsQuery()).items.first?.name,
                let number = name.split(separator: " ").last.flatMap({ Int($0) })
            {
                round = number
            }
            // The test that started it may be killed before it kills this (a run stopped midway):
            // then this process is adopted, and it stops rather than write forever.
            let parent = getppid()
            while getppid() == parent {
                round += 1
                let items: [PrismGraphQLValue] = (0..<8).map { index in
                    .object([
                        "__typename": "Item", "id": .string("\(index)"), "name": .string("round \(round)"),
                    ])
                }
                try cache.write(data: ["items": .array(items)], for: ItemsQuery())
                try await cache.flush()
                print("saved \(round)")
                fflush(nil)
            }
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }
}
