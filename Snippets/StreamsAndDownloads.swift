// Streams, events and downloads: a body read as it arrives, newline-delimited JSON, Server-Sent
// Events that reconnect, and a file downloaded with progress and resumed. It compiles with the
// package; it needs a server to run.
// snippet.hide
import Foundation
import Prism

struct LogRecord: Codable, Sendable {
    var level: String
    var message: String
}

struct ChatMessage: Codable, Sendable {
    var author: String
    var text: String
}

enum Endpoint: PrismNetworkEndpoint {
    case export
    case logs
    case chat(room: String)
    case video(id: Int)

    var host: String { "api.example.com" }

    var path: String {
        switch self {
        case .export: "/export"
        case .logs: "/logs"
        case .chat(let room): PrismPath.segments("rooms", room, "events")
        case .video(let id): PrismPath.segments("videos", String(id))
        }
    }
}

func show(_ message: ChatMessage) {}

struct ExportFailed: Error {
    var status: Int
}

func makeClient() -> PrismNetworkAdapter {
    // snippet.show
    // snippet.client
    // The initializer's arguments in its order (leave out any): transport, cache, interceptors,
    // authenticator, logger, retryPolicy, baseURL, retryClock.
    let client = PrismNetworkAdapter(
        retryPolicy: PrismExponentialBackoff(baseDelay: .milliseconds(200), maxAttempts: 3),
        baseURL: URL(string: "https://api.example.com/v2"),
        retryClock: ContinuousClock()  // a test passes a clock it controls
    )
    // snippet.end
    // snippet.hide
    return client
}

func streaming(client: PrismNetworkAdapter, file: FileHandle) async throws {
    // snippet.show
    // snippet.bytes
    let response = try await client.stream(on: Endpoint.export)
    guard response.isSuccess else { throw ExportFailed(status: response.statusCode) }
    for try await chunk in response.body {
        try file.write(contentsOf: chunk)  // a chunk at a time: the body is never whole in memory
    }
    // snippet.end
    // snippet.hide
}

func lines(client: PrismNetworkAdapter) async throws {
    // snippet.show
    // snippet.lines
    let records = try await client.stream(on: Endpoint.logs).body.jsonLines(of: LogRecord.self)
    for try await record in records where record.level == "error" {
        print(record.message)
    }
    // snippet.end
    // snippet.hide
}

func events(client: PrismNetworkAdapter) async throws {
    // snippet.show
    // snippet.events
    // Resumes after the last event the app showed, across launches.
    let saved = UserDefaults.standard.string(forKey: "chat.lastEventID") ?? ""
    for try await event in client.events(on: Endpoint.chat(room: "swift"), lastEventID: saved)
    where event.type == "message" {
        show(try event.decode(ChatMessage.self))
        // The event's `id:` (or the last one the stream gave before it).
        UserDefaults.standard.set(event.lastEventID, forKey: "chat.lastEventID")
    }
    // snippet.end
    // snippet.hide
}

func download(client: PrismNetworkAdapter, folder: URL) async throws {
    // snippet.show
    // snippet.download
    let video = try await client.download(
        on: Endpoint.video(id: 42),
        to: folder.appendingPathComponent("42.mp4"),
        policy: PrismDownloadPolicy(maximumBytes: 2 << 30, resumable: true)
    ) { progress in
        // totalBytes is nil until the server says how long the body is (Content-Length).
        let total = progress.totalBytes.map { " of \($0)" } ?? ""
        print("\(progress.bytesReceived)\(total) bytes, \(Int((progress.fraction ?? 0) * 100))%")
    }
    print("\(video.byteCount) bytes, SHA-256 \(video.sha256)")
    // snippet.end
    // snippet.hide
}
