// The response cache on its own (PrismCache) and under the HTTP client (PrismHTTP): storing and
// reading entries, a cache on disk for offline use, invalidation, and where a response came from.
// It compiles with the package; the client's functions need a server to run.
// snippet.hide
import Foundation
import Prism

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct FeedItem: PrismEntity {
    var id: Int
    var title: String
}

struct FeedEndpoint: PrismNetworkEndpoint {
    var host: String { "api.example.com" }
    var path: String { "/feed" }
}

struct FeedRequest: PrismNetworkRequest {
    typealias Response = [FeedItem]
    let endpoint = FeedEndpoint()
}

func cacheOnItsOwn(responseData: Data) async {
    // snippet.show
    // snippet.entries
    let cache = PrismResponseCache(maxSize: 200)
    let entry = PrismCacheEntry(data: responseData, statusCode: 200, ttl: .seconds(300))
    await cache.set(entry, for: "github/users/octocat")
    let cached = await cache.get(for: "github/users/octocat")  // nil if expired or missing
    // snippet.end
    // snippet.hide
    _ = cached
}

func cacheOnDisk() throws {
    // snippet.show
    // snippet.folder
    let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appending(path: "responses")
    let cache = try PrismResponseCache(maxSize: 200, directory: folder, maxDiskBytes: 50_000_000)
    // snippet.end
    // snippet.hide
    _ = cache
}

// snippet.show
// snippet.sign-out
func signOut(client: PrismNetworkAdapter) async {
    await client.cache?.removeAll()
}
// snippet.end

// snippet.hide
func invalidate(client: PrismNetworkAdapter) async {
    // snippet.show
    // snippet.invalidate
    await client.removeCachedResponses(withURLPrefix: "https://api.example.com/tasks")
    // snippet.end
    // snippet.hide
}

func showSource(client: PrismNetworkAdapter, request: PrismHTTPRequest) async throws {
    // snippet.show
    // snippet.source
    let response = try await client.send(request)
    if case .stale(.networkFailed) = response.source, let age = response.age {
        print("Offline: showing what was saved \(age.components.seconds) seconds ago")
    }
    // snippet.end
    // snippet.hide
}

func offlineFeed() async throws -> [FeedItem] {
    // snippet.show
    // snippet.offline
    let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appending(path: "responses")
    let client = PrismNetworkAdapter(cache: try PrismResponseCache(maxSize: 500, directory: folder))

    let options = PrismRequestOptions(cachePolicy: .networkFirst(maxStale: .seconds(86_400)))
    let feed = try await client.request(on: FeedRequest(), options: options)
    // snippet.end
    // snippet.hide
    return feed
}
