// Streaming benchmarks (issue 30): what reading a text/event-stream costs per event.
// `--filter "server-sent"` runs them alone.
import Foundation
import PrismHTTP
import PrismTestServer

#if AsyncHTTPClient && os(Linux)
import AsyncHTTPClient
import NIOCore
#endif

/// Parses 100,000 small events (`id`, `event` and a JSON `data` line each), fed in 16 KB chunks
/// as a transport delivers them, beside the least any reader does with the same bytes (split
/// them into lines, each made a string) in the same run. Bar: at least 100,000 events a second, 10 us each.
@MainActor
func serverSentEventBenchmarks() -> [Result] {
    guard selected("server-sent") else { return [] }
    let count = 100_000
    var stream: [UInt8] = []
    for index in 0..<count {
        stream += Array("id: \(index)\nevent: tick\ndata: {\"n\":\(index),\"text\":\"hello\"}\n\n".utf8)
    }
    let chunks = stride(from: 0, to: stream.count, by: 16_384).map {
        Array(stream[$0..<min($0 + 16_384, stream.count)])
    }
    let (parse, raw) = measurePair(
        operations: count,
        repetitions: 5,
        {
            var parser = PrismServerSentEventParser()
            var events = 0
            for chunk in chunks { events += (try? parser.parse(chunk).count) ?? 0 }
            precondition(events == count, "the parser dispatched \(events) events of \(count)")
        },
        against: {
            // The least any reader does: the lines, each made a string.
            var line: [UInt8] = []
            var lines = 0
            for chunk in chunks {
                for byte in chunk {
                    if byte == 0x0A {
                        blackHole(String(decoding: line, as: UTF8.self))
                        line.removeAll(keepingCapacity: true)
                        lines += 1
                    } else {
                        line.append(byte)
                    }
                }
            }
            precondition(lines == 4 * count)
        }
    )
    return [
        Result(
            name: "server-sent events: parse 100,000 small events (16 KB chunks)",
            timing: parse,
            baselineName: "the same bytes split into line strings",
            baseline: raw,
            bar: .atMostNanoseconds(10_000),
            note: String(format: "%.0f events/s", 1e9 / parse.nanosecondsPerOperation)
        )
    ]
}

/// `--filter "stream"`: Server-Sent Events parsed and delivered from a loopback stream against
/// reading the same stream's bytes (bar: at least 100,000 events a second). The 100 MB body
/// against raw AsyncHTTPClient is in LoadBenchmarks.swift.
@MainActor
func streamingNetworkBenchmarks() async throws -> [Result] {
    guard selected("stream") else { return [] }
    var results: [Result] = []
    let server = try await PrismTestServer.start()
    defer { Task { try? await server.shutdown() } }
    let client = PrismNetworkAdapter(cache: nil)

    // 100,000 events of about 50 bytes, one stream, read to its end through the client.
    let count = 100_000
    let text = (0..<count).map { "id: \($0)\nevent: tick\ndata: {\"n\":\($0)}\n\n" }.joined()
    let events: @Sendable () async throws -> Void = {
        server.script("bench-events", [.init(headers: [("Content-Type", "text/event-stream")], body: text)])
        let response = try await client.stream(PrismHTTPRequest(url: server.url("/scripted/bench-events")))
        var delivered = 0
        for try await _ in response.body.serverSentEvents() { delivered += 1 }
        precondition(delivered == count, "delivered \(delivered) events of \(count)")
    }
    let bytes: @Sendable () async throws -> Void = {
        server.script("bench-events", [.init(headers: [("Content-Type", "text/event-stream")], body: text)])
        let response = try await client.stream(PrismHTTPRequest(url: server.url("/scripted/bench-events")))
        var total = 0
        for try await chunk in response.body { total += chunk.count }
        precondition(total == text.utf8.count)
    }
    let (eventRate, byteRate) = try await pairedRate(
        rounds: 5, total: 4, concurrency: 1, candidate: events, baseline: bytes)
    let perEvent = 1e9 / (eventRate * Double(count))
    results.append(
        Result(
            name: "server-sent events: 100,000 delivered over loopback",
            timing: Timing(nanosecondsPerOperation: perEvent),
            baselineName: "the same stream's bytes, read",
            baseline: Timing(nanosecondsPerOperation: 1e9 / (byteRate * Double(count))),
            bar: .atMostNanoseconds(10_000),
            note: String(
                format: "%.0f events/s; the bytes alone %.0f events' worth/s", 1e9 / perEvent, byteRate * Double(count))
        ))
    return results
}

/// `--filter "download"`: downloads 1 GB from the test server (in this process) to a file through
/// the client and reports the highest resident memory above what was resident before (bar: at
/// most 16 MB), and the throughput.
func downloadMemoryBenchmark() async throws -> [String] {
    guard selected("download") else { return [] }
    let size = 1 << 30
    // The server runs in a child process, so that what is measured is the client's memory alone.
    let server = try TestServerProcess()
    defer { server.stop() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prism-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let client = PrismNetworkAdapter(cache: nil)
    // A small download first, so that the connection pool, the buffers and the code are warm.
    _ = try await client.download(
        PrismHTTPRequest(url: server.url("/large/\(8 << 20)")), to: folder.appendingPathComponent("warm.bin"))
    // The baseline, in the same run: raw AsyncHTTPClient streaming the same gigabyte to a file.
    var rawGrowth: Int?
    #if AsyncHTTPClient && os(Linux)
    if let rawBase = heapInUse() {
        let rawPeak = PeakMemory(baseline: rawBase)
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: server.url("/large/\(size)").absoluteString), timeout: .seconds(120))
        let rawFile = folder.appendingPathComponent("raw.bin")
        _ = FileManager.default.createFile(atPath: rawFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: rawFile)
        for try await buffer in response.body {
            try handle.write(contentsOf: Data(buffer.readableBytesView))
            rawPeak.sample()
        }
        try handle.close()
        try FileManager.default.removeItem(at: rawFile)
        rawGrowth = rawPeak.value
    }
    #endif
    guard let baseline = heapInUse() else {
        return ["download of 1 GB to a file, resident memory grows by at most 16 MB: NO (not measured: no /proc)"]
    }
    let peak = PeakMemory(baseline: baseline)
    let start = ContinuousClock.now
    let download = try await client.download(
        PrismHTTPRequest(url: server.url("/large/\(size)")), to: folder.appendingPathComponent("big.bin")
    ) { _ in peak.sample() }
    let elapsed = ContinuousClock.now - start
    precondition(download.byteCount == Int64(size), "downloaded \(download.byteCount) bytes of \(size)")
    let grown = peak.value
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let raw = rawGrowth.map { String(format: "; raw AsyncHTTPClient to a file: %.1f MB", Double($0) / Double(1 << 20)) }
    return [
        String(
            format: "download of 1 GB to a file: resident memory grew by at most %.1f MB (bar: 16 MB): %@; %.0f MB/s",
            Double(grown) / Double(1 << 20), grown <= 16 << 20 ? "yes" : "NO", Double(size) / seconds / 1e6)
            + (raw ?? "")
    ]
}

/// The highest resident memory above a baseline, sampled every 16th call.
private final class PeakMemory: @unchecked Sendable {
    private let lock = NSLock()
    private let baseline: Int
    private var calls = 0
    private var peak = 0

    init(baseline: Int) {
        self.baseline = baseline
    }

    func sample() {
        let due = lock.withLock { () -> Bool in
            calls += 1
            return calls % 16 == 0
        }
        guard due, let now = heapInUse() else { return }
        lock.withLock { peak = max(peak, now - baseline) }
    }

    var value: Int {
        let now = heapInUse() ?? baseline
        return lock.withLock { max(peak, now - baseline) }
    }
}

/// This benchmark program started again with `--serve`: the test server in a process of its own.
final class TestServerProcess {
    private let process = Process()
    let baseURL: URL

    init() throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = ["--serve"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Its first line is its URL.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        guard let url = URL(string: String(decoding: line, as: UTF8.self)), url.host != nil else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        baseURL = url
    }

    func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + path)!
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
