import Foundation
import PrismCache

// A command-line tool PrismCache's tests run as a child process, to be killed in the middle of
// writing its folder.
//
//     PrismCacheTestHelper write-loop <folder>
//
// Stores entries for the keys "key-0" to "key-7" in a cache kept in <folder>, round after round,
// forever. Each body is its round's number repeated, a different length each time, and the
// entry's `X-Round` and `X-Length` fields say which round and how long, so that a reader can
// tell a whole entry from a torn one. Prints "ready" once the first round is on disk. Stops when
// the process that started it is gone.

@main
enum PrismCacheTestHelper {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, arguments.first == "write-loop", let folder = arguments.last else {
            FileHandle.standardError.write(Data("usage: PrismCacheTestHelper write-loop <folder>\n".utf8))
            exit(64)
        }
        do {
            let cache = try PrismResponseCache(
                maxSize: 4, directory: URL(fileURLWithPath: folder), maxDiskBytes: 64 * 1_024 * 1_024)
            // The test that started it may be killed before it kills this (a run stopped midway):
            // then this process is adopted, and it stops rather than write forever.
            let parent = getppid()
            var round = 0
            while getppid() == parent {
                round += 1
                for index in 0..<8 {
                    // 1 KB to about 600 KB, so that some writes take long enough to be cut.
                    let length = 1_024 + (round * 7_919 + index * 104_729) % 600_000
                    let entry = PrismCacheEntry(
                        data: Data(repeating: UInt8(truncatingIfNeeded: round), count: length), statusCode: 200,
                        fields: [
                            .init(name: "X-Round", value: String(round)),
                            .init(name: "X-Length", value: String(length)),
                        ],
                        ttl: .seconds(3_600))
                    await cache.set(entry, for: "key-\(index)")
                }
                if round == 1 {
                    print("ready")
                    fflush(nil)
                }
            }
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }
}
