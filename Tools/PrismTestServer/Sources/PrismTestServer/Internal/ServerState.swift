import HTTPTypes
import NIOConcurrencyHelpers

/// Everything one server remembers between requests, behind one lock.
///
/// Shared by the channel handler (recording, hit counts) and the routes (ETag versions, tokens,
/// flaky counters, uploads). Each server has its own, so parallel tests do not see each other.
final class ServerState: Sendable {
    /// How many requests ``PrismTestServer/requests`` keeps (the most recent ones), so that a
    /// benchmark sending millions of requests does not grow memory without bound.
    static let maximumRecordedRequests = 10_000

    /// The first `Last-Modified` date of every `/last-modified/:name` resource:
    /// Mon, 01 Jan 2024 00:00:00 GMT.
    static let initialLastModified: Int64 = 1_704_067_200

    struct Values {
        var nextRecordID = 0
        var recordIDs: [Int] = []
        var requests: [PrismTestServer.RecordedRequest] = []
        var hits: [String: Int] = [:]
        var etagVersions: [String: Int] = [:]
        var lastModified: [String: (version: Int, date: Int64)] = [:]
        var cacheHits: [String: Int] = [:]
        var scripts: [String: [PrismTestServer.ScriptedResponse]] = [:]
        var scriptPositions: [String: Int] = [:]
        /// The names ``PrismTestServer/release(_:)`` released, that scripted parts wait for.
        var releasedNames: Set<String> = []
        var flakyAttempts: [String: Int] = [:]
        var timeoutAttempts: [String: Int] = [:]
        var tokenNumber = 0
        var tokenIsValid = true
        var refreshCount = 0
        var uploads: [String: PrismTestServer.UploadProgress] = [:]
        var latestUploadID: String?
        var graphQL = GraphQLValues()
        var graphQLSubscriptions = GraphQLSubscriptionValues()
        var taskBoard = TaskBoard()
        /// Per path of a hostile body route: responses the client abandoned, body bytes written.
        var abandonedResponses: [String: Int] = [:]
        var bodyBytesSent: [String: Int] = [:]
    }

    private let values = NIOLockedValueBox(Values())

    func withValues<Result>(_ body: (inout Values) throws -> Result) rethrows -> Result {
        try self.values.withLockedValue(body)
    }

    func reset() {
        self.values.withLockedValue { values in
            let nextRecordID = values.nextRecordID
            values = Values()
            values.nextRecordID = nextRecordID
        }
    }

    // MARK: Recording

    /// Records a request head, counts a hit for its path, and returns the record's id.
    func record(method: String, target: RequestTarget, headers: HTTPFields) -> Int {
        var flattened: [String: String] = [:]
        for field in headers {
            let name = field.name.canonicalName
            if let existing = flattened[name] {
                flattened[name] = existing + ", " + field.value
            } else {
                flattened[name] = field.value
            }
        }
        let request = PrismTestServer.RecordedRequest(
            method: method,
            path: target.path,
            query: target.query,
            headers: flattened,
            bodyByteCount: 0
        )
        return self.values.withLockedValue { values in
            let id = values.nextRecordID
            values.nextRecordID += 1
            values.hits[target.path, default: 0] += 1
            values.requests.append(request)
            values.recordIDs.append(id)
            if values.requests.count > Self.maximumRecordedRequests {
                let excess = values.requests.count - Self.maximumRecordedRequests
                values.requests.removeFirst(excess)
                values.recordIDs.removeFirst(excess)
            }
            return id
        }
    }

    /// Adds body bytes to the recorded request `id` (if it is still recorded).
    func addBodyBytes(_ count: Int, toRecord id: Int) {
        self.values.withLockedValue { values in
            // The request is almost always among the last few.
            guard let index = values.recordIDs.lastIndex(of: id) else { return }
            values.requests[index].bodyByteCount += count
        }
    }

    // MARK: Counters

    /// The answer for the next request to `/scripted/:name`, or nil when nothing is scripted.
    func nextScriptedResponse(_ name: String) -> PrismTestServer.ScriptedResponse? {
        self.values.withLockedValue { values in
            guard let script = values.scripts[name], !script.isEmpty else { return nil }
            let position = values.scriptPositions[name, default: 0]
            values.scriptPositions[name] = position + 1
            return script[min(position, script.count - 1)]
        }
    }

    /// Whether ``PrismTestServer/release(_:)`` released `name`.
    func isReleased(_ name: String) -> Bool {
        self.values.withLockedValue { $0.releasedNames.contains(name) }
    }

    /// Counts one more request to `/cache/:name` and returns its number (1 for the first).
    func nextCacheHit(_ name: String) -> Int {
        self.values.withLockedValue { values in
            values.cacheHits[name, default: 0] += 1
            return values.cacheHits[name]!
        }
    }

    /// Counts one more attempt at `/flaky/:name` and returns its number (1 for the first).
    func nextFlakyAttempt(_ name: String) -> Int {
        self.values.withLockedValue { values in
            values.flakyAttempts[name, default: 0] += 1
            return values.flakyAttempts[name]!
        }
    }

    /// Counts one more attempt at `/timeout-then-ok/:name` and returns its number (1 for the first).
    func nextTimeoutAttempt(_ name: String) -> Int {
        self.values.withLockedValue { values in
            values.timeoutAttempts[name, default: 0] += 1
            return values.timeoutAttempts[name]!
        }
    }

    // MARK: Hostile routes

    /// Counts a response to `path` whose client closed the connection before the body ended.
    func recordAbandoned(_ path: String) {
        self.values.withLockedValue { $0.abandonedResponses[path, default: 0] += 1 }
    }

    /// Adds `count` body bytes written for `path`.
    func recordBodyBytes(_ count: Int, for path: String) {
        self.values.withLockedValue { $0.bodyBytesSent[path, default: 0] += count }
    }

    // MARK: Uploads

    func beginUpload(id: String, expectedBytes: Int?) {
        self.values.withLockedValue { values in
            values.uploads[id] = .init(
                id: id,
                bytesReceived: 0,
                expectedBytes: expectedBytes,
                updates: 0,
                isComplete: false
            )
            values.latestUploadID = id
        }
    }

    func updateUpload(id: String, bytesReceived: Int, isComplete: Bool) {
        self.values.withLockedValue { values in
            values.uploads[id]?.bytesReceived = bytesReceived
            values.uploads[id]?.updates += 1
            values.uploads[id]?.isComplete = isComplete
        }
    }
}
